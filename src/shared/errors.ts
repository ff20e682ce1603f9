import { GraphQLError } from 'graphql';

/** The error codes of the service and the HTTP status each one travels with (see the design's error envelope). */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
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
  SHUTTING_DOWN: 503,
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

export function statusForCode(code: unknown): number | undefined {
  return typeof code === 'string' && code in ERROR_STATUS ? ERROR_STATUS[code as ErrorCode] : undefined;
}

/**
 * A GraphQL error carrying the service's code and its HTTP status; Apollo Server uses `extensions.http.status`
 * as the response status and strips it from the body.
 */
export function graphQLError(code: ErrorCode, message: string, details?: unknown): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, ...(details === undefined ? {} : { details }), http: { status: ERROR_STATUS[code] } },
  });
}

export const badUserInput = (message: string, details?: unknown) => graphQLError('BAD_USER_INPUT', message, details);

/**
 * A database error that is the caller's doing rather than a bug: PostgreSQL text cannot hold a NUL character.
 * Services check their inputs; this is the net under them.
 */
export function userErrorFromDatabase(error: unknown): AppError | null {
  const code = (error as { code?: string; driverError?: { code?: string } } | null)?.driverError?.code ?? (error as { code?: string } | null)?.code;
  return code === '22021' || code === '22P05' ? new AppError('BAD_USER_INPUT', 'Text must not contain NUL characters') : null;
}
