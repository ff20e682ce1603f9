"""The Python SDK against a running service. The main suite (test/sdk-python.test.ts) starts the service and sets:
FIS_BASE_URL, FIS_VIEWER_KEY, FIS_ANALYST_KEY, FIS_ADMIN_KEY, and FIS_LIMITED_URL with FIS_LIMITED_KEY (an instance
whose read budget is 2 requests per key in 2 seconds)."""
import os
import time
import unittest

from fis_sdk import (
    ApiConnectionError, ApiTimeoutError, AuthenticationError, ChatStream, Client, InvalidRequestError, NotFoundError, PermissionDeniedError,
    RateLimitError, StreamInterruptedError, UnknownChatEvent, UpstreamError, models,
)
from fis_sdk.client import retry_after_seconds
from fis_sdk.errors import ERROR_CLASSES

BASE_URL = os.environ.get("FIS_BASE_URL")


def client(role: str = "analyst", **options) -> Client:
    return Client(BASE_URL, api_key=os.environ[f"FIS_{role.upper()}_KEY"], **options)


@unittest.skipUnless(BASE_URL, "FIS_BASE_URL is not set: these tests need a running service (the main suite starts one)")
class CompaniesTest(unittest.TestCase):
    def test_pages_cover_every_company_once(self):
        first = client().companies.list(limit=3)
        self.assertEqual(len(first.data), 3)
        self.assertIsInstance(first.data[0], models.Company)
        self.assertEqual((first.meta.limit, first.meta.offset), (3, 0))
        pages = list(client().companies.pages(limit=7))
        self.assertEqual(len(pages), -(-first.meta.total // 7))
        ids = [company.id for page in pages for company in page.data]
        self.assertEqual(len(set(ids)), first.meta.total)
        self.assertEqual([company.id for company in client().companies.all(limit=50)], ids)

    def test_sector_filter_in_any_case(self):
        sector = client().companies.list(limit=1).data[0].sector
        found = list(client().companies.all(sector=sector.upper(), limit=2))
        self.assertTrue(found)
        self.assertTrue(all(company.sector == sector for company in found))

    def test_profile_by_id_and_ticker_and_not_found(self):
        profile = client().companies.get(1)
        self.assertIsInstance(profile, models.CompanyProfile)
        self.assertEqual(client().companies.by_ticker(profile.ticker.lower()), profile)
        with self.assertRaises(NotFoundError) as caught:
            client().companies.get(999999)
        self.assertEqual((caught.exception.code, caught.exception.status), ("NOT_FOUND", 404))
        with self.assertRaises(NotFoundError):
            client().companies.by_ticker("NO-SUCH-TICKER")


@unittest.skipUnless(BASE_URL, "FIS_BASE_URL is not set: these tests need a running service (the main suite starts one)")
class StatementsTest(unittest.TestCase):
    def test_statements_ratios_and_periods_of_a_year(self):
        periods = client().companies.periods(1, type="annual")
        self.assertTrue(periods)
        self.assertTrue(all(period.type == "ANNUAL" for period in periods))
        year = periods[0].period
        income = client().statements.income(1, period=year)
        self.assertIsInstance(income, models.IncomeStatement)
        self.assertEqual((income.company_id, income.period), (1, year))
        self.assertIsInstance(income.revenue, (int, float))
        self.assertIsNone(income.provenance)
        self.assertIsNotNone(client().statements.income(1, period=year, provenance=True).provenance)
        self.assertIsInstance(income.data_quality[0], models.StatementCheck)
        self.assertIsInstance(client().statements.balance_sheet(1, period=year).total_assets, (int, float))
        self.assertEqual(client().statements.cash_flow(1, period=year).period, year)
        self.assertEqual(client().statements.ratios(1, period=year).type, "ANNUAL")
        self.assertIn("gross_margin", [definition.key for definition in client().statements.ratio_definitions()])
        self.assertTrue(client().companies.data_quality(1))

    def test_the_last_periods_newest_first(self):
        quarters = client().statements.income_history(1, limit=3)
        self.assertEqual(len(quarters), 3)
        self.assertIsInstance(quarters[0], models.IncomeStatement)
        self.assertEqual([q.period_end for q in quarters], sorted((q.period_end for q in quarters), reverse=True))
        self.assertEqual([r.type for r in client().statements.ratios_history(1, type="annual", limit=2)], ["ANNUAL", "ANNUAL"])
        self.assertGreater(len(client().statements.balance_sheet_history(1)), 1)
        self.assertEqual(client().statements.cash_flow_history(1, type="annual", limit=1)[0].period, client().statements.cash_flow(1, period="latest-fy").period)

    def test_bad_input_is_an_invalid_request_error(self):
        with self.assertRaises(InvalidRequestError) as caught:
            client().statements.ratios(1, period="Q9-2024")
        self.assertEqual((caught.exception.code, caught.exception.status), ("BAD_USER_INPUT", 400))
        self.assertIn("Q9-2024", str(caught.exception))
        with self.assertRaises(TypeError):
            client().search("revenue", top_kk=3)  # a misspelt field fails before any request


@unittest.skipUnless(BASE_URL, "FIS_BASE_URL is not set: these tests need a running service (the main suite starts one)")
class AiTest(unittest.TestCase):
    def test_search_ingest_summarize_compare(self):
        hits = client().search("revenue growth", top_k=3)
        self.assertTrue(1 <= len(hits) <= 3)
        self.assertIsInstance(hits[0], models.SearchResult)
        content = f"A Python SDK test note {time.time()}."
        with self.assertRaises(PermissionDeniedError):
            client("analyst").documents.ingest(1, "SDK", "note", content)
        self.assertTrue(client("admin").documents.ingest(1, "SDK", "note", content).created)
        self.assertFalse(client("admin").documents.ingest(1, "SDK", "note", content).created)
        summary = client().ai.summarize(1, summary_type="profitability")
        self.assertTrue(summary.summary)
        self.assertIsInstance(summary.citations[0], models.Citation)
        comparison = client().ai.compare([1, 2], metrics=["revenue", "net_margin"])
        self.assertEqual([row.metric for row in comparison.table], ["revenue", "net_margin"])

    def test_open_a_search_hit_in_its_document(self):
        hit = client().search("revenue growth", top_k=1)[0]
        document = client().documents.get(hit.document_id)
        self.assertIsInstance(document, models.Document)
        self.assertEqual((document.id, document.ticker, document.title), (hit.document_id, hit.ticker, hit.title))
        passage = next(p for p in document.passages if p.chunk_id == hit.chunk_id)
        self.assertIsInstance(passage, models.Passage)
        self.assertEqual(passage.content, hit.content)
        with self.assertRaises(NotFoundError):
            client().documents.get(987654)

    def test_chat_streams_typed_events_that_make_up_the_answer(self):
        events = list(client().ai.chat([{"role": "user", "content": "How did revenue change?"}], company_ids=[1]))
        self.assertEqual(events[0].event, "status")
        self.assertEqual(events[-1].event, "done")
        done = events[-1].data
        self.assertIsInstance(done, models.ChatDoneEvent)
        text = "".join(event.data.text for event in events if event.event == "token")
        self.assertEqual(text.strip(), done.answer.strip())
        follow_up = client().ai.ask([{"role": "user", "content": "And net income?"}], conversation_id=done.conversation_id)
        self.assertEqual(follow_up.conversation_id, done.conversation_id)

    def test_chat_over_graphql_sse(self):
        events = list(client().ai.chat_graphql([{"role": "user", "content": "How did revenue change?"}], company_ids=[1]))
        self.assertEqual(events[0].event, "status")
        self.assertEqual(events[-1].event, "done")
        self.assertIsInstance(events[-1].data, models.ChatDoneEvent)
        self.assertTrue(events[-1].data.answer)
        with self.assertRaises(PermissionDeniedError):
            list(client("viewer").ai.chat_graphql([{"role": "user", "content": "Hi"}]))

    def test_stopping_a_stream_early_and_a_refused_chat(self):
        with client().ai.chat([{"role": "user", "content": "Cash flow?"}], company_ids=[1]) as stream:
            self.assertEqual(next(iter(stream)).event, "status")
        # leaving the block hung up
        with self.assertRaises(InvalidRequestError):
            list(client().ai.chat([]))

    def test_final_answer_and_the_same_errors_on_both_chat_methods(self):
        question = [{"role": "user", "content": "How did revenue change?"}]
        self.assertTrue(client().ai.chat(question, company_ids=[1]).final_answer().answer)
        self.assertTrue(client().ai.chat_graphql(question, company_ids=[1]).final_answer().conversation_id)
        # An unknown company: REST refuses before streaming, the subscription sends a ChatErrorEvent; both raise alike.
        with self.assertRaises(NotFoundError):
            client().ai.chat(question, company_ids=[999999]).final_answer()
        with self.assertRaises(NotFoundError) as caught:
            client().ai.chat_graphql(question, company_ids=[999999]).final_answer()
        self.assertTrue(caught.exception.request_id)

    def test_errors_carry_the_request_id_headers_and_field(self):
        with self.assertRaises(InvalidRequestError) as caught:
            client().statements.income(1, period="Q9-2024")
        error = caught.exception
        self.assertTrue(error.request_id)
        self.assertEqual(error.headers["x-request-id"], error.request_id)
        self.assertEqual(error.details["field"], "period")
        self.assertIn("FY<yyyy>", error.details["accepted"])

    def test_companies_by_name_or_ticker_filter(self):
        profile = client().companies.get(1)
        self.assertEqual([c.id for c in client().companies.list(ticker=profile.ticker.lower()).data], [1])
        self.assertEqual(client().companies.list(q=profile.name.split()[0]).data[0].id, 1)

    def test_settings_from_the_environment(self):
        saved = os.environ.get("FIS_API_KEY")
        os.environ["FIS_API_KEY"] = os.environ["FIS_ANALYST_KEY"]
        try:
            self.assertEqual(len(Client().search("revenue", top_k=1)), 1)
        finally:
            if saved is None:
                del os.environ["FIS_API_KEY"]
            else:
                os.environ["FIS_API_KEY"] = saved


BREAKER_URL = os.environ.get("FIS_BREAKER_URL")


@unittest.skipUnless(BREAKER_URL, "FIS_BREAKER_URL is not set: a proxy that breaks event streams (the main suite starts one)")
class BrokenStreamTest(unittest.TestCase):
    """Streams through a proxy in front of the service that breaks them after the first token (see
    test/helpers/stream-breaker.ts): reset, a clean end, an error event, an unknown event."""

    def through(self, mode: str) -> Client:
        return Client(f"{BREAKER_URL}/{mode}", api_key=os.environ["FIS_ANALYST_KEY"])

    def open(self, sdk: Client, transport: str) -> ChatStream:
        question = [{"role": "user", "content": "How did revenue change?"}]
        return sdk.ai.chat(question, company_ids=[1]) if transport == "rest" else sdk.ai.chat_graphql(question, company_ids=[1])

    def test_a_cut_stream_raises_with_what_arrived_every_time(self):
        for transport in ("rest", "graphql"):
            for mode in ("reset", "end"):
                for attempt in range(5):
                    seen = []
                    with self.assertRaises(StreamInterruptedError, msg=f"{transport} {mode} #{attempt}") as caught:
                        for event in self.open(self.through(mode), transport):
                            seen.append(event)
                    self.assertEqual(caught.exception.code, "STREAM_INTERRUPTED")
                    self.assertTrue(caught.exception.partial_text, f"{transport} {mode}")
                    self.assertEqual(caught.exception.events, seen)
                with self.assertRaises(StreamInterruptedError):
                    self.open(self.through(mode), transport).final_answer()

    def test_an_error_event_raises_its_typed_error(self):
        with self.assertRaises(UpstreamError) as caught:
            self.open(self.through("error"), "rest").final_answer()
        self.assertEqual(caught.exception.code, "UPSTREAM_ERROR")
        self.assertTrue(caught.exception.request_id)

    def test_an_unknown_event_is_passed_on(self):
        events = list(self.open(self.through("unknown"), "rest"))
        self.assertEqual(events[0], UnknownChatEvent(event="unknown", name="sentiment", data={"mood": "upbeat"}))
        self.assertEqual(events[-1].event, "done")


@unittest.skipUnless(BASE_URL, "FIS_BASE_URL is not set: these tests need a running service (the main suite starts one)")
class CredentialsTest(unittest.TestCase):
    def test_token_exchange_and_bad_key(self):
        token = client("analyst").auth.token()
        self.assertEqual((token.token_type, token.role), ("Bearer", "analyst"))
        self.assertEqual(len(Client(BASE_URL, access_token=token.access_token).search("revenue", top_k=1)), 1)
        with self.assertRaises(AuthenticationError) as caught:
            Client(BASE_URL, api_key="fis_live_not-a-key").companies.list()
        self.assertEqual(caught.exception.status, 401)

    def test_token_endpoint_errors_and_key_administration(self):
        with self.assertRaises(AuthenticationError) as caught:
            Client(BASE_URL).auth.token("fis_live_not-a-key")
        self.assertEqual(caught.exception.details, {"oauth_error": "invalid_client"})
        self.assertEqual(Client(BASE_URL).auth.token(os.environ["FIS_VIEWER_KEY"]).role, "viewer")
        created = client("admin").admin.keys.create("python sdk test", "viewer")
        self.assertTrue(created.key.startswith("fis_live_"))
        self.assertIsInstance(created.api_key, models.ApiKey)
        fresh = Client(BASE_URL, api_key=created.key)
        self.assertEqual(len(fresh.companies.list(limit=1).data), 1)
        listed = {key.id: key for key in client("admin").admin.keys.list()}
        self.assertIsNone(listed[created.api_key.id].revoked_at)
        self.assertIsNotNone(client("admin").admin.keys.revoke(created.api_key.id).revoked_at)
        time.sleep(1.1)  # instances refuse a revoked key within a second
        with self.assertRaises(AuthenticationError):
            fresh.companies.list()
        with self.assertRaises(PermissionDeniedError):
            client("analyst").admin.keys.list()

    def test_timeout_and_connection_errors(self):
        with self.assertRaises(ApiTimeoutError) as caught:
            client(timeout=0.001).ai.summarize(1)
        self.assertEqual(caught.exception.code, "TIMEOUT")
        self.assertIsInstance(caught.exception, TimeoutError)
        with self.assertRaises(ApiConnectionError):
            Client("http://127.0.0.1:9", max_retries=0).companies.list()

    def test_every_error_code_of_the_document_has_its_class(self):
        self.assertEqual(set(ERROR_CLASSES), set(models.ErrorCode.__args__))


@unittest.skipUnless(os.environ.get("FIS_LIMITED_URL"), "FIS_LIMITED_URL is not set: the retry tests need a rate-limited instance")
class RetryTest(unittest.TestCase):
    def test_waits_out_retry_after_then_succeeds_and_not_past_the_cap(self):
        sdk = Client(os.environ["FIS_LIMITED_URL"], api_key=os.environ["FIS_LIMITED_KEY"])
        started = time.monotonic()
        for _ in range(3):
            self.assertTrue(sdk.statements.ratio_definitions())
        # The third call was refused, waited out the Retry-After (at least a second) and was answered.
        self.assertGreater(time.monotonic() - started, 0.9)
        impatient = Client(os.environ["FIS_LIMITED_URL"], api_key=os.environ["FIS_LIMITED_KEY"], max_retry_delay=0.01)
        with self.assertRaises(RateLimitError) as caught:
            for _ in range(3):
                impatient.statements.ratio_definitions()
        self.assertEqual(caught.exception.status, 429)
        self.assertTrue(1 <= caught.exception.retry_after <= 2)

    def test_retry_after_as_seconds_or_a_date(self):
        self.assertEqual(retry_after_seconds("7"), 7)
        self.assertEqual(retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0), 10)
        self.assertIsNone(retry_after_seconds("soon"))


if __name__ == "__main__":
    unittest.main()
