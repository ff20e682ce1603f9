/** Runs tasks one at a time, in the order they were handed in; a failed task does not stop the ones after it. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.last.then(task);
    this.last = result.catch(() => undefined);
    return result;
  }
}
