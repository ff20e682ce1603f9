"""The HTTP side of the client, with nothing but the standard library (urllib): credentials, timeouts, retries that
honour Retry-After, and the service's error envelope turned into typed errors."""
import email.utils
import json
import os
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from http.client import HTTPResponse
from typing import Any, Dict, Mapping, Optional

from .errors import ApiConnectionError, ApiError, ApiTimeoutError, error_for

OAUTH_STATUS_CODES = {400: "BAD_USER_INPUT", 401: "UNAUTHENTICATED", 405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE",
                      415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMITED", 503: "SERVICE_UNAVAILABLE"}
"""The service's code for the status of an OAuth error (RFC 6749 names the error, not a code)."""

REFUSED_BEFORE_RUNNING = (429, 503)
"""Statuses the service answers without having run the call: always worth another try."""
GATEWAY_FAILURES = (502, 504)
"""Statuses worth another try only for calls safe to send twice."""


def retry_after_seconds(header: Optional[str], now: Optional[float] = None) -> Optional[int]:
    """Seconds from a Retry-After header: delay-seconds or an HTTP date."""
    if not header:
        return None
    header = header.strip()
    if header.isdigit():
        return int(header)
    try:
        when = email.utils.parsedate_to_datetime(header).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0, int(when - (time.time() if now is None else now) + 0.999))


def retry_delay(attempt: int, retry_after: Optional[int], max_retry_delay: float) -> float:
    """Seconds before try `attempt + 1`: what Retry-After says (with a little jitter, so clients told the same second
    do not all come back at once), or an exponential backoff with full jitter."""
    if retry_after is not None:
        return retry_after + random.uniform(0, 0.25)
    return random.uniform(0, min(0.5 * 2 ** attempt, max_retry_delay))


def environment(name: str) -> Optional[str]:
    value = os.environ.get(name, "").strip()
    return value or None


def context_of(headers: Any) -> Dict[str, Any]:
    """The request id and headers of a response, for its errors."""
    lowered = {str(name).lower(): str(value) for name, value in (headers.items() if headers is not None else [])}
    return {"request_id": lowered.get("x-request-id"), "headers": lowered}


class Transport:
    """Sends requests to one service. Options left out come from the environment: FIS_BASE_URL, FIS_API_KEY (an
    `api_key` of "" asks for no key at all)."""

    def __init__(self, base_url: Optional[str], api_key: Optional[str], access_token: Optional[str], timeout: float,
                 max_retries: int, max_retry_delay: float, headers: Optional[Mapping[str, str]]):
        base_url = base_url or environment("FIS_BASE_URL")
        if not base_url:
            raise ValueError("base_url is required (or FIS_BASE_URL in the environment), e.g. http://localhost:8080")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key if api_key is not None or access_token else environment("FIS_API_KEY")
        self.access_token = access_token
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.headers = dict(headers or {})

    def json(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None, timeout: Optional[float] = None,
             idempotent: Optional[bool] = None) -> Dict[str, Any]:
        """A JSON request: the `{success, data, meta}` body of a success, or a typed error."""
        with self.send(method, path, query=query, body=body, timeout=timeout, idempotent=idempotent) as response:
            status = response.status
            context = context_of(response.headers)
            try:
                result = json.loads(self.read(response, method, path, timeout))
            except ValueError:
                raise ApiError(f"{method} {path} answered {status} with a body that is not JSON", "INVALID_RESPONSE", status, **context) from None
        if not isinstance(result, dict) or result.get("success") is not True:
            raise ApiError(f"Unexpected answer from {path}", "INVALID_RESPONSE", status, **context)
        return result

    def read(self, response: HTTPResponse, method: str, path: str, timeout: Optional[float]) -> bytes:
        try:
            return response.read()
        except socket.timeout:
            raise ApiTimeoutError(f"{method} {path} took longer than {timeout or self.timeout} s", "TIMEOUT", 0) from None

    def send(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None, stream: bool = False,
             timeout: Optional[float] = None, idempotent: Optional[bool] = None) -> HTTPResponse:
        """Sends a request and returns the open response of a success. A 429 or 503 is tried again (the service did
        not run the call), a 502, 504 or a connection failure too when the call is safe to send twice."""
        safe = method != "POST" if idempotent is None else idempotent
        attempt = 0
        while True:
            try:
                return self._attempt(method, path, query, body, stream, timeout or self.timeout)
            except ApiError as error:
                retryable = error.status in REFUSED_BEFORE_RUNNING or (safe and (error.status in GATEWAY_FAILURES or isinstance(error, ApiConnectionError)))
                wait = retry_delay(attempt, error.retry_after, self.max_retry_delay)
                if not retryable or attempt >= self.max_retries or wait > self.max_retry_delay + 0.25:
                    raise
                time.sleep(wait)
                attempt += 1

    def _attempt(self, method: str, path: str, query: Optional[Mapping[str, Any]], body: Any, stream: bool, timeout: float) -> HTTPResponse:
        url = self.base_url + path
        params = {key: value for key, value in (query or {}).items() if value is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {"Accept": "text/event-stream" if stream else "application/json", **self.headers}
        if self.access_token:
            headers["Authorization"] = f"Bearer {self.access_token}"
        elif self.api_key:
            headers["X-API-Key"] = self.api_key
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            response: HTTPResponse = urllib.request.urlopen(request, timeout=timeout)
            return response
        except urllib.error.HTTPError as failure:
            with failure:
                raise self._error_of(failure, method, path) from None
        except (socket.timeout, TimeoutError):
            raise ApiTimeoutError(f"{method} {path} took longer than {timeout} s", "TIMEOUT", 0) from None
        except urllib.error.URLError as failure:
            if isinstance(failure.reason, (socket.timeout, TimeoutError)):
                raise ApiTimeoutError(f"{method} {path} took longer than {timeout} s", "TIMEOUT", 0) from None
            raise ApiConnectionError(f"{method} {url} failed: {failure.reason}", "CONNECTION_FAILED", 0) from None
        except OSError as failure:
            raise ApiConnectionError(f"{method} {url} failed: {failure}", "CONNECTION_FAILED", 0) from None

    @staticmethod
    def _error_of(failure: urllib.error.HTTPError, method: str, path: str) -> ApiError:
        """The typed error of a failed response: the service's envelope (or, at /graphql/stream, GraphQL's errors)."""
        retry_after = retry_after_seconds(failure.headers.get("Retry-After"))
        context = context_of(failure.headers)
        text = failure.read().decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except ValueError:
            return ApiError(f"{method} {path} answered {failure.code}: {text[:200]}", "INVALID_RESPONSE", failure.code, None, retry_after, **context)
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, str):  # OAuth's shape (the token endpoint): the error's name, no code
            code = OAUTH_STATUS_CODES.get(failure.code, "INTERNAL_SERVER_ERROR")
            return error_for(code, body.get("error_description", error), failure.code, {"oauth_error": error}, retry_after, **context)
        if error is None and isinstance(body, dict) and body.get("errors"):
            first = body["errors"][0]
            error = {"code": (first.get("extensions") or {}).get("code"), "message": first.get("message", "")}
        if not isinstance(error, dict) or not error.get("code"):
            return ApiError(f"{method} {path} answered {failure.code}", "INVALID_RESPONSE", failure.code, body, retry_after, **context)
        return error_for(str(error["code"]), str(error.get("message", "")), failure.code, error.get("details"), retry_after, **context)
