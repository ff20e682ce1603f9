import { AppError } from './app-error';

/** What a client is told to wait before retrying while the database is away (a restart takes about a second). */
export const RETRY_AFTER_SECONDS = 2;

// Node socket errors that mean the server cannot be reached or went away.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// PostgreSQL: the server is shutting down or starting (57P01-57P03); class 08 is "connection exception".
const SERVER_CODES = /^(57P0[123]|08...)$/;
// What `pg`, `pg-pool` and TypeORM say when a connection is gone; they set no code for these.
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /connection is not established/i,
  /client has encountered a connection error and is not queryable/i,
  /cannot use a pool after calling end/i,
  /client was closed and is not queryable/i,
];

// TypeORM releases a query runner by itself only when the runner's connection fails; the service never uses a
// runner it released, so a statement refused for this reason (inside a transaction, often its COMMIT or ROLLBACK)
// means the connection was lost.
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/**
 * What `pg-pool` says when a request waited its whole connect timeout for a connection of the pool: every
 * connection was in use, which is a busy database, not one that is down (a server that does not answer fails as
 * "Connection terminated due to connection timeout").
 */
const POOL_WAIT_TIMEOUT = /timeout exceeded when trying to connect/i;

/** Whether `error` says the request could not get a connection of the pool in time because all were in use. */
export function isPoolBusy(error: unknown): boolean {
  return error instanceof Error && POOL_WAIT_TIMEOUT.test(error.message);
}

/** Whether `error` (or what it wraps) says the database cannot be reached, as opposed to a failing statement. */
export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, name, driverError, originalError, cause } = error as Record<string, unknown>;
  if (typeof name === 'string' && RELEASED_RUNNER_ERRORS.has(name)) return true;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.test(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  return [driverError, originalError, cause].some((inner) => isConnectionError(inner, depth + 1));
}

/** The answer while the database is away: 503 with Retry-After, the same on every transport. */
export function serviceUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The database is not available right now; retry shortly', undefined, {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
}

/** The answer when every connection stayed in use for the connect timeout: 503 with Retry-After, the database is up. */
export function databaseBusy(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The database is busy; retry shortly', undefined, {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
}

type OutageListener = () => void;
const listeners = new Set<OutageListener>();

/** Called with every connection-level failure a translator meets, so the database's health can check itself. */
export function onConnectionFailure(listener: OutageListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A connection failed (a query's, or an idle one the pool dropped): the database's health checks itself. */
export function noteConnectionFailure(): void {
  for (const listener of listeners) listener();
}

/**
 * The one mapping of a database outage to an error: a connection-level failure becomes SERVICE_UNAVAILABLE (503,
 * Retry-After) and tells the database health to look; a pool whose connections all stayed busy is a 503 too, but
 * no outage; anything else is not ours (null). Every error translator
 * (REST, /graphql, /graphql/stream, the HTTP server) calls this first.
 */
export function databaseUnavailable(error: unknown): AppError | null {
  if (error instanceof AppError) return null;
  if (isPoolBusy(error)) return databaseBusy();
  if (!isConnectionError(error)) return null;
  noteConnectionFailure();
  return serviceUnavailable();
}
