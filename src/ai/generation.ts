import { AppError } from '../shared/errors';
import type { Writer, WriterStatus, WritingTask } from './writer';

/** Limits of every call to a writer (see AI_TIMEOUT_MS, AI_MAX_CONCURRENCY). */
export interface GenerationLimits {
  /** The whole generation, retries included, ends within this; then it is a 504. */
  timeoutMs: number;
  /** Generations running at once; more wait for a slot (up to the timeout, then 503). */
  maxConcurrency: number;
  /** Aborted at the service's shutdown deadline: a generation still running then ends with SHUTTING_DOWN. */
  shutdown?: AbortSignal;
  /** Told how each generation ended, and for which request (for metrics and the log). */
  onOutcome?: (outcome: 'ok' | 'upstream_error' | 'timeout' | 'cancelled' | 'busy', requestId?: string) => void;
}

/** Whom a generation works for: its request's signal (aborted when the client goes away) and id. */
export interface GenerationCaller {
  signal: AbortSignal;
  requestId?: string;
}

function outcomeOf(error: unknown): 'upstream_error' | 'timeout' | 'cancelled' | 'busy' {
  const code = (error as AppError)?.code;
  if (error instanceof ClientGone || code === 'SHUTTING_DOWN') return 'cancelled';
  return code === 'UPSTREAM_TIMEOUT' ? 'timeout' : code === 'SERVICE_UNAVAILABLE' ? 'busy' : 'upstream_error';
}

const MAX_RETRIES = 2;

/** A counting semaphore: at most `size` holders; waiters give up after a timeout. */
export class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async acquire(timeoutMs: number, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw signal.reason;
    if (this.active < this.size) this.active += 1;
    else {
      // A released slot is handed straight to the next waiter (`active` stays as it is), so nobody can slip in between.
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const leave = (error: unknown) => {
          clearTimeout(timer);
          const index = this.waiting.indexOf(grant);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(error);
        };
        const onAbort = () => leave(signal.reason);
        const timer = setTimeout(
          () =>
            leave(
              new AppError(
                'SERVICE_UNAVAILABLE',
                `All ${this.size} AI slots stayed busy for ${timeoutMs} ms; try again shortly`,
                undefined,
                { 'retry-after': '5' },
              ),
            ),
          timeoutMs,
        );
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(grant);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    };
  }
}

/** Rejects when the signal aborts, so a stuck await (a provider that never answers) ends on time. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function upstreamError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const message = (error as Error)?.message ?? String(error);
  return new AppError('UPSTREAM_ERROR', `The language model failed: ${message.slice(0, 300)}`);
}

export class ClientGone extends Error {
  constructor() {
    super('the client went away');
  }
}

/**
 * Runs a writer under the limits: a deadline over the whole generation, up to two retries while nothing has been
 * produced yet (a stream cannot be taken back), and cancellation when the caller's signal aborts (client gone).
 */
export async function* generate(
  writer: Writer,
  task: WritingTask,
  limits: GenerationLimits,
  slots: Slots,
  caller: GenerationCaller,
): AsyncGenerator<string | WriterStatus> {
  try {
    // A generation also ends at the service's shutdown deadline, and then says so (SHUTTING_DOWN).
    yield* attempts(
      writer,
      task,
      limits,
      slots,
      limits.shutdown ? AbortSignal.any([caller.signal, limits.shutdown]) : caller.signal,
    );
    limits.onOutcome?.('ok', caller.requestId);
  } catch (error) {
    limits.onOutcome?.(outcomeOf(error), caller.requestId);
    throw error;
  }
}

async function* attempts(
  writer: Writer,
  task: WritingTask,
  limits: GenerationLimits,
  slots: Slots,
  caller: AbortSignal,
): AsyncGenerator<string | WriterStatus> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  // Ended by us when the consumer stops reading early: the provider call must not outlive its slot.
  const own = new AbortController();
  const signal = AbortSignal.any([caller, deadline, own.signal]);
  const release = await slots.acquire(limits.timeoutMs, caller);
  try {
    for (let attempt = 0; ; attempt += 1) {
      let produced = false;
      const iterator = writer.write(task, signal)[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await abortable(iterator.next(), signal);
          if (next.done) return;
          produced = true;
          yield next.value;
        }
      } catch (error) {
        void iterator.return?.()?.catch(() => undefined);
        // The service stopping says so (SHUTTING_DOWN); a client that went away needs no answer.
        if (caller.aborted) throw caller.reason instanceof AppError ? caller.reason : new ClientGone();
        if (deadline.aborted)
          throw new AppError('UPSTREAM_TIMEOUT', `The language model did not finish within ${limits.timeoutMs} ms`);
        if (produced || attempt >= MAX_RETRIES) throw upstreamError(error);
        await abortable(new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt)), signal).catch(
          () => undefined,
        );
        if (deadline.aborted)
          throw new AppError('UPSTREAM_TIMEOUT', `The language model did not finish within ${limits.timeoutMs} ms`);
      }
    }
  } finally {
    own.abort(new ClientGone());
    release();
  }
}

/** The whole text of a generation. */
export async function generateText(
  writer: Writer,
  task: WritingTask,
  limits: GenerationLimits,
  slots: Slots,
  caller: GenerationCaller,
): Promise<string> {
  let text = '';
  for await (const piece of generate(writer, task, limits, slots, caller)) if (typeof piece === 'string') text += piece;
  return text;
}
