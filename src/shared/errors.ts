import type { Logger } from './logger';
import { AppError } from './app-error';
import { databaseUnavailable } from './database-unavailable';

// The codes and the AppError class live in app-error.ts, so that the database's outage mapping can use them while
// this module's translator uses it.
export * from './app-error';

/**
 * A database error that is the caller's doing rather than a bug: PostgreSQL text cannot hold a NUL character.
 * Services check their inputs; this is the net under them.
 */
export function userErrorFromDatabase(error: unknown): AppError | null {
  const code =
    (error as { code?: string; driverError?: { code?: string } } | null)?.driverError?.code ??
    (error as { code?: string } | null)?.code;
  return code === '22021' || code === '22P05'
    ? new AppError('BAD_USER_INPUT', 'Text must not contain NUL characters')
    : null;
}

/**
 * Turns anything thrown into the AppError a transport sends: an AppError as it is, a database error that is the
 * caller's doing as 400, a database that cannot be reached as 503 with Retry-After, anything else as a bug — logged with its detail, answered as INTERNAL_SERVER_ERROR with
 * nothing internal but the request id (`requestId`, the request being served). Every transport's translator ends
 * here, so a new rule (e.g. a database that is down) is added once, below.
 */
export function toAppError(error: unknown, logger: Logger, what = 'request failed', requestId?: string): AppError {
  if (error instanceof AppError) return error;
  const unavailable = databaseUnavailable(error);
  if (unavailable) return unavailable;
  const fromDatabase = userErrorFromDatabase(error);
  if (fromDatabase) return fromDatabase;
  logger.error(what, { requestId, error: error instanceof Error ? error.stack : String(error) });
  return new AppError(
    'INTERNAL_SERVER_ERROR',
    requestId ? `Internal server error (request id ${requestId})` : 'Internal server error',
  );
}
