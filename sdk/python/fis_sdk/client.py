"""The client of the financial insights service over its REST API (/v1) and the chat subscription (/graphql/stream),
with nothing but the standard library. Its resources are namespaces, as in the TypeScript SDK: `client.companies`,
`client.statements`, `client.documents`, `client.ai`, `client.auth`, `client.admin.keys`, and `client.search`."""
import json
from dataclasses import asdict, dataclass
from typing import Any, Dict, Generic, Iterator, List, Mapping, Optional, Sequence, Type, TypeVar

from . import models
from .errors import error_for
from .models import (
    ApiKey, BalanceSheet, CashFlow, ChatDoneEvent, Company, CompanyProfile, Comparison, CreatedApiKey, DataQualityCheck, Document, IncomeStatement,
    IngestedDocument, PageMeta, Period, RatioDefinition, Ratios, ScreenRow, SearchResult, Summary, Token, from_json,
)
from .operations import CHAT_SUBSCRIPTION
from .params import CompareMetric, DocType, DocumentFormat, PeriodType, Role, SearchMode, SummaryType
from .streams import ChatStream, graphql_events, rest_events
from .transport import Transport, retry_after_seconds

__all__ = ["Client", "Page", "retry_after_seconds"]

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list and where it sits in the whole."""
    data: List[T]
    meta: PageMeta


def _body(request_class: Type[Any], **fields: Any) -> Dict[str, Any]:
    """A request body checked by its generated dataclass (an unknown field is a TypeError); unset fields are left out."""
    return {key: value for key, value in asdict(request_class(**fields)).items() if value is not None}


def _list(cls: Type[T], items: Any) -> List[T]:
    return [from_json(cls, item) for item in items]


def _flag(value: bool) -> Optional[str]:
    return "true" if value else None


class _Resource:
    def __init__(self, transport: Transport):
        self._http = transport

    def _data(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None, timeout: Optional[float] = None,
              idempotent: Optional[bool] = None) -> Any:
        return self._http.json(method, path, query=query, body=body, timeout=timeout, idempotent=idempotent)["data"]


class Companies(_Resource):
    """GET /v1/companies and a company's own routes."""

    def list(self, sector: Optional[str] = None, ticker: Optional[str] = None, q: Optional[str] = None, limit: Optional[int] = None,
             offset: Optional[int] = None, *, timeout: Optional[float] = None) -> Page[Company]:
        """One page of companies, ordered by name (or, with `q`, best match first); `sector` and `ticker` in any case."""
        query = {"sector": sector, "ticker": ticker, "q": q, "limit": limit, "offset": offset}
        body = self._http.json("GET", "/v1/companies", query=query, timeout=timeout)
        return Page(_list(Company, body["data"]), from_json(PageMeta, body["meta"]))

    def screen(self, filter: Optional[str] = None, period: Optional[str] = None, sort: Optional[str] = None, fields: Optional[str] = None,
               sector: Optional[str] = None, currency: Optional[str] = None, size: Optional[str] = None, limit: Optional[int] = None,
               offset: Optional[int] = None, *, timeout: Optional[float] = None) -> Page[ScreenRow]:
        """Companies that pass a screen, e.g. filter="gross_margin>0.5,revenue_growth>20%", sort="-net_margin"
        (period: FY2024, Q2-2025, latest, latest-fy (the default) or ttm), one page with the total."""
        query = {"filter": filter, "period": period, "sort": sort, "fields": fields, "sector": sector, "currency": currency, "size": size,
                 "limit": limit, "offset": offset}
        body = self._http.json("GET", "/v1/screener", query=query, timeout=timeout)
        return Page(_list(ScreenRow, body["data"]), from_json(PageMeta, body["meta"]))

    def pages(self, sector: Optional[str] = None, ticker: Optional[str] = None, q: Optional[str] = None, limit: Optional[int] = None,
              offset: int = 0, *, timeout: Optional[float] = None) -> Iterator[Page[Company]]:
        """Every page, one after the other, from `offset` on."""
        while True:
            page = self.list(sector=sector, ticker=ticker, q=q, limit=limit, offset=offset, timeout=timeout)
            if not page.data:
                return
            yield page
            offset = page.meta.offset + len(page.data)
            if offset >= page.meta.total:
                return

    def all(self, sector: Optional[str] = None, ticker: Optional[str] = None, q: Optional[str] = None, limit: Optional[int] = None, *,
            timeout: Optional[float] = None) -> Iterator[Company]:
        """Every company across all pages."""
        for page in self.pages(sector=sector, ticker=ticker, q=q, limit=limit, timeout=timeout):
            yield from page.data

    def get(self, company_id: int, *, timeout: Optional[float] = None) -> CompanyProfile:
        return from_json(CompanyProfile, self._data("GET", f"/v1/companies/{int(company_id)}", timeout=timeout))

    def by_ticker(self, ticker: str, *, timeout: Optional[float] = None) -> CompanyProfile:
        """A company's profile by its ticker, in any case; NotFoundError when no company has it."""
        found = self.list(ticker=ticker.strip(), limit=1, timeout=timeout).data
        if not found:
            raise error_for("NOT_FOUND", f"No company with ticker {ticker}", 404)
        return self.get(found[0].id, timeout=timeout)

    def periods(self, company_id: int, type: Optional[PeriodType] = None, *, timeout: Optional[float] = None) -> List[Period]:
        """The periods a company has data for, newest first."""
        return _list(Period, self._data("GET", f"/v1/companies/{int(company_id)}/periods", query={"type": type}, timeout=timeout))

    def create(self, name: str, ticker: str, sector: str, cik: Optional[int] = None, currency: Optional[str] = None,
               fiscal_year_end_month: Optional[int] = None, description: Optional[str] = None, *,
               timeout: Optional[float] = None) -> CompanyProfile:
        """Starts tracking a company (admin); ConflictError when its ticker or CIK is another company's."""
        body = _body(models.CreateCompanyRequest, name=name, ticker=ticker, sector=sector, cik=cik, currency=currency,
                     fiscal_year_end_month=fiscal_year_end_month, description=description)
        return from_json(CompanyProfile, self._data("POST", "/v1/companies", body=body, timeout=timeout))

    def update(self, company_id: int, name: Optional[str] = None, ticker: Optional[str] = None, sector: Optional[str] = None,
               cik: Optional[int] = None, currency: Optional[str] = None, fiscal_year_end_month: Optional[int] = None,
               description: Optional[str] = None, *, timeout: Optional[float] = None) -> CompanyProfile:
        """Changes the given fields of a company (admin); the others keep their value (an empty description removes it)."""
        body = _body(models.UpdateCompanyRequest, name=name, ticker=ticker, sector=sector, cik=cik, currency=currency,
                     fiscal_year_end_month=fiscal_year_end_month, description=description)
        return from_json(CompanyProfile, self._data("PATCH", f"/v1/companies/{int(company_id)}", body=body, timeout=timeout, idempotent=True))

    def data_quality(self, company_id: int, *, timeout: Optional[float] = None) -> List[DataQualityCheck]:
        return _list(DataQualityCheck, self._data("GET", f"/v1/companies/{int(company_id)}/data-quality", timeout=timeout))


class Statements(_Resource):
    """A company's statements and ratios: one period (`period`: FY2024, Q3-2024, latest (the default: the newest
    quarter), latest-fy or ttm), or the last periods of a `type`, newest first (the `_history` methods)."""

    def income(self, company_id: int, period: Optional[str] = None, provenance: bool = False, *, timeout: Optional[float] = None) -> IncomeStatement:
        return self._one(IncomeStatement, "income-statement", company_id, period, provenance, timeout)

    def balance_sheet(self, company_id: int, period: Optional[str] = None, provenance: bool = False, *, timeout: Optional[float] = None) -> BalanceSheet:
        return self._one(BalanceSheet, "balance-sheet", company_id, period, provenance, timeout)

    def cash_flow(self, company_id: int, period: Optional[str] = None, provenance: bool = False, *, timeout: Optional[float] = None) -> CashFlow:
        return self._one(CashFlow, "cash-flow", company_id, period, provenance, timeout)

    def ratios(self, company_id: int, period: Optional[str] = None, provenance: bool = False, *, timeout: Optional[float] = None) -> Ratios:
        return self._one(Ratios, "ratios", company_id, period, provenance, timeout)

    def income_history(self, company_id: int, type: PeriodType = "quarter", limit: Optional[int] = None, provenance: bool = False, *,
                       timeout: Optional[float] = None) -> List[IncomeStatement]:
        return self._many(IncomeStatement, "income-statement", company_id, type, limit, provenance, timeout)

    def balance_sheet_history(self, company_id: int, type: PeriodType = "quarter", limit: Optional[int] = None, provenance: bool = False, *,
                              timeout: Optional[float] = None) -> List[BalanceSheet]:
        return self._many(BalanceSheet, "balance-sheet", company_id, type, limit, provenance, timeout)

    def cash_flow_history(self, company_id: int, type: PeriodType = "quarter", limit: Optional[int] = None, provenance: bool = False, *,
                          timeout: Optional[float] = None) -> List[CashFlow]:
        return self._many(CashFlow, "cash-flow", company_id, type, limit, provenance, timeout)

    def ratios_history(self, company_id: int, type: PeriodType = "quarter", limit: Optional[int] = None, provenance: bool = False, *,
                       timeout: Optional[float] = None) -> List[Ratios]:
        return self._many(Ratios, "ratios", company_id, type, limit, provenance, timeout)

    def ratio_definitions(self, *, timeout: Optional[float] = None) -> List[RatioDefinition]:
        """Every ratio with its formula."""
        return _list(RatioDefinition, self._data("GET", "/v1/ratios/definitions", timeout=timeout))

    def _one(self, cls: Type[T], route: str, company_id: int, period: Optional[str], provenance: bool, timeout: Optional[float]) -> T:
        query = {"period": period, "provenance": _flag(provenance)}
        return from_json(cls, self._data("GET", f"/v1/companies/{int(company_id)}/{route}", query=query, timeout=timeout))

    def _many(self, cls: Type[T], route: str, company_id: int, type: PeriodType, limit: Optional[int], provenance: bool,
              timeout: Optional[float]) -> List[T]:
        query = {"type": type, "limit": limit, "provenance": _flag(provenance)}
        return _list(cls, self._data("GET", f"/v1/companies/{int(company_id)}/{route}", query=query, timeout=timeout))


class Documents(_Resource):
    def get(self, document_id: int, *, timeout: Optional[float] = None) -> Document:
        """A stored document with its passages in reading order (analyst); a search result's chunk_id is one of them."""
        return from_json(Document, self._data("GET", f"/v1/documents/{int(document_id)}", timeout=timeout))

    def ingest(self, company_id: int, title: str, doc_type: DocType, content: Optional[str] = None, format: Optional[DocumentFormat] = None,
               period: Optional[str] = None, published_at: Optional[str] = None, source_url: Optional[str] = None,
               section: Optional[str] = None, content_base64: Optional[str] = None, content_type: Optional[str] = None, *,
               timeout: Optional[float] = None) -> IngestedDocument:
        """Stores and indexes a document (admin); `created` is False when the same text was already stored. Give the text
        in `content`, or bytes in `content_base64` with their `content_type` (a PDF: `base64.b64encode(data).decode()`,
        "application/pdf")."""
        body = _body(models.IngestDocumentRequest, company_id=company_id, title=title, doc_type=doc_type, content=content, format=format,
                     period=period, published_at=published_at, source_url=source_url, section=section, content_base64=content_base64,
                     content_type=content_type)
        return from_json(IngestedDocument, self._data("POST", "/v1/documents", body=body, timeout=timeout))


class AI(_Resource):
    def summarize(self, company_id: int, period: Optional[str] = None, summary_type: Optional[SummaryType] = None, *,
                  timeout: Optional[float] = None) -> Summary:
        body = _body(models.SummarizeRequest, company_id=company_id, period=period, summary_type=summary_type)
        return from_json(Summary, self._data("POST", "/v1/ai/summarize", body=body, timeout=timeout))

    def compare(self, company_ids: Sequence[int], period: Optional[str] = None, metrics: Optional[Sequence[CompareMetric]] = None, *,
                timeout: Optional[float] = None) -> Comparison:
        body = _body(models.CompareRequest, company_ids=list(company_ids), period=period, metrics=None if metrics is None else list(metrics))
        return from_json(Comparison, self._data("POST", "/v1/ai/compare", body=body, timeout=timeout))

    def chat(self, messages: Sequence[Mapping[str, str]], company_ids: Optional[Sequence[int]] = None, conversation_id: Optional[str] = None, *,
             timeout: Optional[float] = None) -> ChatStream:
        """A chat answer as it is written (Server-Sent Events): status, token, citations, then done with the whole
        answer and the conversation id to continue; `stream.final_answer()` waits for that last one. An `error` event
        is raised as the typed error of its code, a stream cut before `done` as a StreamInterruptedError with what
        arrived. `timeout` bounds the wait for each piece."""
        body = _body(models.ChatRequest, messages=[dict(m) for m in messages], company_ids=None if company_ids is None else list(company_ids),
                     conversation_id=conversation_id, stream=True)
        return ChatStream(lambda: self._http.send("POST", "/v1/ai/chat", body=body, stream=True, timeout=timeout), rest_events, "/v1/ai/chat",
                          timeout or self._http.timeout)

    def ask(self, messages: Sequence[Mapping[str, str]], company_ids: Optional[Sequence[int]] = None, conversation_id: Optional[str] = None, *,
            timeout: Optional[float] = None) -> ChatDoneEvent:
        """A chat answer in one piece."""
        body = _body(models.ChatRequest, messages=[dict(m) for m in messages], company_ids=None if company_ids is None else list(company_ids),
                     conversation_id=conversation_id, stream=False)
        return from_json(ChatDoneEvent, self._data("POST", "/v1/ai/chat", body=body, timeout=timeout))

    def chat_graphql(self, messages: Sequence[Mapping[str, str]], company_ids: Optional[Sequence[int]] = None, conversation_id: Optional[str] = None, *,
                     timeout: Optional[float] = None) -> ChatStream:
        """The same answer through the GraphQL subscription at /graphql/stream (graphql-sse), as the same typed events
        as `chat`, ending with done or raising as `chat` does (a ChatErrorEvent is raised as the typed error of its code)."""
        variables = {"input": {"messages": [dict(m) for m in messages], "companyIds": None if company_ids is None else list(company_ids),
                               "conversationId": conversation_id}}
        body = {"query": CHAT_SUBSCRIPTION, "operationName": "Chat", "variables": variables}
        return ChatStream(lambda: self._http.send("POST", "/graphql/stream", body=body, stream=True, timeout=timeout), graphql_events,
                          "/graphql/stream", timeout or self._http.timeout)


class Auth(_Resource):
    def token(self, client_secret: Optional[str] = None, *, timeout: Optional[float] = None) -> Token:
        """OAuth 2.0 client credentials: the API key (or `client_secret`) exchanged for a short-lived bearer token;
        `Client(base_url, access_token=token.access_token)` then authenticates with it. The endpoint answers OAuth's
        own shape, not the envelope; its errors become the same typed errors (the OAuth name in `details`)."""
        body = _body(models.TokenRequest, grant_type="client_credentials", client_secret=client_secret)
        with self._http.send("POST", "/v1/auth/token", body=body, timeout=timeout) as response:
            return from_json(Token, json.loads(self._http.read(response, "POST", "/v1/auth/token", timeout)))


class ApiKeys(_Resource):
    def list(self, *, timeout: Optional[float] = None) -> List[ApiKey]:
        """Every API key, revoked ones included (never the key itself)."""
        return _list(ApiKey, self._data("GET", "/v1/admin/keys", timeout=timeout))

    def create(self, name: str, role: Role, forwards_clients: Optional[bool] = None, *, timeout: Optional[float] = None) -> CreatedApiKey:
        """A new key for `role`: `key` is in this answer only."""
        body = _body(models.CreateApiKeyRequest, name=name, role=role, forwards_clients=forwards_clients)
        return from_json(CreatedApiKey, self._data("POST", "/v1/admin/keys", body=body, timeout=timeout))

    def revoke(self, key_id: int, *, timeout: Optional[float] = None) -> ApiKey:
        """Revokes a key: every instance refuses it within a second."""
        return from_json(ApiKey, self._data("DELETE", f"/v1/admin/keys/{int(key_id)}", timeout=timeout))


class Admin:
    """The admin role's resources: `keys`."""

    def __init__(self, transport: Transport):
        self.keys = ApiKeys(transport)


class Client(_Resource):
    """The service's client.

    >>> client = Client("http://localhost:8080", api_key="fis_live_...")  # or FIS_BASE_URL and FIS_API_KEY
    >>> apple = client.companies.by_ticker("AAPL")
    >>> client.statements.income(apple.id, period="FY2024").revenue
    >>> for event in client.ai.chat([{"role": "user", "content": "How is Apple doing?"}]):
    ...     if event.event == "token": print(event.data.text, end="", flush=True)

    `timeout` (seconds) bounds each request (for a stream: the wait for each piece); every method takes its own
    `timeout=` too. A 429 or 503 is retried up to `max_retries` times after the Retry-After the service sends, unless
    that is longer than `max_retry_delay`; a 502, 504 or a connection failure too on calls safe to repeat (reads,
    revocation, search). Every error carries `request_id` and the response `headers`.
    """

    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, access_token: Optional[str] = None, timeout: float = 30.0,
                 max_retries: int = 2, max_retry_delay: float = 30.0, headers: Optional[Mapping[str, str]] = None):
        super().__init__(Transport(base_url, api_key, access_token, timeout, max_retries, max_retry_delay, headers))
        self.companies = Companies(self._http)
        self.statements = Statements(self._http)
        self.documents = Documents(self._http)
        self.ai = AI(self._http)
        self.auth = Auth(self._http)
        self.admin = Admin(self._http)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def search(self, query: str, company_ids: Optional[Sequence[int]] = None, top_k: Optional[int] = None, mode: Optional[SearchMode] = None,
               periods: Optional[Sequence[str]] = None, doc_types: Optional[Sequence[DocType]] = None, sections: Optional[Sequence[str]] = None,
               published_from: Optional[str] = None, published_to: Optional[str] = None, *, timeout: Optional[float] = None) -> List[SearchResult]:
        """Hybrid search over company documents."""
        body = _body(models.SearchRequest, query=query, company_ids=None if company_ids is None else list(company_ids), top_k=top_k, mode=mode,
                     periods=None if periods is None else list(periods), doc_types=None if doc_types is None else list(doc_types),
                     sections=None if sections is None else list(sections), published_from=published_from, published_to=published_to)
        # A search reads: safe to send again after a gateway failure.
        return _list(SearchResult, self._data("POST", "/v1/search", body=body, timeout=timeout, idempotent=True))
