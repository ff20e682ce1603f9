import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { App } from '../src/app';
import { startApp } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';
import { request } from './helpers/http';
import type { Data, GraphQLAnswer, GraphQLFailure, Page, Refusal } from './helpers/http';
import { parseLogLine, type LogLine } from './helpers/log-lines';
import type { Company, SearchResult, Schema } from '../sdk/typescript/src';
import { createTestKeys } from './helpers/keys';
import { freshDataDir, TARGET, testConfig } from './helpers/test-app';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

const RESTART_BOUND_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An app whose log lines the test can read. */
async function startLoggedApp(
  overrides: Parameters<typeof testConfig>[0],
): Promise<{ app: App; lines: () => LogLine[] }> {
  const logged: string[] = [];
  const config = testConfig({ logLevel: 'info', ...overrides });
  const app = await startApp(
    config,
    createLogger(config.logLevel, (line) => void logged.push(line)),
  );
  await createTestKeys(app);
  return { app, lines: () => logged.map(parseLogLine) };
}

/** The REST list, a GraphQL query and readiness, as a client sees them. */
async function probeAll(app: App) {
  const rest = await request('/v1/companies?limit=1', {}, app.url);
  const graphql = await request(
    '/graphql',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ companies(limit: 1) { total } }' }),
    },
    app.url,
  );
  const ready = await request('/readyz', {}, app.url);
  return { rest, graphql, ready };
}

async function until<T>(
  what: string,
  withinMs: number,
  attempt: () => Promise<T | null>,
): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await attempt().catch(() => null);
    if (value !== null) return { value, ms: Date.now() - started };
    if (Date.now() - started > withinMs) throw new Error(`${what} did not happen within ${withinMs} ms`);
    await sleep(50);
  }
}

// What the translators and the SQL logger write per failed request or statement.
const PER_REQUEST_ERRORS = new Set([
  'request failed',
  'rest operation failed',
  'graphql resolver failed',
  'graphql-sse operation failed',
  'sql failed',
  'chat failed',
  'event stream failed',
]);

/** Per-request error lines, and any line carrying a stack: an outage must log neither. */
function requestFailures(lines: LogLine[]): LogLine[] {
  return lines.filter(
    (line) =>
      PER_REQUEST_ERRORS.has(line.message) ||
      Object.values(line).some((value) => typeof value === 'string' && /\n\s+at /.test(value)),
  );
}

function expectUnavailable({ rest, graphql, ready }: Awaited<ReturnType<typeof probeAll>>): void {
  expect(rest.status).to.equal(503);
  expect((rest.body as Refusal).error.code).to.equal('SERVICE_UNAVAILABLE');
  expect(Number(rest.headers.get('retry-after'))).to.be.greaterThan(0);
  expect(graphql.status).to.equal(503);
  expect((graphql.body as GraphQLFailure).errors[0].extensions.code).to.equal('SERVICE_UNAVAILABLE');
  expect(Number(graphql.headers.get('retry-after'))).to.be.greaterThan(0);
  expect(ready.status).to.equal(503);
  expect(JSON.stringify(ready.body)).to.not.match(/127\.0\.0\.1|localhost|:\d{4,5}\b|ECONN/);
}

async function writeDocument(app: App, marker: string): Promise<void> {
  const companies = await request<Page<Company>>('/v1/companies?limit=1', {}, app.url);
  const stored = await request(
    '/v1/documents',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        company_id: companies.body.data[0].id,
        title: marker,
        doc_type: 'note',
        content: `The ${marker} note says revenue grew.`,
      }),
    },
    app.url,
  );
  expect(stored.status).to.equal(201);
}

async function findDocument(app: App, marker: string): Promise<boolean> {
  const found = await request<Data<SearchResult[]>>(
    '/v1/search',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: marker, mode: 'text' }),
    },
    app.url,
  );
  expect(found.status).to.equal(200);
  return JSON.stringify(found.body.data).includes(marker);
}

describe('database outages', function () {
  this.timeout(120_000);

  if (TARGET === 'embedded') {
    describe('the embedded database child dies', () => {
      let running: { app: App; lines: () => LogLine[] } | null = null;
      afterEach(async () => {
        await running?.app.close();
        running = null;
      });

      it('answers 503 with Retry-After on REST and GraphQL at once, restarts the child and serves again with its data', async () => {
        running = await startLoggedApp({});
        const { app, lines } = running;
        await writeDocument(app, 'Zanzibarfox');
        const pid = app.database.childPid as number;
        process.kill(pid, 'SIGKILL');

        const down = await until('503 after the kill', 1_000, async () => {
          const seen = await probeAll(app);
          return seen.rest.status === 503 ? seen : null;
        });
        expectUnavailable(down.value);
        expect((await request('/healthz', {}, app.url)).status).to.equal(200);

        // About a second on an idle machine (PGlite opening its data directory); the bound leaves room for a busy CI.
        await until('serving again', RESTART_BOUND_MS, async () =>
          (await probeAll(app)).rest.status === 200 ? true : null,
        );
        const after = await probeAll(app);
        expect(after.graphql.status).to.equal(200);
        const served = after.graphql.body as GraphQLAnswer<Pick<Schema.Query, 'companies'>>;
        expect(served.data.companies.total).to.be.greaterThan(0);
        expect(after.ready.status).to.equal(200);
        expect(app.database.childPid).to.not.equal(pid);
        expect(await findDocument(app, 'Zanzibarfox')).to.equal(true);

        const logged = lines();
        expect(logged.filter((line) => line.message === 'database is down')).to.have.length(1);
        expect(logged.filter((line) => line.message === 'database is back up')).to.have.length(1);
        expect(requestFailures(logged)).to.deep.equal([]);
      });
    });

    describe('the embedded database child cannot be restarted', () => {
      let service: ServiceProcess | null = null;
      afterEach(() => {
        service?.child.kill('SIGKILL');
        service = null;
      });

      it('reports the failed state on /healthz, then exits non-zero', async function () {
        const childrenFile = (pid: number) => `/proc/${pid}/task/${pid}/children`;
        const dataDir = freshDataDir();
        service = await startServiceProcess({ DATA_DIR: dataDir, DATABASE_URL: '', DB_RESTART_ATTEMPTS: '2' });
        if (!fs.existsSync(childrenFile(service.child.pid as number))) this.skip();
        const databasePid = Number(
          fs
            .readFileSync(childrenFile(service.child.pid as number), 'utf8')
            .trim()
            .split(/\s+/)[0],
        );
        // The data directory is taken away (replaced by a file) before the crash, so no restart can succeed.
        fs.renameSync(path.join(dataDir, 'pglite'), path.join(dataDir, 'pglite.gone'));
        fs.writeFileSync(path.join(dataDir, 'pglite'), 'not a directory');
        process.kill(databasePid, 'SIGKILL');

        const running = service;
        const failed = await until('/healthz failed', 10_000, async () => {
          const health = await fetch(`${running.url}/healthz`);
          return health.status === 503 ? ((await health.json()) as Refusal) : null;
        });
        expect(failed.value.error.code).to.equal('SERVICE_UNAVAILABLE');
        expect(failed.value.error.details?.status).to.equal('failed');
        expect(await running.exited).to.equal(1);
        expect(running.output()).to.match(/database could not be restarted/);
      });
    });
  }

  describe('the PostgreSQL server goes away (connections cut)', () => {
    let proxy: TcpProxy | null = null;
    let target: EmbeddedPostgres | null = null;
    let running: { app: App; lines: () => LogLine[] } | null = null;
    afterEach(async () => {
      await proxy?.restore();
      await running?.app.close();
      await proxy?.close();
      await target?.stop();
      running = proxy = target = null;
    });

    it('answers 503 with Retry-After while it is away, logs one line per change, and serves again when it is back', async () => {
      // The server: the suite's PostgreSQL, or an embedded one of its own on the embedded run.
      let serverUrl = process.env.TEST_DATABASE_URL;
      if (!serverUrl) {
        target = await startEmbeddedPostgres(path.join(freshDataDir(), 'pglite'));
        serverUrl = target.url;
      }
      const url = new URL(serverUrl);
      proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      // A fresh embedded server gets no demo data: seeding it through one proxied connection takes a minute, and the
      // probes read the company list, empty or not.
      running = await startLoggedApp({
        databaseUrl: url.toString(),
        dbPoolSize: target ? 1 : 4,
        seedDemoData: !target,
      });
      const { app, lines } = running;
      expect((await probeAll(app)).rest.status).to.equal(200);

      await proxy.cut();
      for (let i = 0; i < 20; i += 1) expectUnavailable(await probeAll(app));

      await proxy.restore();
      const back = await until('serving again', 5_000, async () =>
        (await probeAll(app)).rest.status === 200 ? true : null,
      );
      expect(back.ms).to.be.below(5_000);
      expect((await probeAll(app)).ready.status).to.equal(200);

      const logged = lines();
      expect(logged.filter((line) => line.message === 'database is down')).to.have.length(1);
      expect(logged.filter((line) => line.message === 'database is back up')).to.have.length(1);
      expect(requestFailures(logged)).to.deep.equal([]);
    });
  });
});
