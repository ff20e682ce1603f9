import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestScope {
  requestId: string;
  /** Aborted (with an AppError SHUTTING_DOWN) when the service stops and the request is still running at the deadline. */
  shutdown?: AbortSignal;
}

/** The request a piece of work belongs to, so every log line it writes carries the request id. */
const current = new AsyncLocalStorage<RequestScope>();

export function runWithRequestId<T>(requestId: string, work: () => T, shutdown?: AbortSignal): T {
  return current.run({ requestId, shutdown }, work);
}

export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/**
 * `signal`, also aborted when the service's shutdown deadline comes while this request runs; long work (an AI
 * stream) then ends with the shutdown as its reason, so the client is told instead of cut off.
 */
export function withShutdown(signal: AbortSignal): AbortSignal {
  const shutdown = current.getStore()?.shutdown;
  return shutdown ? AbortSignal.any([signal, shutdown]) : signal;
}
