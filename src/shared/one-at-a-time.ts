/** Runs tasks one at a time, in the order they were handed in; a failed task does not stop the ones after it. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /** Tasks handed in and not finished, the running one included. */
  get length(): number {
    return this.queued;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.last.then(task).finally(() => this.queued--);
    this.last = result.catch(() => undefined);
    return result;
  }
}
