import { expect } from 'chai';
import type { App } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { startApp } from '../src/app';
import { app } from './helpers/shared-app';
import { request, requestAs, type GraphQLFailure, type Refusal } from './helpers/http';
import { parseLogLine } from './helpers/log-lines';
import { startTestApp, testConfig } from './helpers/test-app';

const graphqlBody = (query: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});

describe('observability and the GraphQL IDE', function () {
  this.timeout(60_000);

  it('keeps a sane X-Request-Id from the client and makes one otherwise', async () => {
    const kept = await fetch(`${app().url}/v1/companies?limit=1`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(kept.headers.get('x-request-id')).to.equal('trace-abc.123');
    const replaced = await fetch(`${app().url}/v1/companies?limit=1`, {
      headers: { 'x-request-id': 'bad id <script>' },
    });
    expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  describe('request ids in the log and in unexpected errors', () => {
    const logged: string[] = [];
    const lines = () => logged.map(parseLogLine);
    let broken: App;
    let debugging: App;
    before(async () => {
      broken = await startApp(
        testConfig({ logLevel: 'info' }),
        createLogger('info', (line) => void logged.push(line)),
      );
      // A schema the code no longer matches (a bad manual change): every balance-sheet read fails, as a bug would.
      await broken.database.dataSource.query(
        'ALTER TABLE balance_sheets RENAME COLUMN total_assets TO total_assets_moved',
      );
      debugging = await startApp(
        testConfig({ logLevel: 'debug' }),
        createLogger('debug', (line) => void logged.push(line)),
      );
    });
    after(async () => {
      // The PostgreSQL run shares one database among the suite's instances: the column goes back.
      await broken?.database.dataSource.query(
        'ALTER TABLE balance_sheets RENAME COLUMN total_assets_moved TO total_assets',
      );
      await broken?.close();
      await debugging?.close();
    });

    it('names the request id in an unexpected error, on every transport, and logs the error with it', async () => {
      const rest = await fetch(`${broken.url}/v1/companies/1/balance-sheet?type=annual&limit=2`, {
        headers: { 'x-request-id': 'broken-rest-1' },
      });
      expect(rest.status).to.equal(500);
      expect(((await rest.json()) as Refusal).error).to.deep.equal({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'Internal server error (request id broken-rest-1)',
      });

      const query = '{ company(id: 1) { statements(type: ANNUAL, last: 2) { balanceSheet { totalAssets } } } }';
      const askGraphql = async (requestId: string) => {
        const response = await fetch(`${broken.url}/graphql`, {
          ...graphqlBody(query),
          headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        });
        return (await response.json()) as GraphQLFailure;
      };
      const answer = await askGraphql('broken-graphql-1');
      expect(answer.errors[0]).to.deep.include({
        message: 'Internal server error (request id broken-graphql-1)',
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
      // The same when the query runs compiled (from its second run).
      for (const again of ['broken-graphql-2', 'broken-graphql-3']) {
        expect(JSON.stringify(await askGraphql(again))).to.equal(
          JSON.stringify(answer).replaceAll('broken-graphql-1', again),
        );
      }
      // The detail goes to the log only, on a line with the request id.
      expect(JSON.stringify(answer)).not.to.include('total_assets');
      // Each failed field once (the two periods' balance sheets at /graphql).
      for (const [requestId, failures] of [
        ['broken-rest-1', 1],
        ['broken-graphql-1', answer.errors.length],
      ] as const) {
        const errors = lines().filter((line) => line.requestId === requestId && line.level === 'error');
        expect(errors, requestId).to.have.length(failures);
        expect(errors[0].error).to.include('total_assets');
        expect(
          lines()
            .filter((line) => line.requestId === requestId)
            .map((line) => line.message),
        ).to.include('request');
      }
    });

    it('at debug level, writes each request’s SQL with its id', async () => {
      await fetch(`${debugging.url}/v1/companies?limit=2`, { headers: { 'x-request-id': 'debug-sql-1' } });
      await fetch(`${debugging.url}/v1/companies/1`, { headers: { 'x-request-id': 'debug-sql-2' } });
      const sqlOf = (requestId: string) =>
        lines().filter((line) => line.message === 'sql' && line.requestId === requestId);
      expect(sqlOf('debug-sql-1')).to.have.length.of.at.least(1);
      expect(sqlOf('debug-sql-2')).to.have.length.of.at.least(1);
      expect(sqlOf('debug-sql-1').some((line) => (line.query as string).includes('LIMIT'))).to.equal(true);
    });
  });

  it('serves Prometheus metrics: requests by route and status, latencies, the database pool, AI generations', async () => {
    await requestAs(null, '/v1/companies?limit=1');
    await requestAs(null, '/v1/companies/999999');
    await request('/v1/ai/summarize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ company_id: 1 }),
    });
    const response = await fetch(`${app().url}/metrics`);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    const text = await response.text();
    expect(text).to.match(/fis_http_requests_total\{method="GET",route="\/v1\/companies",status="200"\} \d+/);
    expect(text).to.match(/fis_http_requests_total\{method="GET",route="\/v1\/companies\/:id",status="404"\} \d+/);
    expect(text).to.match(
      /fis_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/v1\/companies"\} \d+/,
    );
    expect(text).to.match(/fis_db_pool_connections\{state="total"\} \d+/);
    expect(text).to.match(/fis_ai_generations_total\{writer="builtin",outcome="ok"\} [1-9]/);
  });

  it('serves GraphiQL to a browser from its own files, with no CDN', async () => {
    const page = await fetch(`${app().url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.include("default-src 'self'");
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).to.have.length(5);
    for (const source of sources) {
      expect(source.startsWith('/graphql/assets/'), source).to.equal(true);
      const asset = await fetch(`${app().url}${source}`);
      expect(asset.status, source).to.equal(200);
      expect(asset.headers.get('content-type'), source).to.match(/^text\/(javascript|css)/);
      expect((await asset.text()).length, source).to.be.above(source.endsWith('init.js') ? 100 : 1000);
    }
    // A client that asks for JSON still gets GraphQL's answer.
    expect((await fetch(`${app().url}/graphql`)).status).to.equal(400);
  });

  describe('in production (NODE_ENV=production)', () => {
    let production: App;
    before(async () => {
      production = await startTestApp({ environment: 'production', graphqlIntrospection: false });
    });
    after(() => production?.close());

    it('turns introspection, field suggestions and the IDE off', async () => {
      const introspection = await requestAs<GraphQLFailure>(
        null,
        '/graphql',
        graphqlBody('{ __schema { types { name } } }'),
        production.url,
      );
      expect(introspection.status).to.equal(400);
      expect(introspection.body.errors[0].message).to.match(/introspection/i);
      const typo = await requestAs<GraphQLFailure>(
        null,
        '/graphql',
        graphqlBody('{ companie { total } }'),
        production.url,
      );
      expect(typo.body.errors[0].message).not.to.include('Did you mean');
      const development = await requestAs<GraphQLFailure>(null, '/graphql', graphqlBody('{ companie { total } }'));
      expect(development.body.errors[0].message).to.include('Did you mean');
      const ide = await fetch(`${production.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(ide.headers.get('content-type')).to.match(/json/);
      // The streaming endpoint follows the same rule.
      const streamed = await fetch(`${production.url}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
      });
      expect(await streamed.text()).to.match(/introspection/i);
    });
  });
});
