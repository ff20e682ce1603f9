"""The client of the financial insights service over its REST API (/v1) and the chat subscription (/graphql/stream),
with nothing but the standard library (urllib)."""
import email.utils
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from typing import Any, Dict, Generic, Iterator, List, Optional, Sequence, Type, TypeVar

from . import models
from .errors import ApiConnectionError, ApiError, ApiTimeoutError, error_for
from .models import (
    CHAT_EVENT_DATA, ApiKey, BalanceSheet, CashFlow, ChatDoneEvent, ChatEvent, Company, CompanyProfile, Comparison, CreatedApiKey, DataQualityCheck,
    Document, IncomeStatement, IngestedDocument, PageMeta, Period, RatioDefinition, Ratios, SearchResult, Summary, Token, from_json,
)
from .operations import CHAT_SUBSCRIPTION
from .sse import read_events

T = TypeVar("T")

OAUTH_STATUS_CODES = {400: "BAD_USER_INPUT", 401: "UNAUTHENTICATED", 405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE",
                      415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMITED", 503: "SERVICE_UNAVAILABLE"}
"""The service's code for the status of an OAuth error (RFC 6749 names the error, not a code)."""


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list and where it sits in the whole."""
    data: List[T]
    meta: PageMeta


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


def _body(request_class: Type[Any], **fields: Any) -> Dict[str, Any]:
    """A request body checked by its generated dataclass (an unknown field is a TypeError); unset fields are left out."""
    return {key: value for key, value in asdict(request_class(**fields)).items() if value is not None}


class Client:
    """The service's client.

    >>> client = Client("http://localhost:8080", api_key="fis_live_...")
    >>> apple = client.company_by_ticker("AAPL")
    >>> client.income_statement(apple.id, period="FY2024").revenue
    >>> for event in client.chat([{"role": "user", "content": "How is Apple doing?"}]):
    ...     if event.event == "token": print(event.data.text, end="", flush=True)

    `timeout` (seconds) bounds each request (for a stream: the wait for each piece); a 429 or 503 is retried up to
    `max_retries` times after the Retry-After the service sends, unless that is longer than `max_retry_delay`.
    """

    def __init__(self, base_url: str, api_key: Optional[str] = None, access_token: Optional[str] = None, timeout: float = 30.0,
                 max_retries: int = 2, max_retry_delay: float = 30.0, headers: Optional[Dict[str, str]] = None):
        if not base_url:
            raise ValueError("base_url is required, e.g. http://localhost:8080")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.access_token = access_token
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.headers = dict(headers or {})

    # --- companies -------------------------------------------------------------------------------------------------

    def list_companies(self, sector: Optional[str] = None, limit: Optional[int] = None, offset: Optional[int] = None) -> Page[Company]:
        """One page of companies, ordered by name (`sector` in any case)."""
        body = self._json("GET", "/v1/companies", query={"sector": sector, "limit": limit, "offset": offset})
        return Page([from_json(Company, item) for item in body["data"]], from_json(PageMeta, body["meta"]))

    def company_pages(self, sector: Optional[str] = None, limit: Optional[int] = None, offset: int = 0) -> Iterator[Page[Company]]:
        """Every page, one after the other, from `offset` on."""
        while True:
            page = self.list_companies(sector=sector, limit=limit, offset=offset)
            if not page.data:
                return
            yield page
            offset = page.meta.offset + len(page.data)
            if offset >= page.meta.total:
                return

    def companies(self, sector: Optional[str] = None, limit: Optional[int] = None) -> Iterator[Company]:
        """Every company across all pages."""
        for page in self.company_pages(sector=sector, limit=limit):
            yield from page.data

    def company(self, company_id: int) -> CompanyProfile:
        return from_json(CompanyProfile, self._data("GET", f"/v1/companies/{int(company_id)}"))

    def company_by_ticker(self, ticker: str) -> CompanyProfile:
        """A company's profile by its ticker, in any case; NotFoundError when no company has it."""
        found = self._data("GET", "/v1/companies", query={"ticker": ticker.strip(), "limit": 1})
        if not found:
            raise error_for("NOT_FOUND", f"No company with ticker {ticker}", 404)
        return self.company(found[0]["id"])

    def periods(self, company_id: int, type: Optional[str] = None) -> List[Period]:
        """The periods a company has data for, newest first (`type`: quarter or annual)."""
        return [from_json(Period, item) for item in self._data("GET", f"/v1/companies/{int(company_id)}/periods", query={"type": type})]

    def data_quality(self, company_id: int) -> List[DataQualityCheck]:
        return [from_json(DataQualityCheck, item) for item in self._data("GET", f"/v1/companies/{int(company_id)}/data-quality")]

    # --- statements and ratios -------------------------------------------------------------------------------------

    def income_statement(self, company_id: int, period: Optional[str] = None, provenance: bool = False) -> IncomeStatement:
        """`period`: FY2024, Q3-2024, latest (the default: the newest quarter), latest-fy or ttm."""
        return self._statement(IncomeStatement, "income-statement", company_id, period, provenance)

    def balance_sheet(self, company_id: int, period: Optional[str] = None, provenance: bool = False) -> BalanceSheet:
        return self._statement(BalanceSheet, "balance-sheet", company_id, period, provenance)

    def cash_flow(self, company_id: int, period: Optional[str] = None, provenance: bool = False) -> CashFlow:
        return self._statement(CashFlow, "cash-flow", company_id, period, provenance)

    def ratios(self, company_id: int, period: Optional[str] = None) -> Ratios:
        return from_json(Ratios, self._data("GET", f"/v1/companies/{int(company_id)}/ratios", query={"period": period}))

    def income_statement_history(self, company_id: int, type: str = "quarter", limit: Optional[int] = None,
                                 provenance: bool = False) -> List[IncomeStatement]:
        """The income statements of the last `limit` periods of `type` (quarter or annual), newest first."""
        return self._history(IncomeStatement, "income-statement", company_id, type, limit, provenance)

    def balance_sheet_history(self, company_id: int, type: str = "quarter", limit: Optional[int] = None,
                              provenance: bool = False) -> List[BalanceSheet]:
        return self._history(BalanceSheet, "balance-sheet", company_id, type, limit, provenance)

    def cash_flow_history(self, company_id: int, type: str = "quarter", limit: Optional[int] = None,
                          provenance: bool = False) -> List[CashFlow]:
        return self._history(CashFlow, "cash-flow", company_id, type, limit, provenance)

    def ratios_history(self, company_id: int, type: str = "quarter", limit: Optional[int] = None) -> List[Ratios]:
        return self._history(Ratios, "ratios", company_id, type, limit, False)

    def ratio_definitions(self) -> List[RatioDefinition]:
        return [from_json(RatioDefinition, item) for item in self._data("GET", "/v1/ratios/definitions")]

    def _history(self, cls: Type[T], route: str, company_id: int, type: str, limit: Optional[int], provenance: bool) -> List[T]:
        query = {"type": type, "limit": limit, "provenance": "true" if provenance else None}
        return [from_json(cls, item) for item in self._data("GET", f"/v1/companies/{int(company_id)}/{route}", query=query)]

    def _statement(self, cls: Type[T], route: str, company_id: int, period: Optional[str], provenance: bool) -> T:
        query = {"period": period, "provenance": "true" if provenance else None}
        return from_json(cls, self._data("GET", f"/v1/companies/{int(company_id)}/{route}", query=query))

    # --- search, documents, AI -------------------------------------------------------------------------------------

    def search(self, query: str, **filters: Any) -> List[SearchResult]:
        """Hybrid search; `filters`: company_ids, top_k, mode, periods, doc_types, sections, published_from, published_to."""
        body = _body(models.SearchRequest, query=query, **filters)
        return [from_json(SearchResult, item) for item in self._data("POST", "/v1/search", body=body)]

    def ingest_document(self, company_id: int, title: str, doc_type: str, content: str, **fields: Any) -> IngestedDocument:
        """Stores and indexes a document (admin); `created` is False when the same text was already stored."""
        body = _body(models.IngestDocumentRequest, company_id=company_id, title=title, doc_type=doc_type, content=content, **fields)
        return from_json(IngestedDocument, self._data("POST", "/v1/documents", body=body))

    def document(self, document_id: int) -> Document:
        """A stored document with its passages in reading order (analyst); a search result's chunk_id is one of them."""
        return from_json(Document, self._data("GET", f"/v1/documents/{int(document_id)}"))

    def summarize(self, company_id: int, period: Optional[str] = None, summary_type: Optional[str] = None) -> Summary:
        body = _body(models.SummarizeRequest, company_id=company_id, period=period, summary_type=summary_type)
        return from_json(Summary, self._data("POST", "/v1/ai/summarize", body=body))

    def compare(self, company_ids: Sequence[int], period: Optional[str] = None, metrics: Optional[Sequence[str]] = None) -> Comparison:
        body = _body(models.CompareRequest, company_ids=list(company_ids), period=period, metrics=None if metrics is None else list(metrics))
        return from_json(Comparison, self._data("POST", "/v1/ai/compare", body=body))

    def chat(self, messages: Sequence[Dict[str, str]], company_ids: Optional[Sequence[int]] = None,
             conversation_id: Optional[str] = None) -> Iterator[ChatEvent]:
        """A chat answer as it is written (Server-Sent Events): status, token, citations, then done with the whole
        answer and the conversation id to continue; `event.data` is the event's dataclass. An `error` event is
        raised as a typed error. Leaving the loop early closes the connection, and the service stops writing."""
        body = _body(models.ChatRequest, messages=list(messages), company_ids=None if company_ids is None else list(company_ids),
                     conversation_id=conversation_id, stream=True)
        response = self._send("POST", "/v1/ai/chat", body=body, stream=True)
        with response:
            for name, data in self._events(response, "/v1/ai/chat"):
                if name == "error":
                    raise error_for(data["code"], data["message"], response.status)
                yield ChatEvent(event=name, data=from_json(CHAT_EVENT_DATA[name], data))  # type: ignore[arg-type]

    def ask(self, messages: Sequence[Dict[str, str]], company_ids: Optional[Sequence[int]] = None,
            conversation_id: Optional[str] = None) -> ChatDoneEvent:
        """A chat answer in one piece."""
        body = _body(models.ChatRequest, messages=list(messages), company_ids=None if company_ids is None else list(company_ids),
                     conversation_id=conversation_id, stream=False)
        return from_json(ChatDoneEvent, self._data("POST", "/v1/ai/chat", body=body))

    def chat_graphql(self, messages: Sequence[Dict[str, str]], company_ids: Optional[Sequence[int]] = None,
                     conversation_id: Optional[str] = None) -> Iterator[Dict[str, Any]]:
        """The same answer through the GraphQL subscription at /graphql/stream (graphql-sse): each event a dict with
        `__typename` (ChatStatusEvent, ChatTokenEvent, ChatCitationsEvent, ChatDoneEvent) and camelCase fields."""
        variables = {"input": {"messages": list(messages), "companyIds": None if company_ids is None else list(company_ids),
                               "conversationId": conversation_id}}
        body = {"query": CHAT_SUBSCRIPTION, "operationName": "Chat", "variables": variables}
        response = self._send("POST", "/graphql/stream", body=body, stream=True)
        with response:
            for name, data in self._events(response, "/graphql/stream"):
                if name == "complete":
                    return
                errors = (data or {}).get("errors") or []
                if errors:
                    code = (errors[0].get("extensions") or {}).get("code", "INTERNAL_SERVER_ERROR")
                    raise error_for(code, errors[0].get("message", ""), response.status)
                yield data["data"]["chat"]

    # --- credentials -----------------------------------------------------------------------------------------------

    def token(self, client_secret: Optional[str] = None) -> Token:
        """OAuth 2.0 client credentials: the API key (or `client_secret`) exchanged for a short-lived bearer token;
        `Client(base_url, access_token=token.access_token)` then authenticates with it. The endpoint answers OAuth's
        own shape, not the envelope; its errors become the same typed errors (the OAuth name in `details`)."""
        body = _body(models.TokenRequest, grant_type="client_credentials", client_secret=client_secret)
        with self._send("POST", "/v1/auth/token", body=body) as response:
            return from_json(Token, json.loads(self._read(response, "POST", "/v1/auth/token")))

    # --- API keys (the admin role) ---------------------------------------------------------------------------------

    def list_api_keys(self) -> List[ApiKey]:
        """Every API key, revoked ones included (never the key itself)."""
        return [from_json(ApiKey, item) for item in self._data("GET", "/v1/admin/keys")]

    def create_api_key(self, name: str, role: str) -> CreatedApiKey:
        """A new key for `role` (viewer, analyst or admin): `key` is in this answer only."""
        return from_json(CreatedApiKey, self._data("POST", "/v1/admin/keys", body=_body(models.CreateApiKeyRequest, name=name, role=role)))

    def revoke_api_key(self, key_id: int) -> ApiKey:
        """Revokes a key: every instance refuses it within a second."""
        return from_json(ApiKey, self._data("DELETE", f"/v1/admin/keys/{int(key_id)}"))

    # --- HTTP ------------------------------------------------------------------------------------------------------

    def _data(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Any = None) -> Any:
        return self._json(method, path, query=query, body=body)["data"]

    def _json(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Any = None) -> Dict[str, Any]:
        with self._send(method, path, query=query, body=body) as response:
            status = response.status
            try:
                result = json.loads(self._read(response, method, path))
            except ValueError:
                raise ApiError(f"{method} {path} answered {status} with a body that is not JSON", "INVALID_RESPONSE", status) from None
        if not isinstance(result, dict) or result.get("success") is not True:
            raise ApiError(f"Unexpected answer from {path}", "INVALID_RESPONSE", status)
        return result

    def _events(self, response: Any, path: str) -> Iterator[Any]:
        """The events of a stream; a wait for the next piece longer than `timeout` is an ApiTimeoutError."""
        try:
            yield from read_events(response)
        except socket.timeout:
            raise ApiTimeoutError(f"POST {path}: no event for {self.timeout} s", "TIMEOUT", 0) from None

    def _read(self, response: Any, method: str, path: str) -> bytes:
        try:
            return response.read()
        except socket.timeout:
            raise ApiTimeoutError(f"{method} {path} took longer than {self.timeout} s", "TIMEOUT", 0) from None

    def _send(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Any = None, stream: bool = False) -> Any:
        """Sends a request and returns the open response of a success; retries 429/503 as the service says."""
        attempt = 0
        while True:
            try:
                return self._attempt(method, path, query, body, stream)
            except ApiError as error:
                retryable = error.status in (429, 503)
                wait = error.retry_after if error.retry_after is not None else min(0.5 * 2 ** attempt, self.max_retry_delay)
                if not retryable or attempt >= self.max_retries or wait > self.max_retry_delay:
                    raise
                time.sleep(wait)
                attempt += 1

    def _attempt(self, method: str, path: str, query: Optional[Dict[str, Any]], body: Any, stream: bool) -> Any:
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
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as failure:
            with failure:
                raise self._error_of(failure, method, path) from None
        except (socket.timeout, TimeoutError):
            raise ApiTimeoutError(f"{method} {path} took longer than {self.timeout} s", "TIMEOUT", 0) from None
        except urllib.error.URLError as failure:
            if isinstance(failure.reason, (socket.timeout, TimeoutError)):
                raise ApiTimeoutError(f"{method} {path} took longer than {self.timeout} s", "TIMEOUT", 0) from None
            raise ApiConnectionError(f"{method} {url} failed: {failure.reason}", "CONNECTION_FAILED", 0) from None
        except OSError as failure:
            raise ApiConnectionError(f"{method} {url} failed: {failure}", "CONNECTION_FAILED", 0) from None

    @staticmethod
    def _error_of(failure: urllib.error.HTTPError, method: str, path: str) -> ApiError:
        """The typed error of a failed response: the service's envelope (or, at /graphql/stream, GraphQL's errors)."""
        retry_after = retry_after_seconds(failure.headers.get("Retry-After"))
        text = failure.read().decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except ValueError:
            return ApiError(f"{method} {path} answered {failure.code}: {text[:200]}", "INVALID_RESPONSE", failure.code, None, retry_after)
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, str):  # OAuth's shape (the token endpoint): the error's name, no code
            code = OAUTH_STATUS_CODES.get(failure.code, "INTERNAL_SERVER_ERROR")
            return error_for(code, body.get("error_description", error), failure.code, {"oauth_error": error}, retry_after)
        if error is None and isinstance(body, dict) and body.get("errors"):
            first = body["errors"][0]
            error = {"code": (first.get("extensions") or {}).get("code"), "message": first.get("message", "")}
        if not error or not error.get("code"):
            return ApiError(f"{method} {path} answered {failure.code}", "INVALID_RESPONSE", failure.code, body, retry_after)
        return error_for(error["code"], error.get("message", ""), failure.code, error.get("details"), retry_after)
