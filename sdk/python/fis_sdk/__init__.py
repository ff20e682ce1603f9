"""The Python SDK of the financial insights service: REST (/v1) and the chat stream, standard library only."""
from . import models, params
from .client import Client, Page
from .errors import (
    ApiConnectionError, ApiError, ApiTimeoutError, AuthenticationError, ConflictError, InternalServerError, InvalidRequestError, NotFoundError,
    PermissionDeniedError, RateLimitError, ServiceUnavailableError, StreamInterruptedError, UpstreamError,
)
from .streams import ChatStream, ChatStreamEvent, UnknownChatEvent

__all__ = [
    "Client", "Page", "ChatStream", "ChatStreamEvent", "UnknownChatEvent", "models", "params", "ApiError", "ApiConnectionError",
    "ApiTimeoutError", "AuthenticationError", "ConflictError", "InternalServerError", "InvalidRequestError", "NotFoundError", "PermissionDeniedError",
    "RateLimitError", "ServiceUnavailableError", "StreamInterruptedError", "UpstreamError",
]
