"""The Python SDK of the financial insights service: REST (/v1) and the chat stream, standard library only."""
from .client import Client, Page
from .errors import (
    ApiConnectionError, ApiError, ApiTimeoutError, AuthenticationError, InternalServerError, InvalidRequestError, NotFoundError,
    PermissionDeniedError, RateLimitError, ServiceUnavailableError, UpstreamError,
)
from . import models

__all__ = [
    "Client", "Page", "models", "ApiError", "ApiConnectionError", "ApiTimeoutError", "AuthenticationError", "InternalServerError",
    "InvalidRequestError", "NotFoundError", "PermissionDeniedError", "RateLimitError", "ServiceUnavailableError", "UpstreamError",
]
