import { expect } from 'chai';
import {
  AuthenticationError,
  ConnectionError,
  FinancialInsightsClient,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  StreamInterruptedError,
  TimeoutError,
  UpstreamError,
  type ChatStreamEvent,
  type GraphQLChatEvent,
} from '../src';
import { retryAfterSeconds } from '../src/transport';
import { ApiError, errorFor, ServiceUnavailableError } from '../src/errors';
import { app } from '../../../test/helpers/shared-app';
import { keysFor } from '../../../test/helpers/keys';
import { rateLimitedApp } from '../../../test/helpers/rate-limited-app';
import type { App } from '../../../src/app';
import { startStreamBreaker, type BreakMode, type StreamBreaker } from '../../../test/helpers/stream-breaker';

/** The TypeScript SDK against the real service (the suite's shared instance). */
describe('TypeScript SDK (sdk/typescript)', function () {
  this.timeout(60_000);
  const client = (role: 'viewer' | 'analyst' | 'admin' | null = 'analyst', options = {}) =>
    new FinancialInsightsClient({
      baseUrl: app().url,
      ...(role ? { apiKey: keysFor(app().url)[role] } : {}),
      ...options,
    });

  describe('companies', () => {
    it('lists a page with its meta, and iterates every page without gaps or repeats', async () => {
      const first = await client().companies.list({ limit: 3 });
      expect(first.data).to.have.length(3);
      expect(first.meta).to.deep.equal({ total: first.meta.total, limit: 3, offset: 0 });
      const pages = [];
      for await (const page of client().companies.pages({ limit: 7 })) pages.push(page);
      expect(pages.length).to.equal(Math.ceil(first.meta.total / 7));
      const ids = pages.flatMap((page) => page.data.map((company) => company.id));
      expect(new Set(ids).size).to.equal(first.meta.total);
      const all = [];
      for await (const company of client().companies.all({ limit: 50 })) all.push(company.id);
      expect(all).to.deep.equal(ids);
    });

    it('iterates one sector only, and stops early without asking for the rest', async () => {
      const { data } = await client().companies.list({ limit: 1 });
      const sector = data[0].sector!;
      const seen = [];
      for await (const company of client().companies.all({ sector: sector.toUpperCase(), limit: 2 }))
        seen.push(company);
      expect(seen.length).to.be.above(0);
      expect(seen.every((company) => company.sector === sector)).to.equal(true);
      let taken = 0;
      for await (const company of client().companies.all({ limit: 2 })) {
        expect(company.id).to.be.a('number');
        if (++taken === 3) break;
      }
      expect(taken).to.equal(3);
    });

    it('gets a profile by id and by ticker in any case; an unknown one is a NotFoundError', async () => {
      const profile = await client().companies.get(1);
      expect(profile).to.include.keys('id', 'name', 'ticker', 'sector', 'industry', 'fiscal_year_end');
      const byTicker = await client().companies.byTicker(profile.ticker.toLowerCase());
      expect(byTicker).to.deep.equal(profile);
      const missing = await client()
        .companies.get(999_999)
        .catch((error: unknown) => error);
      expect(missing).to.be.instanceOf(NotFoundError).and.to.include({ code: 'NOT_FOUND', status: 404 });
      expect(
        await client()
          .companies.byTicker('NO-SUCH-TICKER')
          .catch((error: unknown) => error),
      ).to.be.instanceOf(NotFoundError);
    });
  });

  describe('statements, ratios and periods', () => {
    it('reads the statements of a period as the REST routes serve them', async () => {
      const periods = await client().companies.periods(1, { type: 'annual' });
      expect(periods.length).to.be.above(0);
      expect(periods.every((p) => p.type === 'ANNUAL')).to.equal(true);
      const year = periods[0].period;
      const income = await client().statements.income(1, { period: year });
      expect(income).to.include({ company_id: 1, period: year });
      expect(income.revenue).to.be.a('number');
      const withSources = await client().statements.income(1, { period: year, provenance: true });
      expect(withSources).to.have.property('provenance');
      expect((await client().statements.balanceSheet(1, { period: year })).total_assets).to.be.a('number');
      expect((await client().statements.cashFlow(1, { period: year })).period).to.equal(year);
      const ratios = await client().statements.ratios(1, { period: year });
      expect(ratios.type).to.equal('ANNUAL');
      const definitions = await client().statements.ratioDefinitions();
      expect(definitions.map((d) => d.key)).to.include('gross_margin');
      expect((await client().companies.dataQuality(1)).length).to.be.above(0);
    });

    it('reads the last periods of a statement or of the ratios, newest first, as arrays', async () => {
      const quarters = await client().statements.incomeHistory(1, { limit: 3 });
      expect(quarters).to.have.length(3);
      expect(quarters.every((q) => q.fiscal_quarter !== null)).to.equal(true);
      expect(quarters.map((q) => q.period_end)).to.deep.equal([...quarters.map((q) => q.period_end)].sort().reverse());
      const years = await client().statements.ratiosHistory(1, { type: 'annual', limit: 2 });
      expect(years.map((r) => r.type)).to.deep.equal(['ANNUAL', 'ANNUAL']);
      expect((await client().statements.balanceSheetHistory(1)).length).to.be.above(1);
      const cash = await client().statements.cashFlowHistory(1, { type: 'annual', limit: 1 });
      expect(cash[0].period).to.equal((await client().statements.cashFlow(1, { period: 'latest-fy' })).period);
    });

    it('turns bad input into an InvalidRequestError carrying the service message', async () => {
      const error = await client()
        .statements.ratios(1, { period: 'Q9-2024' })
        .catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(InvalidRequestError).and.to.include({ code: 'BAD_USER_INPUT', status: 400 });
      expect((error as Error).message).to.match(/Q9-2024/);
    });
  });

  describe('search, documents and AI', () => {
    it('searches, ingests (admin only) and summarizes and compares with citations', async () => {
      const hits = await client().search({ query: 'revenue growth', top_k: 3 });
      expect(hits.length).to.be.within(1, 3);
      expect(hits[0]).to.include.keys('content', 'score', 'company_id', 'ticker');
      const content = `An SDK test note ${Date.now()}.`;
      const refused = await client('analyst')
        .documents.ingest({ company_id: 1, title: 'SDK', doc_type: 'note', content })
        .catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(PermissionDeniedError);
      const stored = await client('admin').documents.ingest({ company_id: 1, title: 'SDK', doc_type: 'note', content });
      expect(stored.created).to.equal(true);
      expect(
        (await client('admin').documents.ingest({ company_id: 1, title: 'SDK', doc_type: 'note', content })).created,
      ).to.equal(false);
      const summary = await client().ai.summarize({ company_id: 1, summary_type: 'profitability' });
      expect(summary.summary.length).to.be.above(0);
      expect(summary.citations.length).to.be.above(0);
      const comparison = await client().ai.compare({ company_ids: [1, 2], metrics: ['revenue', 'net_margin'] });
      expect(comparison.table.map((row) => row.metric)).to.deep.equal(['revenue', 'net_margin']);
    });

    it('opens a search hit in its document: the passage under the hit\u2019s chunk id; an unknown document is a NotFoundError', async () => {
      const [hit] = await client().search({ query: 'revenue growth', top_k: 1 });
      const document = await client().documents.get(hit.document_id);
      expect(document).to.include({ id: hit.document_id, ticker: hit.ticker, title: hit.title });
      expect(document.passages.find((passage) => passage.chunk_id === hit.chunk_id)?.content).to.equal(hit.content);
      expect(
        await client()
          .documents.get(987_654)
          .catch((e: unknown) => e),
      ).to.be.instanceOf(NotFoundError);
    });

    it('streams a chat answer as typed events over REST, the tokens making up the final answer', async () => {
      const events: ChatStreamEvent[] = [];
      for await (const event of client().ai.chat({
        company_ids: [1],
        messages: [{ role: 'user', content: 'How did revenue change?' }],
      }))
        events.push(event);
      const names = events.map((e) => e.event);
      expect(names[0]).to.equal('status');
      expect(names.at(-1)).to.equal('done');
      const done = events.at(-1)!;
      if (done.event !== 'done') throw new Error('no done event');
      const text = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('');
      expect(text.trim()).to.equal(done.data.answer.trim());
      expect(done.data.conversation_id).to.match(/^[0-9a-f-]{36}$/);
      const followUp = await client().ai.ask({
        conversation_id: done.data.conversation_id,
        messages: [{ role: 'user', content: 'And net income?' }],
      });
      expect(followUp.conversation_id).to.equal(done.data.conversation_id);
    });

    it('streams the same chat over the graphql-sse subscription, events told apart by __typename', async () => {
      const events: GraphQLChatEvent[] = [];
      for await (const event of client().ai.chatGraphql({
        companyIds: [1],
        messages: [{ role: 'user', content: 'How did revenue change?' }],
      }))
        events.push(event);
      const last = events.at(-1)!;
      expect(events[0].__typename).to.equal('ChatStatusEvent');
      if (last.__typename !== 'ChatDoneEvent') throw new Error(`the last event is ${last.__typename}`);
      expect(last.answer.length).to.be.above(0);
      expect(events.some((e) => e.__typename === 'ChatTokenEvent')).to.equal(true);
      const refused = await (async () => {
        for await (const _ of client('viewer').ai.chatGraphql({ messages: [{ role: 'user', content: 'Hi' }] })) void _;
      })().catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(PermissionDeniedError);
    });

    it('refuses a chat request the service refuses, before any event', async () => {
      const error = await (async () => {
        for await (const _ of client().ai.chat({ messages: [] })) void _;
      })().catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(InvalidRequestError);
    });
  });

  describe('chat streams end with done or throw', () => {
    let breaker: StreamBreaker;
    before(async () => {
      breaker = await startStreamBreaker(app().url);
    });
    after(() => breaker.close());
    const through = (mode: BreakMode) =>
      new FinancialInsightsClient({ baseUrl: breaker.baseUrl(mode), apiKey: keysFor(app().url).analyst });
    const question = { messages: [{ role: 'user' as const, content: 'How did revenue change?' }] };
    const streams = {
      rest: (sdk: FinancialInsightsClient) => sdk.ai.chat({ ...question, company_ids: [1] }),
      graphql: (sdk: FinancialInsightsClient) => sdk.ai.chatGraphql({ ...question, companyIds: [1] }),
    };

    for (const [transport, open] of Object.entries(streams)) {
      it(`throws a StreamInterruptedError with what arrived when the ${transport} stream is cut, every time`, async () => {
        for (const mode of ['reset', 'end'] as const) {
          for (let attempt = 0; attempt < 5; attempt += 1) {
            const seen: unknown[] = [];
            const failure = await (async () => {
              for await (const event of open(through(mode))) seen.push(event);
            })().catch((error: unknown) => error);
            expect(failure, `${transport} ${mode} #${attempt}`).to.be.instanceOf(StreamInterruptedError);
            const interrupted = failure as StreamInterruptedError;
            expect(interrupted.code).to.equal('STREAM_INTERRUPTED');
            expect(interrupted.partialText.length, `${transport} ${mode}`).to.be.above(0);
            expect(interrupted.events).to.deep.equal(seen);
            expect(interrupted.requestId).to.be.a('string');
          }
          const viaFinal = await open(through(mode))
            .finalAnswer()
            .catch((error: unknown) => error);
          expect(viaFinal, `${transport} ${mode} finalAnswer`).to.be.instanceOf(StreamInterruptedError);
        }
      });
    }

    it('throws the error event\u2019s typed error on both chat methods, with the request id', async () => {
      const midAnswer = await streams
        .rest(through('error'))
        .finalAnswer()
        .catch((error: unknown) => error);
      expect(midAnswer).to.be.instanceOf(UpstreamError).and.to.include({ code: 'UPSTREAM_ERROR', status: 200 });
      expect((midAnswer as UpstreamError).requestId).to.be.a('string');
      // An unknown company: REST refuses before streaming, the subscription sends a ChatErrorEvent; both throw alike.
      const rest = await client()
        .ai.chat({ ...question, company_ids: [999_999] })
        .finalAnswer()
        .catch((error: unknown) => error);
      const graphql = await client()
        .ai.chatGraphql({ ...question, companyIds: [999_999] })
        .finalAnswer()
        .catch((error: unknown) => error);
      expect(rest).to.be.instanceOf(NotFoundError);
      expect(graphql).to.be.instanceOf(NotFoundError).and.to.include({ code: 'NOT_FOUND' });
      expect((graphql as NotFoundError).requestId).to.be.a('string');
    });

    it('passes an event of an unknown name on as a generic event and still ends with done', async () => {
      const events: ChatStreamEvent[] = [];
      for await (const event of streams.rest(through('unknown'))) events.push(event);
      expect(events[0]).to.deep.equal({ event: 'unknown', name: 'sentiment', data: { mood: 'upbeat' } });
      expect(events.at(-1)!.event).to.equal('done');
    });

    it('returns the final answer, the tokens put together, with finalAnswer() on both transports', async () => {
      const rest = streams.rest(client());
      const tokens: string[] = [];
      for await (const event of rest) if (event.event === 'token') tokens.push(event.data.text);
      const answer = await streams.rest(client()).finalAnswer();
      expect(answer.answer.length).to.be.above(0);
      expect(tokens.join('').length).to.be.above(0);
      const graphql = await streams.graphql(client()).finalAnswer();
      expect(graphql.__typename).to.equal('ChatDoneEvent');
      expect(graphql.answer.length).to.be.above(0);
      expect(
        await (async () => {
          for await (const _ of rest) void _;
        })().catch((error: unknown) => error),
      ).to.be.instanceOf(TypeError);
    });
  });

  describe('settings from the environment and error context', () => {
    it('reads FIS_BASE_URL and FIS_API_KEY when the options leave them out', async () => {
      const saved = { base: process.env.FIS_BASE_URL, key: process.env.FIS_API_KEY };
      process.env.FIS_BASE_URL = app().url;
      process.env.FIS_API_KEY = keysFor(app().url).analyst;
      try {
        const fromEnvironment = new FinancialInsightsClient();
        expect((await fromEnvironment.search({ query: 'revenue', top_k: 1 })).length).to.equal(1);
      } finally {
        for (const [name, value] of [
          ['FIS_BASE_URL', saved.base],
          ['FIS_API_KEY', saved.key],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    });

    it('carries the request id, the response headers and typed details on every error', async () => {
      const error = await client()
        .statements.income(1, { period: 'Q9-2024' })
        .catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(InvalidRequestError);
      const invalid = error as InvalidRequestError;
      expect(invalid.requestId).to.match(/\S/);
      expect(invalid.headers['x-request-id']).to.equal(invalid.requestId);
      expect(invalid.details?.field).to.equal('period');
      expect(invalid.details?.accepted).to.include('FY<yyyy>');
    });
  });

  describe('credentials, timeouts and cancellation', () => {
    it('exchanges the API key for a bearer token that then authenticates alone', async () => {
      const token = await client('analyst').auth.token();
      expect(token).to.include({ token_type: 'Bearer', role: 'analyst' });
      const bearer = new FinancialInsightsClient({ baseUrl: app().url, accessToken: token.access_token });
      expect((await bearer.search({ query: 'revenue', top_k: 1 })).length).to.equal(1);
      const bad = await client(null, { apiKey: 'fis_live_not-a-key' })
        .companies.list()
        .catch((e: unknown) => e);
      expect(bad).to.be.instanceOf(AuthenticationError).and.to.include({ code: 'UNAUTHENTICATED', status: 401 });
    });

    it("gives up after timeoutMs with a TimeoutError, and passes an aborted signal's reason through", async () => {
      const slow = client('analyst', { timeoutMs: 1 });
      const timedOut = await slow.ai.summarize({ company_id: 1 }).catch((e: unknown) => e);
      expect(timedOut).to.be.instanceOf(TimeoutError).and.to.include({ code: 'TIMEOUT' });
      const controller = new AbortController();
      const reason = new Error('the user went away');
      const pending = client().ai.summarize({ company_id: 1 }, { signal: controller.signal });
      controller.abort(reason);
      expect(await pending.catch((e: unknown) => e)).to.equal(reason);
      const events: string[] = [];
      const stopped = new AbortController();
      const stream = client().ai.chat(
        { company_ids: [1], messages: [{ role: 'user', content: 'Cash flow?' }] },
        { signal: stopped.signal },
      );
      const failure = await (async () => {
        for await (const event of stream) {
          events.push(event.event);
          stopped.abort(reason);
        }
      })().catch((e: unknown) => e);
      expect(failure).to.equal(reason);
      expect(events).to.have.length(1);
    });

    it('refuses a bad client secret at the token endpoint with a typed error keeping the OAuth error name', async () => {
      const refused = await client(null)
        .auth.token('fis_live_not-a-key')
        .catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(AuthenticationError).and.to.include({ status: 401 });
      expect((refused as AuthenticationError).details).to.deep.equal({ oauth_error: 'invalid_client' });
      const token = await client(null).auth.token(keysFor(app().url).viewer);
      expect(token.role).to.equal('viewer');
    });

    it('administers keys as an admin: create (the key shown once), list, revoke; an analyst may not', async () => {
      const created = await client('admin').admin.keys.create({ name: 'sdk test', role: 'viewer' });
      expect(created.key).to.match(/^fis_live_/);
      const fresh = new FinancialInsightsClient({ baseUrl: app().url, apiKey: created.key });
      expect((await fresh.companies.list({ limit: 1 })).data).to.have.length(1);
      const listed = await client('admin').admin.keys.list();
      expect(listed.find((key) => key.id === created.api_key.id)).to.include({
        name: 'sdk test',
        role: 'viewer',
        revoked_at: null,
      });
      const revoked = await client('admin').admin.keys.revoke(created.api_key.id);
      expect(revoked.revoked_at).to.be.a('string');
      // Instances refuse a revoked key within a second (they cache keys that long).
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await fresh.companies.list().catch((e: unknown) => e)).to.be.instanceOf(AuthenticationError);
      expect(
        await client('analyst')
          .admin.keys.list()
          .catch((e: unknown) => e),
      ).to.be.instanceOf(PermissionDeniedError);
    });

    it('reports a service that is not there as a ConnectionError', async () => {
      const nowhere = new FinancialInsightsClient({ baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
      expect(await nowhere.companies.list().catch((e: unknown) => e)).to.be.instanceOf(ConnectionError);
    });
  });

  describe('retries on 429', () => {
    let limited: App;
    before(async function () {
      this.timeout(120_000);
      limited = await rateLimitedApp();
    });
    const limitedClient = (role: 'viewer' | 'analyst', options = {}) =>
      new FinancialInsightsClient({ baseUrl: limited.url, apiKey: keysFor(limited.url)[role], ...options });

    it('waits as long as Retry-After says and then succeeds', async () => {
      const sdk = limitedClient('viewer');
      const started = Date.now();
      for (let i = 0; i < 3; i += 1) expect((await sdk.statements.ratioDefinitions()).length).to.be.above(0);
      // The third call was refused, waited out the Retry-After (at least a second) and was answered.
      expect(Date.now() - started).to.be.above(900);
    });

    it('does not wait longer than maxRetryDelayMs: the RateLimitError says when to come back', async () => {
      const sdk = limitedClient('analyst', { maxRetryDelayMs: 10 });
      const results = await Promise.all(
        [0, 1, 2, 3].map(() => sdk.statements.ratioDefinitions().catch((e: unknown) => e)),
      );
      const refused = results.find((r) => r instanceof RateLimitError) as RateLimitError | undefined;
      expect(refused, 'two of four calls at once are refused').to.not.equal(undefined);
      expect(refused!.retryAfterSeconds).to.be.within(1, 2);
      expect(refused!.status).to.equal(429);
    });
  });

  describe('units', () => {
    it('reads Retry-After as seconds or as an HTTP date', () => {
      expect(retryAfterSeconds('7')).to.equal(7);
      expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('2015-10-21T07:28:00Z'))).to.equal(10);
      expect(retryAfterSeconds('soon')).to.equal(undefined);
      expect(retryAfterSeconds(null)).to.equal(undefined);
    });

    it('gives each code its class, and a code it does not know the base class', () => {
      expect(errorFor('SHUTTING_DOWN', 'stopping', 503)).to.be.instanceOf(ServiceUnavailableError);
      const unknown = errorFor('SOMETHING_NEW', 'new', 418);
      expect(unknown.constructor).to.equal(ApiError);
      expect(unknown).to.include({ code: 'SOMETHING_NEW', status: 418, message: 'new' });
    });
  });
});
