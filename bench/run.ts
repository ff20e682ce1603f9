/**
 * HTTP benchmark of the service against a bare baseline, printed as one table (no pass/fail).
 *
 * The baseline is about the least any server can do for `GET /v1/companies`: node:http plus a `pg` pool sending the
 * very statements the service sends for that page, answering the same JSON. The service's requests/s divided by the
 * baseline's is therefore what everything the service adds on top costs (routing, GraphQL execution, TypeORM).
 *
 * Then one more figure: the p50/p95 latency of `GET /v1/companies/:id` alone, and again while two anonymous clients
 * each send a ~0.9 MB GraphQL document of 300,000 directives once a second (the parser-limit fault drill). The two
 * runs are back to back in the same process, so the ratio of their p95s is what the attack costs other callers.
 *
 *   npm run bench                 embedded PostgreSQL (PGlite) in a fresh temp dir
 *   npm run bench -- --json       the same figures as one JSON object on stdout
 *   BENCH_SECONDS=5               length of each timed run (default 10), after a 2 s warm-up that is not reported
 *   DATABASE_URL=postgres://...   run against that server, in a database created for the run and dropped after it
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { startApp, type App } from '../src/app';
import { loadConfig } from '../src/config/config';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { sendJson } from '../src/http/respond';
import { createLogger, type Logger } from '../src/shared/logger';
import { BenchError, Teardown, createThrowawayDatabase, messageOf, type BenchDatabase } from './bench-support';

const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
/** Companies per page when the request names no limit (DEFAULT_PAGE_SIZE of the service). */
const PAGE_SIZE = 20;
const PERIOD = 'FY2024';
/** A server counts as idle once it has sent no SQL for this long (far longer than any gap within one request). */
const QUIET_MS = 300;
/** Longest wait for a server to go idle; past it the bench goes on regardless. */
const SETTLE_LIMIT_MS = 15_000;
/** How long a clean exit may take once everything is closed before we call it a leak and exit anyway. */
const EXIT_GRACE_MS = 5_000;


// ---------------------------------------------------------------------------------------------------------------
// Options

interface BenchOptions {
  seconds: number;
  json: boolean;
  /** Server on which to create the throw-away database; null for the embedded PostgreSQL. */
  serverUrl: string | null;
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const unknown = argv.find((arg) => arg !== '--json');
  if (unknown !== undefined) throw new BenchError(`unknown argument "${unknown}" (the only flag is --json)`);
  const seconds = env.BENCH_SECONDS?.trim() || '10';
  if (!/^\d+$/.test(seconds) || Number(seconds) < 1) {
    throw new BenchError(`BENCH_SECONDS must be a whole number of seconds, at least 1; got "${env.BENCH_SECONDS}"`);
  }
  return { seconds: Number(seconds), json: argv.includes('--json'), serverUrl: env.DATABASE_URL?.trim() || null };
}

// ---------------------------------------------------------------------------------------------------------------
// Database

async function startEmbedded(tempDir: string, teardown: Teardown): Promise<BenchDatabase> {
  // Two connections, one for the service's pool and one for the baseline's. They share PGlite's single session,
  // which is safe only because the scenarios run one after another, never both servers at once.
  const embedded = await startEmbeddedPostgres(path.join(tempDir, 'pglite'), 2);
  teardown.add('stop embedded PostgreSQL', () => embedded.stop());
  return { kind: 'embedded', description: `embedded PostgreSQL (PGlite) in ${tempDir}`, url: embedded.url, poolSize: 1 };
}

// ---------------------------------------------------------------------------------------------------------------
// SQL the service runs

interface Statement {
  text: string;
  values: unknown[];
}

/** The two statements listCompanies sends for one page: the page itself and the total. */
interface ListStatements {
  page: Statement;
  count: Statement;
}

/**
 * The service's logger, which on request also keeps the SQL that TypeORM reports (as debug "sql" events, sent
 * whatever the log level). This lets the baseline send exactly what the service sends, instead of a hand-written
 * copy that could drift from listCompanies.
 */
class SqlRecorder implements Logger {
  private recording: Statement[] | null = null;

  constructor(private readonly inner: Logger) {}

  debug(message: string, fields?: Record<string, unknown>): void {
    if (this.recording && message === 'sql' && typeof fields?.query === 'string') {
      this.recording.push({ text: fields.query, values: Array.isArray(fields.parameters) ? fields.parameters : [] });
    }
    this.inner.debug(message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.inner.info(message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.inner.warn(message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.inner.error(message, fields);
  }

  /** The statements sent while `work` runs; nothing else may use the service meanwhile. */
  async record(work: () => Promise<void>): Promise<Statement[]> {
    this.recording = [];
    try {
      await work();
      return this.recording;
    } finally {
      this.recording = null;
    }
  }
}

/** Asks the service for the default page of companies once, keeping its answer and the SQL it ran for it. */
async function recordDefaultPage(recorder: SqlRecorder, serviceUrl: string): Promise<{ statements: ListStatements; body: any }> {
  let body: any;
  const sent = await recorder.record(async () => {
    body = await getOk(`${serviceUrl}/v1/companies`);
  });
  const counts = sent.filter((statement) => /\bcount\s*\(/i.test(statement.text));
  const pages = sent.filter((statement) => !counts.includes(statement));
  if (counts.length !== 1 || pages.length !== 1) {
    const list = sent.map((statement) => `  ${statement.text}`).join('\n') || '  (none)';
    throw new BenchError(`expected GET /v1/companies to send one page query and one count, it sent:\n${list}`);
  }
  return { statements: { page: pages[0], count: counts[0] }, body };
}

// ---------------------------------------------------------------------------------------------------------------
// Baseline server

/**
 * Turns a page row into the list item the REST facade answers. TypeORM names each selected column
 * `<alias>_<column>`, and "c" is listCompanies' alias. (Checked: the baseline's answer must equal the service's.)
 */
function listItem(row: Record<string, unknown>): Record<string, unknown> {
  return { id: row.c_id, name: row.c_name, ticker: row.c_ticker, sector: row.c_sector };
}

interface Baseline {
  url: string;
  /** Statements sent so far, like the service's QueryCounter. */
  queriesSent(): number;
}

/** node:http + pg answering `GET /v1/companies` like the service does. */
async function startBaseline(database: BenchDatabase, statements: ListStatements, teardown: Teardown): Promise<Baseline> {
  const pool = new Pool({ connectionString: database.url, max: database.poolSize });
  // An idle connection can fail, and does at teardown: pg-pool's end() resolves before its connections have closed,
  // so DROP DATABASE ... WITH (FORCE) may terminate one of them. Unheard, that error would crash the bench; a query
  // on a failed connection still fails on its own.
  pool.on('error', () => undefined);
  teardown.add('end baseline pool', () => pool.end());
  let queriesSent = 0;

  // Like TypeORM's getManyAndCount: one connection, the page then the count, one after the other.
  const defaultPage = async () => {
    const client = await pool.connect();
    try {
      queriesSent += 1;
      const page = await client.query(statements.page.text, statements.page.values);
      queriesSent += 1;
      const count = await client.query(statements.count.text, statements.count.values);
      const total = Number(Object.values(count.rows[0] as Record<string, unknown>)[0]);
      return { success: true, data: page.rows.map(listItem), meta: { total, limit: PAGE_SIZE, offset: 0 } };
    } finally {
      client.release();
    }
  };

  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/v1/companies') {
      sendJson(res, 404, { success: false, error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url}` } });
      return;
    }
    defaultPage().then(
      (body) => sendJson(res, 200, body),
      (error: unknown) => sendJson(res, 500, { success: false, error: { code: 'INTERNAL_SERVER_ERROR', message: messageOf(error) } }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Registered after the pool, so it runs before it: no request is left holding a connection when the pool ends.
  teardown.add('close baseline server', () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queriesSent: () => queriesSent };
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  label: string;
  method: 'GET' | 'POST';
  url: string;
  /** What the table shows for the request. */
  request: string;
  headers?: Record<string, string>;
  body?: string;
  /** Throws when a 200 answer is not the one this scenario is meant to time. */
  check(body: any): void;
  /** SQL statements the answering server has sent so far. */
  queriesSent(): number;
}

const NESTED_QUERY = `{
  companies(limit: ${PAGE_SIZE}) {
    items {
      id
      ticker
      incomeStatement(period: "${PERIOD}") { netIncome revenue }
      balanceSheet(period: "${PERIOD}") { totalAssets }
      cashFlow(period: "${PERIOD}") { freeCashFlow }
    }
  }
}`;

function expectThat(condition: unknown, what: string): void {
  if (!condition) throw new BenchError(what);
}

function defineScenarios(baseline: Baseline, app: App, servicePage: any): Scenario[] {
  const serviceQueries = () => app.database.counter.count;
  const firstId: number = servicePage.data[0].id;
  const incomePath = `/v1/companies/${firstId}/income-statement?period=${PERIOD}`;
  return [
    {
      label: '(a) bare',
      method: 'GET',
      url: `${baseline.url}/v1/companies`,
      request: 'GET /v1/companies',
      // The baseline is only a fair yardstick if it answers exactly what the service answers.
      check: (body) => expectThat(isDeepStrictEqual(body, servicePage), 'the baseline answer differs from the service answer'),
      queriesSent: baseline.queriesSent,
    },
    {
      label: '(b) service',
      method: 'GET',
      url: `${app.url}/v1/companies`,
      request: 'GET /v1/companies',
      check: (body) => expectThat(body.success === true && body.data?.length === PAGE_SIZE, `expected ${PAGE_SIZE} companies`),
      queriesSent: serviceQueries,
    },
    {
      label: '(c) service',
      method: 'GET',
      url: `${app.url}${incomePath}`,
      request: `GET ${incomePath}`,
      check: (body) => expectThat(body.success === true && body.data?.period === PERIOD, `expected the ${PERIOD} income statement`),
      queriesSent: serviceQueries,
    },
    {
      label: '(d) service',
      method: 'POST',
      url: `${app.url}/graphql`,
      request: `POST /graphql (${PAGE_SIZE} companies × 3 statements)`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: NESTED_QUERY }),
      check: (body) => {
        const items = body.data?.companies?.items;
        expectThat(body.errors === undefined, `GraphQL errors: ${JSON.stringify(body.errors)}`);
        expectThat(items?.length === PAGE_SIZE, `expected ${PAGE_SIZE} companies`);
        expectThat(items[0].incomeStatement?.netIncome !== undefined, `expected ${PERIOD} statements on the companies`);
      },
      queriesSent: serviceQueries,
    },
  ];
}

async function fetchJson(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const response = await fetch(url, init);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw new BenchError(`${init?.method ?? 'GET'} ${url} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
}

async function getOk(url: string): Promise<any> {
  const { status, body } = await fetchJson(url);
  if (status !== 200) throw new BenchError(`GET ${url} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/**
 * One request before any timing, since a scenario that answers an error would only time how fast errors are.
 * Returns how many SQL statements that request sent, which explains much of the spread between scenarios.
 */
async function verify(scenario: Scenario): Promise<number> {
  const before = scenario.queriesSent();
  const { status, body } = await fetchJson(scenario.url, { method: scenario.method, headers: scenario.headers, body: scenario.body });
  try {
    expectThat(status === 200, `status ${status}`);
    scenario.check(body);
  } catch (error) {
    throw new BenchError(`${scenario.label} ${scenario.request} is not answering as expected (${messageOf(error)}): ${JSON.stringify(body).slice(0, 300)}`);
  }
  return scenario.queriesSent() - before;
}

// ---------------------------------------------------------------------------------------------------------------
// Load

/**
 * One autocannon run. The load is fired from a worker thread: on the main thread its own request building and
 * response parsing would compete with the servers under test for the same event loop.
 */
function fire(scenario: Scenario, seconds: number, signal: AbortSignal): Promise<autocannon.Result> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      instance.stop();
      // Let the abandoned requests finish first, or shutdown would pull the database from under them.
      void settle(scenario).then(() => reject(signal.reason));
    };
    const instance = autocannon(
      {
        url: scenario.url,
        connections: CONNECTIONS,
        duration: seconds,
        method: scenario.method,
        headers: scenario.headers,
        body: scenario.body,
        workers: 1,
      },
      (error, result) => {
        signal.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(result);
      },
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the server of `scenario` has sent no SQL for QUIET_MS. When a run ends autocannon drops its
 * connections with requests still in flight, and the servers go on serving them: without this wait that work would
 * overlap the next scenario, or meet the database closing at shutdown.
 */
async function settle(scenario: Scenario): Promise<void> {
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let last = scenario.queriesSent();
  while (Date.now() < deadline) {
    await sleep(QUIET_MS);
    const now = scenario.queriesSent();
    if (now === last) return;
    last = now;
  }
}

interface ScenarioFigures {
  scenario: string;
  request: string;
  /** SQL statements one request sends (counted on the verification request). */
  sqlPerRequest: number;
  /** Mean of the per-second samples of completed requests. */
  requestsPerSecond: number;
  /** Whole milliseconds: autocannon records latency at that resolution. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** requestsPerSecond / the bare baseline's. */
  ratioToBare: number;
}

/** Warm-up, then the timed run. */
async function measure(scenario: Scenario, seconds: number, signal: AbortSignal): Promise<Omit<ScenarioFigures, 'ratioToBare' | 'sqlPerRequest'>> {
  // The warm-up lets V8 optimise the hot paths and fills the connection pools and statement caches.
  await fire(scenario, WARMUP_SECONDS, signal);
  await settle(scenario);
  const result = await fire(scenario, seconds, signal);
  await settle(scenario);
  return {
    scenario: scenario.label,
    request: scenario.request,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Parser flood: a cheap read's latency, alone and while two clients send 1 MB documents

/** The document of the fault drill: one field under 300,000 directives (about 0.9 MB). */
const FLOOD_BODY = JSON.stringify({ query: `{ __typename ${'@a '.repeat(300_000)}}` });
const FLOOD_ATTACKERS = 2;
const FLOOD_INTERVAL_MS = 1_000;
/** Concurrent callers of the read whose latency is measured (each sends its next request when the last answers). */
const FLOOD_READERS = 4;

interface FloodFigures {
  request: string;
  quiet: { requests: number; p50Ms: number; p95Ms: number };
  flooded: { requests: number; p50Ms: number; p95Ms: number };
  /** Attack requests sent and how they were answered (status: count). */
  attack: { requests: number; statuses: Record<string, number> };
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

/** Latencies (ms) of back-to-back GETs of `url` from FLOOD_READERS callers for `seconds`. */
async function readLatencies(url: string, seconds: number, signal: AbortSignal): Promise<{ requests: number; p50Ms: number; p95Ms: number }> {
  const until = Date.now() + seconds * 1000;
  const samples: number[] = [];
  const reader = async () => {
    while (Date.now() < until && !signal.aborted) {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status !== 200) throw new BenchError(`GET ${url} answered ${response.status} during the flood scenario`);
      samples.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: FLOOD_READERS }, reader));
  signal.throwIfAborted();
  samples.sort((a, b) => a - b);
  return { requests: samples.length, p50Ms: Math.round(percentile(samples, 0.5) * 10) / 10, p95Ms: Math.round(percentile(samples, 0.95) * 10) / 10 };
}

/** One anonymous attacker: a flood document every FLOOD_INTERVAL_MS until `stop`. */
async function attack(graphqlUrl: string, stop: AbortSignal, statuses: Record<string, number>): Promise<void> {
  while (!stop.aborted) {
    const started = Date.now();
    const status = await fetch(graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: FLOOD_BODY, signal: stop })
      .then(async (response) => {
        await response.arrayBuffer();
        return String(response.status);
      })
      .catch(() => (stop.aborted ? null : 'error'));
    if (status !== null) statuses[status] = (statuses[status] ?? 0) + 1;
    await sleep(Math.max(0, FLOOD_INTERVAL_MS - (Date.now() - started)));
  }
}

async function measureFlood(app: App, companyId: number, seconds: number, signal: AbortSignal): Promise<FloodFigures> {
  const url = `${app.url}/v1/companies/${companyId}`;
  await readLatencies(url, WARMUP_SECONDS, signal);
  const quiet = await readLatencies(url, seconds, signal);
  const stop = new AbortController();
  const statuses: Record<string, number> = {};
  const attackers = Array.from({ length: FLOOD_ATTACKERS }, () => attack(`${app.url}/graphql`, stop.signal, statuses));
  try {
    const flooded = await readLatencies(url, seconds, signal);
    return { request: `GET /v1/companies/${companyId}`, quiet, flooded, attack: { requests: Object.values(statuses).reduce((a, b) => a + b, 0), statuses } };
  } finally {
    stop.abort();
    await Promise.all(attackers);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface Report {
  database: { kind: BenchDatabase['kind']; description: string };
  node: string;
  cpus: number;
  cpuModel: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** The statements both the baseline and the service send for the default page. */
  listSql: string[];
  scenarios: ScenarioFigures[];
  flood: FloodFigures;
}

function formatText(report: Report): string {
  const header = [
    'Financial insights service: HTTP benchmark',
    `database     ${report.database.description}`,
    `node         ${report.node} (${process.platform}/${process.arch}), ${report.cpus} CPUs: ${report.cpuModel}`,
    `load         autocannon, ${report.connections} connections, ${report.warmupSeconds} s warm-up + ${report.durationSeconds} s per scenario`,
    `list SQL     ${report.listSql.join('\n             ')}`,
    '',
  ];
  const columns = ['scenario', 'request', 'SQL/req', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs bare'];
  const rows = report.scenarios.map((figures) => [
    figures.scenario,
    figures.request,
    String(figures.sqlPerRequest),
    figures.requestsPerSecond.toFixed(1),
    String(figures.latencyP50Ms),
    String(figures.latencyP99Ms),
    String(figures.non2xx),
    String(figures.errors),
    `${figures.ratioToBare.toFixed(2)}×`,
  ]);
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => row[i].length)));
  // Text columns left-aligned, figures right-aligned.
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const { flood } = report;
  const floodLines = [
    '',
    `parser flood: ${flood.request}, ${FLOOD_READERS} callers, alone and while ${FLOOD_ATTACKERS} anonymous clients each POST a 0.9 MB document of 300,000 directives to /graphql every ${FLOOD_INTERVAL_MS / 1000} s`,
    `  alone        ${flood.quiet.requests} requests, p50 ${flood.quiet.p50Ms} ms, p95 ${flood.quiet.p95Ms} ms`,
    `  under flood  ${flood.flooded.requests} requests, p50 ${flood.flooded.p50Ms} ms, p95 ${flood.flooded.p95Ms} ms (p95 ${(flood.quiet.p95Ms > 0 ? flood.flooded.p95Ms / flood.quiet.p95Ms : 0).toFixed(2)}× alone)`,
    `  attack       ${flood.attack.requests} documents, answered ${Object.entries(flood.attack.statuses).map(([status, count]) => `${status} ×${count}`).join(', ')}`,
  ];
  return [...header, line(columns), ...rows.map(line), ...floodLines, ''].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function benchmark(options: BenchOptions, teardown: Teardown, signal: AbortSignal): Promise<Report> {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-bench-'));
  teardown.add('remove temp dir', () => fs.rmSync(tempDir, { recursive: true, force: true }));

  const database = options.serverUrl ? await createThrowawayDatabase(options.serverUrl, teardown) : await startEmbedded(tempDir, teardown);

  // Migrates and seeds the demo data into the fresh database.
  const recorder = new SqlRecorder(createLogger('error'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: tempDir,
    DATABASE_URL: database.url,
    DB_POOL_SIZE: String(database.poolSize),
    LOG_LEVEL: 'error',
    // Throughput is measured from one address: the rate limits (which this run does not measure) must not cut in.
    RATE_LIMIT_READS: '999999999/60',
  });
  const app = await startApp(config, recorder);
  teardown.add('close service', () => app.close());

  const { statements, body: servicePage } = await recordDefaultPage(recorder, app.url);
  const baseline = await startBaseline(database, statements, teardown);

  const scenarios = defineScenarios(baseline, app, servicePage);
  // All verified before any is timed, so a broken scenario fails the bench in seconds, not minutes.
  const sqlPerRequest: number[] = [];
  for (const scenario of scenarios) sqlPerRequest.push(await verify(scenario));

  const measured = [];
  for (const [i, scenario] of scenarios.entries()) {
    measured.push({ ...(await measure(scenario, options.seconds, signal)), sqlPerRequest: sqlPerRequest[i] });
  }
  const bare = measured[0].requestsPerSecond;
  const flood = await measureFlood(app, servicePage.data[0].id, options.seconds, signal);

  return {
    database: { kind: database.kind, description: database.description },
    node: process.version,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: options.seconds,
    listSql: [statements.page, statements.count].map((s) => (s.values.length ? `${s.text} -- ${JSON.stringify(s.values)}` : s.text)),
    scenarios: measured.map((figures) => ({ ...figures, ratioToBare: bare > 0 ? figures.requestsPerSecond / bare : 0 })),
    flood,
  };
}


async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  // Ctrl-C stops the current run and still shuts everything down (a second Ctrl-C kills at once).
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort(new BenchError('interrupted')));

  const teardown = new Teardown();
  let failure: unknown = null;
  try {
    const report = await benchmark(options, teardown, interrupt.signal);
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatText(report));
  } catch (error) {
    failure = error;
  }
  const leftovers = await teardown.runAll();
  if (leftovers.length > 0) {
    const shutdown = `shutdown incomplete:\n  ${leftovers.join('\n  ')}`;
    throw new BenchError(failure ? `${messageOf(failure)}\nand ${shutdown}` : shutdown);
  }
  if (failure) throw failure;
}

/** Lets Node exit by itself once everything is closed; should a handle outlive teardown, says so and exits anyway. */
function exitWhenIdle(code: number): void {
  process.exitCode = code;
  setTimeout(() => {
    process.stderr.write(`bench: something was still open ${EXIT_GRACE_MS / 1000} s after shutdown; exiting anyway\n`);
    process.exit(code);
  }, EXIT_GRACE_MS).unref();
}

main().then(
  () => exitWhenIdle(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof BenchError ? error.message : ((error as Error)?.stack ?? String(error))}\n`);
    exitWhenIdle(1);
  },
);
