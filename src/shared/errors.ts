import type { Logger } from './logger';
import { currentRequestId } from './request-context';

/** The error codes of the service and the HTTP status each one travels with (see the design's error envelope). */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
  // GraphQL's own refusals of a document (Apollo Server's codes, used on /graphql and /graphql/stream alike).
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  OPERATION_RESOLUTION_FAILURE: 400,
  PERSISTED_QUERY_NOT_SUPPORTED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UPSTREAM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  code: ErrorCode | string;
  message: string;
  details?: unknown;
}

/** An expected failure with a code, a message meant for the caller, and optional structured details. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** GraphQL copies an error's `extensions`, so an AppError thrown in a resolver keeps its code and HTTP status. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, ...(this.details === undefined ? {} : { details: this.details }), http: { status: this.status } };
  }
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);
}

export function statusForCode(code: unknown): number | undefined {
  return isErrorCode(code) ? ERROR_STATUS[code] : undefined;
}

/** The caller's input breaks a rule of the operation (a range, a format, an accepted value). */
export const badUserInput = (message: string, details?: unknown) => new AppError('BAD_USER_INPUT', message, details);

/**
 * A database error that is the caller's doing rather than a bug: PostgreSQL text cannot hold a NUL character.
 * Services check their inputs; this is the net under them.
 */
export function userErrorFromDatabase(error: unknown): AppError | null {
  const code = (error as { code?: string; driverError?: { code?: string } } | null)?.driverError?.code ?? (error as { code?: string } | null)?.code;
  return code === '22021' || code === '22P05' ? new AppError('BAD_USER_INPUT', 'Text must not contain NUL characters') : null;
}

/**
 * Turns anything thrown into the AppError a transport sends: an AppError as it is, a database error that is the
 * caller's doing as 400, anything else as a bug — logged with its detail, answered as INTERNAL_SERVER_ERROR with
 * nothing internal but the request id. Every transport's translator ends here, so a new rule (e.g. a database that
 * is down) is added once, below.
 */
export function toAppError(error: unknown, logger: Logger, what = 'request failed'): AppError {
  if (error instanceof AppError) return error;
  const fromDatabase = userErrorFromDatabase(error);
  if (fromDatabase) return fromDatabase;
  logger.error(what, { error: error instanceof Error ? error.stack : String(error) });
  const requestId = currentRequestId();
  return new AppError('INTERNAL_SERVER_ERROR', requestId ? `Internal server error (request id ${requestId})` : 'Internal server error');
}
