import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';

/**
 * A request's id travels explicitly: the HTTP server names each request, transports put the id into the resolvers'
 * context, and code that logs or reports a failure for a request passes it along. AsyncLocalStorage would carry it
 * implicitly, but on Node 20 it runs a hook on every promise the process creates, a cost paid by every request. It is
 * kept for debug logging only, where TypeORM writes SQL lines
 * with no request at hand.
 */
const requestIds = new WeakMap<IncomingMessage, string>();

export function nameRequest(req: IncomingMessage, requestId: string): void {
  requestIds.set(req, requestId);
}

/** The id the HTTP server gave this request (the one sent back in X-Request-Id). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return requestIds.get(req);
}

const debugScope = new AsyncLocalStorage<string>();

/** Runs a request's work so that debug lines written deep inside it (SQL) carry its id. Debug level only. */
export function runInDebugScope<T>(requestId: string, work: () => T): T {
  return debugScope.run(requestId, work);
}

export function debugScopeRequestId(): string | undefined {
  return debugScope.getStore();
}
