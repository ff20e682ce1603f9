import type { components } from './generated/openapi.js';

/** A stable error code of the service (the OpenAPI document's `ErrorCode`), or one of the client's own. */
export type ErrorCode = components['schemas']['ErrorCode'];
export type ClientErrorCode = 'TIMEOUT' | 'CONNECTION_FAILED' | 'INVALID_RESPONSE';

/**
 * Every failure the SDK reports, from the service's error envelope `{success: false, error: {code, message, details}}`
 * or from the client itself (timeouts, connection failures, a response that is not the service's). Catch a subclass
 * to handle one kind: `NotFoundError`, `RateLimitError`, …
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    /** The service's code (see ErrorCode), or the client's own (ClientErrorCode). */
    readonly code: ErrorCode | ClientErrorCode | (string & {}),
    /** The HTTP status; 0 when no response came. */
    readonly status: number,
    readonly details?: unknown,
    /** Seconds the service asked to wait before trying again (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Bad input or a malformed request (400, 405, 413, 414, 415): retrying the same request will not help. */
export class InvalidRequestError extends ApiError { override name = 'InvalidRequestError'; }
/** Missing, invalid, expired or revoked credentials (401). */
export class AuthenticationError extends ApiError { override name = 'AuthenticationError'; }
/** The credentials' role is too low (403). */
export class PermissionDeniedError extends ApiError { override name = 'PermissionDeniedError'; }
/** No such company, period, conversation or route (404). */
export class NotFoundError extends ApiError { override name = 'NotFoundError'; }
/** The rate limit is spent (429); `retryAfterSeconds` says when to come back. */
export class RateLimitError extends ApiError { override name = 'RateLimitError'; }
/** The database is away, all AI slots are busy or the service is stopping (503). */
export class ServiceUnavailableError extends ApiError { override name = 'ServiceUnavailableError'; }
/** The AI or embedding provider failed or did not answer in time (502, 504). */
export class UpstreamError extends ApiError { override name = 'UpstreamError'; }
/** A bug in the service (500); the message carries a request id for its log. */
export class InternalServerError extends ApiError { override name = 'InternalServerError'; }
/** The client gave up waiting (the `timeoutMs` option). */
export class TimeoutError extends ApiError { override name = 'TimeoutError'; }
/** No HTTP answer at all: refused connection, DNS, TLS, a reset. */
export class ConnectionError extends ApiError { override name = 'ConnectionError'; }

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
  RATE_LIMITED: RateLimitError,
  SERVICE_UNAVAILABLE: ServiceUnavailableError,
  SHUTTING_DOWN: ServiceUnavailableError,
  UPSTREAM_ERROR: UpstreamError,
  UPSTREAM_TIMEOUT: UpstreamError,
  INTERNAL_SERVER_ERROR: InternalServerError,
} as const satisfies Record<ErrorCode, ErrorClass>;

/** The typed error for a code the service sent (ApiError itself for a code this SDK does not know yet). */
export function errorFor(code: string, message: string, status: number, details?: unknown, retryAfterSeconds?: number): ApiError {
  const ErrorType: ErrorClass = (ERROR_CLASSES as Record<string, ErrorClass>)[code] ?? ApiError;
  return new ErrorType(message, code, status, details, retryAfterSeconds);
}
