import type { components } from './generated/openapi.js';

/** A stable error code of the service (the OpenAPI document's `ErrorCode`), or one of the client's own. */
export type ErrorCode = components['schemas']['ErrorCode'];
export type ClientErrorCode = 'TIMEOUT' | 'CONNECTION_FAILED' | 'INVALID_RESPONSE' | 'STREAM_INTERRUPTED';

/** Where an error came from: the request id the service gave it (X-Request-Id) and the response's headers. */
export interface ErrorContext {
  requestId?: string;
  headers?: Readonly<Record<string, string>>;
}

/**
 * Every failure the SDK reports, from the service's error envelope `{success: false, error: {code, message, details}}`
 * or from the client itself (timeouts, connection failures, a response that is not the service's). Catch a subclass
 * to handle one kind: `NotFoundError`, `RateLimitError`, …
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** The service's id of the request (its X-Request-Id), to find it in the service's log; absent when no response came. */
  readonly requestId?: string;
  /** The headers of the failed response (names in lower case); empty when no response came. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    message: string,
    /** The service's code (see ErrorCode), or the client's own (ClientErrorCode). */
    readonly code: ErrorCode | ClientErrorCode | (string & {}),
    /** The HTTP status; 0 when no response came. */
    readonly status: number,
    /** What the service said about the fault, e.g. `{field, accepted}` for a value out of its set. */
    readonly details?: ErrorDetails,
    /** Seconds the service asked to wait before trying again (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
    context: ErrorContext = {},
  ) {
    super(message);
    this.requestId = context.requestId;
    this.headers = context.headers ?? {};
  }
}

/** The `details` of an error: the field at fault and the values it accepts, when those apply, and more by code. */
export type ErrorDetails = components['schemas']['ErrorDetails'];

/** Bad input or a malformed request (400, 405, 413, 414, 415): retrying the same request will not help. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
}
/** Missing, invalid, expired or revoked credentials (401). */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/** The credentials' role is too low (403). */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
/** No such company, period, conversation or route (404). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** The write would take what another resource holds, e.g. a ticker of another company (409); `details.field` names it. */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/** The rate limit is spent (429); `retryAfterSeconds` says when to come back. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
/** The database is away, all AI slots are busy or the service is stopping (503). */
export class ServiceUnavailableError extends ApiError {
  override name = 'ServiceUnavailableError';
}
/** The AI or embedding provider failed or did not answer in time (502, 504). */
export class UpstreamError extends ApiError {
  override name = 'UpstreamError';
}
/** A bug in the service (500); the message carries a request id for its log. */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}
/** The client gave up waiting (the `timeoutMs` option). */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}
/** No HTTP answer at all: refused connection, DNS, TLS, a reset. */
export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
}

/**
 * A chat stream that stopped before its `done` event: the connection dropped or the service went away mid-answer.
 * `partialText` is the answer as far as it arrived and `events` every event that did; the answer is incomplete.
 */
export class StreamInterruptedError<Event = unknown> extends ApiError {
  override name = 'StreamInterruptedError';
  constructor(
    message: string,
    status: number,
    readonly partialText: string,
    readonly events: readonly Event[],
    context: ErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, 'STREAM_INTERRUPTED', status, undefined, undefined, context);
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }
}

type ErrorClass = new (...args: ConstructorParameters<typeof ApiError>) => ApiError;

/** The class of each code; typed by the document's codes, so a new code fails the SDK's build until it is placed. */
const ERROR_CLASSES = {
  BAD_USER_INPUT: InvalidRequestError,
  BAD_REQUEST: InvalidRequestError,
  GRAPHQL_PARSE_FAILED: InvalidRequestError,
  GRAPHQL_VALIDATION_FAILED: InvalidRequestError,
  OPERATION_RESOLUTION_FAILURE: InvalidRequestError,
  PERSISTED_QUERY_NOT_SUPPORTED: InvalidRequestError,
  METHOD_NOT_ALLOWED: InvalidRequestError,
  REQUEST_TIMEOUT: InvalidRequestError,
  PAYLOAD_TOO_LARGE: InvalidRequestError,
  URI_TOO_LONG: InvalidRequestError,
  UNSUPPORTED_MEDIA_TYPE: InvalidRequestError,
  UNAUTHENTICATED: AuthenticationError,
  FORBIDDEN: PermissionDeniedError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  RATE_LIMITED: RateLimitError,
  SERVICE_UNAVAILABLE: ServiceUnavailableError,
  SHUTTING_DOWN: ServiceUnavailableError,
  UPSTREAM_ERROR: UpstreamError,
  UPSTREAM_TIMEOUT: UpstreamError,
  INTERNAL_SERVER_ERROR: InternalServerError,
} as const satisfies Record<ErrorCode, ErrorClass>;

/** The typed error for a code the service sent (ApiError itself for a code this SDK does not know yet). */
export function errorFor(
  code: string,
  message: string,
  status: number,
  details?: ErrorDetails,
  retryAfterSeconds?: number,
  context?: ErrorContext,
): ApiError {
  const ErrorType: ErrorClass = (ERROR_CLASSES as Record<string, ErrorClass>)[code] ?? ApiError;
  return new ErrorType(message, code, status, details, retryAfterSeconds, context);
}
