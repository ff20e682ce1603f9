import { expect } from 'chai';
import type { App } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { runWithRequestId } from '../src/shared/request-context';
import { app } from './helpers/shared-app';
import { request, requestAs } from './helpers/http';
import { startTestApp } from './helpers/test-app';

const graphqlBody = (query: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

describe('observability and the GraphQL IDE', function () {
  this.timeout(60_000);

  it('keeps a sane X-Request-Id from the client and makes one otherwise', async () => {
    const kept = await fetch(`${app().url}/v1/companies?limit=1`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(kept.headers.get('x-request-id')).to.equal('trace-abc.123');
    const replaced = await fetch(`${app().url}/v1/companies?limit=1`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('writes the request id on every log line written while serving the request', () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const logger = createLogger('info');
      runWithRequestId('req-42', () => logger.info('inside', { a: 1 }));
      logger.info('outside');
    } finally {
      process.stderr.write = write;
    }
    expect(JSON.parse(lines[0])).to.include({ message: 'inside', requestId: 'req-42', a: 1 });
    expect(JSON.parse(lines[1])).not.to.have.property('requestId');
  });

  it('serves Prometheus metrics: requests by route and status, latencies, the database pool, AI generations', async () => {
    await requestAs(null, '/v1/companies?limit=1');
    await requestAs(null, '/v1/companies/999999');
    await request('/v1/ai/summarize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ company_id: 1 }) });
    const response = await fetch(`${app().url}/metrics`);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    const text = await response.text();
    expect(text).to.match(/fis_http_requests_total\{method="GET",route="\/v1\/companies",status="200"\} \d+/);
    expect(text).to.match(/fis_http_requests_total\{method="GET",route="\/v1\/companies\/:id",status="404"\} \d+/);
    expect(text).to.match(/fis_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/v1\/companies"\} \d+/);
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
      const introspection = await requestAs(null, '/graphql', graphqlBody('{ __schema { types { name } } }'), production.url);
      expect(introspection.status).to.equal(400);
      expect(introspection.body.errors[0].message).to.match(/introspection/i);
      const typo = await requestAs(null, '/graphql', graphqlBody('{ companie { total } }'), production.url);
      expect(typo.body.errors[0].message).not.to.include('Did you mean');
      const development = await requestAs(null, '/graphql', graphqlBody('{ companie { total } }'));
      expect(development.body.errors[0].message).to.include('Did you mean');
      const ide = await fetch(`${production.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(ide.headers.get('content-type')).to.match(/json/);
      // The streaming endpoint follows the same rule.
      const streamed = await fetch(`${production.url}/graphql/stream`, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
      });
      expect(await streamed.text()).to.match(/introspection/i);
    });
  });
});
