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
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
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
    return {
      code: this.code,
      ...(this.details === undefined ? {} : { details: this.details }),
      http: { status: this.status },
    };
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
