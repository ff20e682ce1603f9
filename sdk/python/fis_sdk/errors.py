"""Errors by code: every failure of the service's error envelope, and the client's own (timeouts, connections)."""
from typing import Any, Dict, Mapping, Optional, Sequence, Type


class ApiError(Exception):
    """A failure: `code` is the service's stable code (or the client's: TIMEOUT, CONNECTION_FAILED,
    INVALID_RESPONSE, STREAM_INTERRUPTED), `status` the HTTP status (0 when no response came), `details` what the
    service said about the fault (`field`, `accepted`), `retry_after` the seconds the service asked to wait
    (Retry-After), `request_id` the service's id of the request (X-Request-Id, for its log) and `headers` those of
    the failed response (names in lower case)."""

    def __init__(self, message: str, code: str, status: int, details: Any = None, retry_after: Optional[int] = None,
                 request_id: Optional[str] = None, headers: Optional[Mapping[str, str]] = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details
        self.retry_after = retry_after
        self.request_id = request_id
        self.headers: Dict[str, str] = dict(headers or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, message={self.message!r}, request_id={self.request_id!r})"


class StreamInterruptedError(ApiError):
    """A chat stream that stopped before its `done` event: the connection dropped or the service went away
    mid-answer. `partial_text` is the answer as far as it arrived and `events` every event that did."""

    def __init__(self, message: str, status: int, partial_text: str, events: Sequence[Any], request_id: Optional[str] = None,
                 headers: Optional[Mapping[str, str]] = None):
        super().__init__(message, "STREAM_INTERRUPTED", status, request_id=request_id, headers=headers)
        self.partial_text = partial_text
        self.events = list(events)


class InvalidRequestError(ApiError):
    """Bad input or a malformed request (400, 405, 413, 414, 415): retrying the same request will not help."""


class AuthenticationError(ApiError):
    """Missing, invalid, expired or revoked credentials (401)."""


class PermissionDeniedError(ApiError):
    """The credentials' role is too low (403)."""


class NotFoundError(ApiError):
    """No such company, period, conversation or route (404)."""


class ConflictError(ApiError):
    """The write would take what another resource holds, e.g. a ticker of another company (409); `details["field"]` names it."""


class RateLimitError(ApiError):
    """The rate limit is spent (429); `retry_after` says when to come back."""


class ServiceUnavailableError(ApiError):
    """The database is away, all AI slots are busy or the service is stopping (503)."""


class UpstreamError(ApiError):
    """The AI or embedding provider failed or did not answer in time (502, 504)."""


class InternalServerError(ApiError):
    """A bug in the service (500); the message carries a request id for its log."""


class ApiTimeoutError(ApiError, TimeoutError):
    """The client gave up waiting (the `timeout` option)."""


class ApiConnectionError(ApiError, ConnectionError):
    """No HTTP answer at all: refused connection, DNS, TLS, a reset."""


ERROR_CLASSES: Dict[str, Type[ApiError]] = {
    "BAD_USER_INPUT": InvalidRequestError,
    "BAD_REQUEST": InvalidRequestError,
    "GRAPHQL_PARSE_FAILED": InvalidRequestError,
    "GRAPHQL_VALIDATION_FAILED": InvalidRequestError,
    "OPERATION_RESOLUTION_FAILURE": InvalidRequestError,
    "PERSISTED_QUERY_NOT_SUPPORTED": InvalidRequestError,
    "METHOD_NOT_ALLOWED": InvalidRequestError,
    "REQUEST_TIMEOUT": InvalidRequestError,
    "PAYLOAD_TOO_LARGE": InvalidRequestError,
    "URI_TOO_LONG": InvalidRequestError,
    "UNSUPPORTED_MEDIA_TYPE": InvalidRequestError,
    "UNAUTHENTICATED": AuthenticationError,
    "FORBIDDEN": PermissionDeniedError,
    "NOT_FOUND": NotFoundError,
    "CONFLICT": ConflictError,
    "RATE_LIMITED": RateLimitError,
    "SERVICE_UNAVAILABLE": ServiceUnavailableError,
    "SHUTTING_DOWN": ServiceUnavailableError,
    "UPSTREAM_ERROR": UpstreamError,
    "UPSTREAM_TIMEOUT": UpstreamError,
    "INTERNAL_SERVER_ERROR": InternalServerError,
}
"""The class of each of the service's codes (the OpenAPI document's ErrorCode; a test checks they match)."""


def error_for(code: str, message: str, status: int, details: Any = None, retry_after: Optional[int] = None,
              request_id: Optional[str] = None, headers: Optional[Mapping[str, str]] = None) -> ApiError:
    """The typed error for a code the service sent (ApiError itself for a code this SDK does not know yet)."""
    return ERROR_CLASSES.get(code, ApiError)(message, code, status, details, retry_after, request_id, headers)
