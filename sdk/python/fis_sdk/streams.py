"""Chat answers as they stream, over REST (Server-Sent Events) and the GraphQL subscription (graphql-sse), as one kind
of typed event; a stream ends with its `done` event or raises."""
import http.client
import re
import socket
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Literal, Optional, Tuple, Union

from .errors import ApiError, ApiTimeoutError, StreamInterruptedError, error_for
from .models import CHAT_EVENTS, ChatDoneEvent, ChatEventCitations, ChatEventDone, ChatEventStatus, ChatEventToken, from_json
from .sse import read_events


@dataclass(frozen=True)
class UnknownChatEvent:
    """An event of a name this SDK does not know yet (a newer service): passed on as it came, never fatal."""
    event: Literal["unknown"]
    name: str
    data: Any


ChatStreamEvent = Union[ChatEventStatus, ChatEventToken, ChatEventCitations, ChatEventDone, UnknownChatEvent]
"""An event as a chat stream yields it (an `error` event is raised as a typed error instead); narrow on `event.event`."""

GRAPHQL_EVENT_NAMES = {"ChatStatusEvent": "status", "ChatTokenEvent": "token", "ChatCitationsEvent": "citations", "ChatDoneEvent": "done",
                       "ChatErrorEvent": "error"}
"""The REST event name of each event type of the GraphQL subscription."""


def _snake(value: Any) -> Any:
    """GraphQL's camelCase keys in REST's snake_case, all the way down."""
    if isinstance(value, dict):
        return {re.sub(r"(?<!^)([A-Z])", r"_\1", key).lower(): _snake(item) for key, item in value.items() if key != "__typename"}
    if isinstance(value, list):
        return [_snake(item) for item in value]
    return value


def rest_events(lines: Any, status: int, context: Dict[str, Any]) -> Iterator[ChatStreamEvent]:
    """The events of a REST chat stream: known names as their typed event, an `error` event raised as its typed error."""
    for name, data in read_events(lines):
        yield _typed(name, data, status, context)


def graphql_events(lines: Any, status: int, context: Dict[str, Any]) -> Iterator[ChatStreamEvent]:
    """The events of the chat subscription, as the same typed events as REST's (snake_case fields)."""
    for name, data in read_events(lines):
        if name == "complete":
            return
        if name != "next":
            continue
        errors = (data or {}).get("errors") or []
        if errors:
            code = (errors[0].get("extensions") or {}).get("code", "INTERNAL_SERVER_ERROR")
            raise error_for(str(code), str(errors[0].get("message", "")), status, **context)
        chat = ((data or {}).get("data") or {}).get("chat")
        if chat is None:
            continue
        typename = str(chat.get("__typename"))
        yield _typed(GRAPHQL_EVENT_NAMES.get(typename, typename), _snake(chat), status, context)


def _typed(name: str, data: Any, status: int, context: Dict[str, Any]) -> ChatStreamEvent:
    if name == "error":
        raise error_for(str(data.get("code")), str(data.get("message", "")), status, **context)
    known: Optional[Tuple[Any, Any]] = CHAT_EVENTS.get(name)
    if known is None:
        return UnknownChatEvent(event="unknown", name=name, data=data)
    event_class, data_class = known
    event: ChatStreamEvent = event_class(event=name, data=from_json(data_class, data))
    return event


class ChatStream:
    """A chat answer as it streams: iterate it (once) for every event, or call `final_answer()` for the last one.
    It ends with the `done` event or raises: an `error` event is the typed error of its code, and a stream that stops
    before `done` (a dropped connection, a service that went away) is a StreamInterruptedError carrying what arrived.
    `close()` (or leaving a `with` block) hangs up, and the service stops writing."""

    def __init__(self, open_response: Callable[[], Any], events_of: Callable[[Any, int, Dict[str, Any]], Iterator[ChatStreamEvent]], path: str,
                 timeout: float):
        self._open_response = open_response
        self._events_of = events_of
        self._path = path
        self._timeout = timeout
        self._response: Any = None
        self._started = False
        self.events: List[ChatStreamEvent] = []
        """Every event so far."""
        self.text = ""
        """The answer's text so far (its tokens)."""

    def __enter__(self) -> "ChatStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._response is not None:
            self._response.close()

    def __iter__(self) -> Iterator[ChatStreamEvent]:
        if self._started:
            raise TypeError("A chat stream is read once: iterate it or call final_answer(), not both")
        self._started = True
        self._response = self._open_response()
        status = int(self._response.status)
        context = {"request_id": self._response.headers.get("X-Request-Id"), "headers": {k.lower(): v for k, v in self._response.headers.items()}}
        done = False
        try:
            for event in self._events_of(self._response, status, context):
                self.events.append(event)
                if isinstance(event, ChatEventToken):
                    self.text += event.data.text
                done = done or isinstance(event, ChatEventDone)
                yield event
        except ApiError:
            raise
        except socket.timeout:
            raise ApiTimeoutError(f"POST {self._path}: no event for {self._timeout} s", "TIMEOUT", 0, **context) from None
        except (OSError, http.client.HTTPException, ValueError) as failure:
            if done:
                return
            raise StreamInterruptedError(f"The chat stream broke off before its done event: {failure}", status, self.text, self.events, **context) from failure
        finally:
            self.close()
        if not done:
            raise StreamInterruptedError("The chat stream ended before its done event: the answer is incomplete", status, self.text, self.events, **context)

    def final_answer(self) -> ChatDoneEvent:
        """Reads the whole stream and returns the `done` event's data: the whole answer, its citations, the
        conversation id to continue."""
        final: Optional[ChatDoneEvent] = None
        for event in self:
            if isinstance(event, ChatEventDone):
                final = event.data
        assert final is not None  # the stream raises when it ends without done
        return final
