import { AsyncLocalStorage } from 'node:async_hooks';

/** The request a piece of work belongs to, so every log line it writes carries the request id. */
const current = new AsyncLocalStorage<{ requestId: string }>();

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return current.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}
