/**
 * HTTP benchmark of the service against the bare limit and a peer, in one run, printed as tables (no pass/fail).
 *
 * Three servers answer the same pages from the same tables, each in its own process:
 *   bare          node:http + `pg`, one SQL statement per request in which PostgreSQL builds the whole JSON: about
 *                 the least any server can do (its answers are checked equal to the service's before timing);
 *   PostGraphile  PostGraphile 5, Amber preset, set up by the bench on the same database: the peer;
 *   service       this service, over REST (/v1) and GraphQL (/graphql).
 * The pages: the list of 20 companies, one income statement, and the nested page (companies × their last four
 * fiscal years × income, balance sheet and cash flow) at 5, 20 and 100 companies (the demo data has 44). Rounds are
 * interleaved (every server of a page, in a rotating order, then the next page), so a busy spell on the machine
 * hits all servers alike; each figure is the median of the rounds and is also shown as a ratio to the bare limit
 * and to PostGraphile of the same page. CPU per request is the server process's own CPU time over the requests it
 * answered. Then the parser-flood drill, two service instances on one PostgreSQL server, and memory under the
 * nested load and across a soak.
 *
 *   npm run bench                 full run: 3 rounds × 10 s per server and page; the soak (5 min) on the last database
 *   npm run bench -- --quick      1 round × 3 s, no soak: for iteration (about 2 minutes a database)
 *   npm run bench -- --soak       also the soak in a quick run; --no-soak skips it in a full run
 *   npm run bench -- --json       the same figures as one JSON object on stdout
 *   npm run bench -- --scale 10000   the service on a generated data set of that many companies instead (scale-bench.ts)
 *   npm run bench -- --pages statement   only the pages whose name contains the text, without the flood, the two
 *                                 instances and the soak: for measuring one change to one page
 *   BENCH_SECONDS=5 BENCH_ROUNDS=2 BENCH_SOAK_SECONDS=60   override the lengths
 *   DATABASE_URL=postgres://...   also on that server (after the embedded database), in a database created for the
 *                                 run and dropped after it; the two-instance figure needs it
 *   npm run bench -- --baseline <dir>   also times another build of the service (a checkout at <dir>, built with
 *                                 `npm run build`, whose migrations this one's include) in the same interleaved rounds,
 *                                 and prints this build's req/s and CPU per request as ratios to it: a change's effect
 *                                 measured in one run, whatever else the machine is doing
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import {
  BenchError,
  Teardown,
  createThrowawayDatabase,
  messageOf,
  withClient,
  type BenchDatabase,
} from './bench-support';
import type { ServerKind, ServerMessage, ServerUsage } from './bench-server';
import { camelCase } from './bare-server';
import { nestedPageQuery } from './workloads';
import { runScaleBench } from './scale-bench';

const CONNECTIONS = 10;
const PERIOD = 'FY2024';
const NESTED_PAGE_SIZES = [5, 20, 100];
/** Longest wait for a server to finish the requests a run left in flight. */
const SETTLE_LIMIT_MS = 15_000;
const EXIT_GRACE_MS = 5_000;
/** RSS and retained heap are sampled this often during the soak. */
const SOAK_SAMPLE_SECONDS = 30;
const OPERATIONS_DIR = path.join(__dirname, '..', '..', 'rest-facade', 'operations');

// ---------------------------------------------------------------------------------------------------------------
// Options

interface BenchOptions {
  json: boolean;
  quick: boolean;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** 0: no soak. */
  soakSeconds: number;
  /** Server on which to create the throw-away database; null for the embedded PostgreSQL only. */
  serverUrl: string | null;
  /** The bench server script of another build of the service, timed beside this one; null for none. */
  baseline: string | null;
  /** Only the pages whose name contains this text (and none of the other scenarios); null for all. */
  pages: string | null;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = env[name]?.trim() || String(fallback);
  if (!/^\d+$/.test(raw) || Number(raw) < minimum)
    throw new BenchError(`${name} must be a whole number, at least ${minimum}; got "${env[name]}"`);
  return Number(raw);
}

/** The bench server of the build in `dir` (a checkout of this project after `npm run build`). */
function baselineScript(dir: string | undefined): string {
  if (!dir || dir.startsWith('--'))
    throw new BenchError('--baseline needs the folder of another checkout of the service, built with `npm run build`');
  const script = path.resolve(dir, 'dist', 'bench', 'bench-server.js');
  if (!fs.existsSync(script))
    throw new BenchError(
      `--baseline ${dir}: no ${path.relative(dir, script)} there; run \`npm run build\` in it first`,
    );
  return script;
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flags = ['--json', '--quick', '--soak', '--no-soak'];
  const baselineAt = argv.indexOf('--baseline');
  const baseline = baselineAt >= 0 ? baselineScript(argv[baselineAt + 1]) : null;
  const pagesAt = argv.indexOf('--pages');
  const pages = pagesAt >= 0 ? (argv[pagesAt + 1] ?? '') : null;
  if (pages === '' || pages?.startsWith('--'))
    throw new BenchError('--pages needs a part of a page name, e.g. statement');
  const valued = new Set([baselineAt, pagesAt].filter((at) => at >= 0).flatMap((at) => [at, at + 1]));
  const unknown = argv.find((arg, i) => !flags.includes(arg) && !valued.has(i));
  if (unknown !== undefined)
    throw new BenchError(
      `unknown argument "${unknown}" (flags: ${flags.join(', ')}, --baseline <dir>, --pages <part of a page name>)`,
    );
  const quick = argv.includes('--quick');
  const soak = argv.includes('--no-soak') ? false : quick ? argv.includes('--soak') : true;
  return {
    json: argv.includes('--json'),
    quick,
    rounds: wholeNumber(env, 'BENCH_ROUNDS', quick ? 1 : 3, 1),
    seconds: wholeNumber(env, 'BENCH_SECONDS', quick ? 3 : 10, 1),
    warmupSeconds: quick ? 1 : 2,
    soakSeconds: soak ? wholeNumber(env, 'BENCH_SOAK_SECONDS', 300, SOAK_SAMPLE_SECONDS) : 0,
    serverUrl: env.DATABASE_URL?.trim() || null,
    baseline,
    pages,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Servers, each in its own process

interface ServerProcess {
  kind: ServerKind;
  url: string;
  usage(): Promise<ServerUsage>;
  /** Waits until the requests a run left in flight are answered. */
  settle(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(
  kind: ServerKind,
  database: BenchDatabase,
  teardown: Teardown,
  script = path.join(__dirname, 'bench-server.js'),
): Promise<ServerProcess> {
  const child: ChildProcess = fork(script, [], {
    // NODE_ENV=production as deployed: graphql-js (used by all three) then skips its development-only checks.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_SERVER: kind,
      BENCH_DATABASE_URL: database.url,
      BENCH_POOL_SIZE: String(database.poolSize),
    },
    // --expose-gc: the retained heap is measured after a full collection.
    execArgv: ['--expose-gc'],
    // Their logs are kept, not shown (PostGraphile warns of every type it cannot map, e.g. pgvector's), and are
    // told only when a server fails to start.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let logTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    logTail = (logTail + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  teardown.add(`stop ${kind} server`, async () => {
    child.send({ type: 'stop' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: ServerMessage) => {
      if (message.type === 'ready') resolve(message.url);
      else
        reject(
          new BenchError(
            `the ${kind} server did not start: ${message.type === 'failed' ? message.message : message.type}\n${logTail}`,
          ),
        );
    });
    child.once('exit', (code) =>
      reject(new BenchError(`the ${kind} server exited during start-up with code ${code}\n${logTail}`)),
    );
  });
  const usage = () =>
    new Promise<ServerUsage>((resolve) => {
      const onMessage = (message: ServerMessage) => {
        if (message.type !== 'usage') return;
        child.off('message', onMessage);
        resolve(message.usage);
      };
      child.on('message', onMessage);
      child.send({ type: 'usage' });
    });
  const settle = async () => {
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    while ((await usage()).inFlight > 0 && Date.now() < deadline) await sleep(50);
  };
  return { kind, url, usage, settle };
}

async function startEmbedded(tempDir: string, teardown: Teardown): Promise<BenchDatabase> {
  // One connection per server process (five: service, bare, PostGraphile, a baseline build, and a spare). They share
  // PGlite's single session, which is safe only because one server is timed at a time and each is settled before the next.
  const embedded = await startEmbeddedPostgres(path.join(tempDir, 'pglite'), 5);
  teardown.add('stop embedded PostgreSQL', () => embedded.stop());
  return { kind: 'embedded', description: 'embedded PostgreSQL (PGlite)', url: embedded.url, poolSize: 1 };
}

// ---------------------------------------------------------------------------------------------------------------
// Pages

type TargetName = 'bare' | 'PostGraphile' | 'service REST' | 'service GraphQL' | 'baseline REST' | 'baseline GraphQL';

interface Target {
  name: TargetName;
  server: ServerProcess;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /**
   * Throws when a 200 answer is not the page this target is meant to time. Each check names the shape it expects of
   * its server's answer (the parsed JSON, unchecked until the check reads it).
   */
  check(body: unknown): void;
}

/** A GraphQL answer as a check reads it: the data it expects, unless the server failed. */
interface GraphQLReply<T> {
  data?: T | null;
  errors?: unknown[];
}

/** A PostGraphile connection (`allCompanies`, `incomeStatementsByCompanyId` …). */
interface Connection<T = unknown> {
  nodes: T[];
}

interface Page {
  name: string;
  targets: Target[];
}

function expectThat(condition: unknown, what: string): void {
  if (!condition) throw new BenchError(what);
}

const graphqlBody = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });
const storedOperation = (name: string) => fs.readFileSync(path.join(OPERATIONS_DIR, `${name}.graphql`), 'utf8');

async function fetchJson<T = unknown>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json' } });
  const text = await response.text();
  if (response.status !== 200)
    throw new BenchError(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BenchError(`${init?.method ?? 'GET'} ${url} answered non-JSON: ${text.slice(0, 200)}`);
  }
}

const postGraphQL = (server: ServerProcess, query: string, variables?: Record<string, unknown>) =>
  fetchJson(`${server.url}/graphql`, { method: 'POST', body: graphqlBody(query, variables) });

/**
 * The baseline build asked exactly what the service is asked, beside it in every page; its answers must pass the
 * same checks.
 */
function withBaseline(pages: Page[], baseline: ServerProcess): Page[] {
  return pages.map((page) => ({
    ...page,
    targets: page.targets.flatMap((target) =>
      target.name.startsWith('service ')
        ? [target, { ...target, name: target.name.replace('service', 'baseline') as TargetName, server: baseline }]
        : [target],
    ),
  }));
}

/** The three servers' requests for each page, with what each answer must be. */
async function definePages(servers: Record<ServerKind, ServerProcess>, databaseUrl: string): Promise<Page[]> {
  const { service, bare, postgraphile } = servers;
  const firstPage = await fetchJson<{ data: Array<{ id: number }>; meta: { total: number } }>(
    `${service.url}/v1/companies`,
  );
  const companyId: number = firstPage.data[0].id;
  const total: number = firstPage.meta.total;
  const companies = (size: number) => Math.min(size, total);
  // The income statement's columns, as the bare server answers them, so the service can be asked the same fields.
  const incomeFields = await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'income_statements' AND column_name <> 'id' ORDER BY ordinal_position`,
    );
    return rows.map((row) => camelCase(row.column_name));
  });
  const fullStatement = await postGraphQL(
    service,
    `query($id: Int!) { company(id: $id) { incomeStatement(period: "${PERIOD}") { ${incomeFields.join(' ')} } } }`,
    { id: companyId },
  );
  const sameAs = (expected: unknown, what: string) => (body: unknown) =>
    // The bare limit is only a fair yardstick if it answers exactly what the service answers.
    expectThat(isDeepStrictEqual(body, expected), `the bare answer for ${what} differs from the service's`);

  const pages: Page[] = [
    {
      name: 'list of 20 companies',
      targets: [
        { name: 'bare', server: bare, method: 'GET', path: '/list?limit=20', check: sameAs(firstPage, 'the list') },
        {
          name: 'PostGraphile',
          server: postgraphile,
          method: 'POST',
          path: '/graphql',
          body: graphqlBody(
            '{ allCompanies(first: 20, orderBy: [NAME_ASC, ROW_ID_ASC]) { totalCount nodes { rowId name ticker sector } } }',
          ),
          check: (body: GraphQLReply<{ allCompanies: Connection }>) =>
            expectThat(body.data?.allCompanies?.nodes?.length === companies(20), 'expected 20 companies'),
        },
        {
          name: 'service REST',
          server: service,
          method: 'GET',
          path: '/v1/companies',
          check: (body: { data?: unknown[] }) =>
            expectThat(body.data?.length === companies(20), 'expected 20 companies'),
        },
        {
          name: 'service GraphQL',
          server: service,
          method: 'POST',
          path: '/graphql',
          // The very operation the REST route runs, so the two differ only by the transport.
          body: graphqlBody(storedOperation('ListCompanies'), { limit: 20, offset: 0 }),
          check: (body: GraphQLReply<{ companies: { items: unknown[] } }>) =>
            expectThat(body.data?.companies?.items?.length === companies(20), 'expected 20 companies'),
        },
      ],
    },
    {
      name: `one income statement (${PERIOD})`,
      targets: [
        {
          name: 'bare',
          server: bare,
          method: 'GET',
          path: `/statement?id=${companyId}&period=${PERIOD}`,
          check: sameAs(fullStatement, 'the statement'),
        },
        {
          name: 'PostGraphile',
          server: postgraphile,
          method: 'POST',
          path: '/graphql',
          body: graphqlBody(
            `{ allIncomeStatements(condition: { companyId: ${companyId}, period: "${PERIOD}" }) { nodes { ${incomeFields.join(' ')} } } }`,
          ),
          check: (body: GraphQLReply<{ allIncomeStatements: Connection }>) =>
            expectThat(body.data?.allIncomeStatements?.nodes?.length === 1, 'expected one statement'),
        },
        {
          name: 'service REST',
          server: service,
          method: 'GET',
          path: `/v1/companies/${companyId}/income-statement?period=${PERIOD}`,
          check: (body: { data?: { period: string } }) =>
            expectThat(body.data?.period === PERIOD, `expected the ${PERIOD} income statement`),
        },
        {
          name: 'service GraphQL',
          server: service,
          method: 'POST',
          path: '/graphql',
          body: graphqlBody(storedOperation('GetIncomeStatement'), { id: companyId, period: PERIOD }),
          check: (body: GraphQLReply<{ company: { incomeStatement: { period: string } | null } | null }>) =>
            expectThat(
              body.data?.company?.incomeStatement?.period === PERIOD,
              `expected the ${PERIOD} income statement`,
            ),
        },
      ],
    },
  ];
  for (const size of NESTED_PAGE_SIZES) {
    const serviceAnswer = await postGraphQL(service, nestedPageQuery(size));
    const statementsOf = (period: string) =>
      `(condition: { fiscalQuarter: null }, orderBy: PERIOD_END_DESC, first: 4) { nodes { period ${period} } }`;
    pages.push({
      name: `nested page of ${size}`,
      targets: [
        {
          name: 'bare',
          server: bare,
          method: 'GET',
          path: `/nested?limit=${size}`,
          check: sameAs(serviceAnswer, `the nested page of ${size}`),
        },
        {
          name: 'PostGraphile',
          server: postgraphile,
          method: 'POST',
          path: '/graphql',
          body: graphqlBody(`{ allCompanies(first: ${size}, orderBy: [NAME_ASC, ROW_ID_ASC]) { nodes { rowId ticker
            incomeStatementsByCompanyId${statementsOf('revenue grossProfit operatingIncome netIncome epsDiluted')}
            balanceSheetsByCompanyId${statementsOf('totalAssets totalLiabilities totalEquity cashAndEquivalents')}
            cashFlowStatementsByCompanyId${statementsOf('operatingCashFlow capitalExpenditure freeCashFlow')} } } }`),
          check: (body: GraphQLReply<{ allCompanies: Connection<{ incomeStatementsByCompanyId: Connection }> }>) => {
            expectThat(body.errors === undefined, `GraphQL errors: ${JSON.stringify(body.errors)}`);
            expectThat(
              body.data?.allCompanies?.nodes?.length === companies(size),
              `expected ${companies(size)} companies`,
            );
            expectThat(
              body.data!.allCompanies.nodes[0].incomeStatementsByCompanyId.nodes.length === 4,
              'expected four fiscal years',
            );
          },
        },
        {
          name: 'service GraphQL',
          server: service,
          method: 'POST',
          path: '/graphql',
          body: graphqlBody(nestedPageQuery(size)),
          check: (body: GraphQLReply<{ companies: { items: Array<{ statements: unknown[] }> } }>) => {
            expectThat(body.errors === undefined, `GraphQL errors: ${JSON.stringify(body.errors)}`);
            expectThat(
              body.data?.companies?.items?.length === companies(size),
              `expected ${companies(size)} companies`,
            );
            expectThat(body.data!.companies.items[0].statements.length === 4, 'expected four fiscal years');
          },
        },
      ],
    });
  }
  return pages;
}

async function verifyTarget(target: Target): Promise<void> {
  const body = await fetchJson(`${target.server.url}${target.path}`, { method: target.method, body: target.body });
  try {
    target.check(body);
  } catch (error) {
    throw new BenchError(
      `${target.name} ${target.method} ${target.path}: ${messageOf(error)}: ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
}

/** One request of every target before any timing, since a target that answers an error would only time errors. */
async function verify(pages: Page[]): Promise<void> {
  for (const target of pages.flatMap((page) => page.targets)) await verifyTarget(target);
}

// ---------------------------------------------------------------------------------------------------------------
// Load

/** One autocannon run, fired from a worker thread so its request building competes with no server's event loop. */
function fire(
  url: string,
  target: Pick<Target, 'method' | 'body'>,
  seconds: number,
  connections: number,
  signal: AbortSignal,
): Promise<autocannon.Result> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => instance.stop();
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        method: target.method,
        body: target.body,
        headers: { 'content-type': 'application/json' },
        workers: 1,
      },
      (error, result) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(signal.reason);
        else if (error) reject(error);
        else resolve(result);
      },
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

interface RunFigures {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Server CPU time per answered request. */
  cpuMsPerRequest: number;
  /** The server's resident memory at the end of the run, while still under load. */
  rssMb: number;
  non2xx: number;
  errors: number;
}

/** Warm-up, then the timed run, with the server's CPU time over the requests it answered. */
async function measure(target: Target, options: BenchOptions, signal: AbortSignal): Promise<RunFigures> {
  const url = `${target.server.url}${target.path}`;
  await fire(url, target, options.warmupSeconds, CONNECTIONS, signal);
  await target.server.settle();
  const before = await target.server.usage();
  const result = await fire(url, target, options.seconds, CONNECTIONS, signal);
  const loaded = await target.server.usage();
  await target.server.settle();
  const after = await target.server.usage();
  // Still the right answer after the load (a GraphQL server answers its failures with 200 and `errors`).
  await verifyTarget(target);
  const answered = after.answered - before.answered;
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    cpuMsPerRequest: answered > 0 ? (after.cpuMicros - before.cpuMicros) / 1000 / answered : 0,
    rssMb: loaded.rssBytes / 2 ** 20,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

interface TargetFigures extends RunFigures {
  page: string;
  target: TargetName;
  request: string;
  /** Requests/s of each round, in order. */
  rounds: number[];
  ratioToBare: number;
  ratioToPostGraphile: number;
  /** For the service's targets when a baseline build was timed: req/s and CPU per request as ratios to its. */
  toBaseline: { requestsPerSecond: number; cpuMsPerRequest: number } | null;
}

/** Every page on every server, round after round; within a round the servers take turns in a rotating order. */
async function measurePages(pages: Page[], options: BenchOptions, signal: AbortSignal): Promise<TargetFigures[]> {
  const runs = new Map<Target, RunFigures[]>();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const page of pages) {
      const order = page.targets.map((_, i) => page.targets[(i + round) % page.targets.length]);
      for (const target of order) {
        const figures = await measure(target, options, signal);
        runs.set(target, [...(runs.get(target) ?? []), figures]);
        if (!options.json)
          process.stderr.write(
            `  round ${round + 1}/${options.rounds}  ${page.name.padEnd(30)} ${target.name.padEnd(16)} ${figures.requestsPerSecond.toFixed(1)} req/s\n`,
          );
      }
    }
  }
  return pages.flatMap((page) => {
    const figuresOf = (target: Target) => {
      const all = runs.get(target) as RunFigures[];
      const pick = (key: keyof RunFigures) => median(all.map((figures) => figures[key]));
      return {
        requestsPerSecond: pick('requestsPerSecond'),
        latencyP50Ms: pick('latencyP50Ms'),
        latencyP99Ms: pick('latencyP99Ms'),
        cpuMsPerRequest: pick('cpuMsPerRequest'),
        rssMb: Math.max(...all.map((figures) => figures.rssMb)),
        non2xx: all.reduce((sum, figures) => sum + figures.non2xx, 0),
        errors: all.reduce((sum, figures) => sum + figures.errors, 0),
        rounds: all.map((figures) => figures.requestsPerSecond),
      };
    };
    const bare = figuresOf(page.targets.find((target) => target.name === 'bare') as Target).requestsPerSecond;
    const peer = figuresOf(page.targets.find((target) => target.name === 'PostGraphile') as Target).requestsPerSecond;
    return page.targets.map((target) => {
      const figures = figuresOf(target);
      const baselineTarget = target.name.startsWith('service ')
        ? page.targets.find((other) => other.name === target.name.replace('service', 'baseline'))
        : undefined;
      const baseline = baselineTarget ? figuresOf(baselineTarget) : null;
      return {
        page: page.name,
        target: target.name,
        request: `${target.method} ${target.path.split('?')[0]}`,
        ...figures,
        ratioToBare: bare > 0 ? figures.requestsPerSecond / bare : 0,
        ratioToPostGraphile: peer > 0 ? figures.requestsPerSecond / peer : 0,
        toBaseline: baseline
          ? {
              requestsPerSecond: figures.requestsPerSecond / baseline.requestsPerSecond,
              cpuMsPerRequest: figures.cpuMsPerRequest / baseline.cpuMsPerRequest,
            }
          : null,
      };
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Beyond one process, and memory over time

interface TwoInstanceFigures {
  page: string;
  oneInstance: number;
  twoInstances: number;
}

/** The nested page of 20 on one service instance, then on two on the same database, the load split between them. */
async function measureTwoInstances(
  first: ServerProcess,
  second: ServerProcess,
  options: BenchOptions,
  signal: AbortSignal,
): Promise<TwoInstanceFigures> {
  const target = { method: 'POST' as const, body: graphqlBody(nestedPageQuery(20)) };
  for (const server of [first, second]) {
    await fire(`${server.url}/graphql`, target, options.warmupSeconds, CONNECTIONS, signal);
    await server.settle();
  }
  const one = await fire(`${first.url}/graphql`, target, options.seconds, CONNECTIONS, signal);
  await first.settle();
  const both = await Promise.all(
    [first, second].map((server) => fire(`${server.url}/graphql`, target, options.seconds, CONNECTIONS / 2, signal)),
  );
  await Promise.all([first.settle(), second.settle()]);
  return {
    page: 'nested page of 20',
    oneInstance: one.requests.average,
    twoInstances: both.reduce((sum, result) => sum + result.requests.average, 0),
  };
}

interface SoakSample {
  minute: number;
  requestsPerSecond: number;
  rssMb: number;
  heapAfterGcMb: number;
}

/** The nested page of 20 without pause; after each slice the service's RSS and its heap after a full collection. */
async function soak(service: ServerProcess, options: BenchOptions, signal: AbortSignal): Promise<SoakSample[]> {
  const target = { method: 'POST' as const, body: graphqlBody(nestedPageQuery(20)) };
  const samples: SoakSample[] = [];
  for (let elapsed = 0; elapsed < options.soakSeconds; elapsed += SOAK_SAMPLE_SECONDS) {
    const result = await fire(`${service.url}/graphql`, target, SOAK_SAMPLE_SECONDS, CONNECTIONS, signal);
    await service.settle();
    const usage = await service.usage();
    samples.push({
      minute: (elapsed + SOAK_SAMPLE_SECONDS) / 60,
      requestsPerSecond: result.requests.average,
      rssMb: usage.rssBytes / 2 ** 20,
      heapAfterGcMb: usage.heapAfterGcBytes / 2 ** 20,
    });
    if (!options.json)
      process.stderr.write(
        `  soak ${samples.at(-1)?.minute.toFixed(1)} min: ${result.requests.average.toFixed(1)} req/s, RSS ${(usage.rssBytes / 2 ** 20).toFixed(0)} MB\n`,
      );
  }
  return samples;
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
async function readLatencies(
  url: string,
  seconds: number,
  signal: AbortSignal,
): Promise<{ requests: number; p50Ms: number; p95Ms: number }> {
  const until = Date.now() + seconds * 1000;
  const samples: number[] = [];
  const reader = async () => {
    while (Date.now() < until && !signal.aborted) {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new BenchError(`GET ${url} answered ${response.status} during the flood scenario`);
      samples.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: FLOOD_READERS }, reader));
  signal.throwIfAborted();
  samples.sort((a, b) => a - b);
  return {
    requests: samples.length,
    p50Ms: Math.round(percentile(samples, 0.5) * 10) / 10,
    p95Ms: Math.round(percentile(samples, 0.95) * 10) / 10,
  };
}

/** One anonymous attacker: a flood document every FLOOD_INTERVAL_MS until `stop`. */
async function attack(graphqlUrl: string, stop: AbortSignal, statuses: Record<string, number>): Promise<void> {
  while (!stop.aborted) {
    const started = Date.now();
    const status = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: FLOOD_BODY,
      signal: stop,
    })
      .then(async (response) => {
        await response.arrayBuffer();
        return String(response.status);
      })
      .catch(() => (stop.aborted ? null : 'error'));
    if (status !== null) statuses[status] = (statuses[status] ?? 0) + 1;
    await sleep(Math.max(0, FLOOD_INTERVAL_MS - (Date.now() - started)));
  }
}

async function measureFlood(
  serviceUrl: string,
  companyId: number,
  options: BenchOptions,
  signal: AbortSignal,
): Promise<FloodFigures> {
  const url = `${serviceUrl}/v1/companies/${companyId}`;
  await readLatencies(url, options.warmupSeconds, signal);
  const quiet = await readLatencies(url, options.seconds, signal);
  const stop = new AbortController();
  const statuses: Record<string, number> = {};
  const attackers = Array.from({ length: FLOOD_ATTACKERS }, () =>
    attack(`${serviceUrl}/graphql`, stop.signal, statuses),
  );
  try {
    const flooded = await readLatencies(url, options.seconds, signal);
    return {
      request: `GET /v1/companies/${companyId}`,
      quiet,
      flooded,
      attack: { requests: Object.values(statuses).reduce((a, b) => a + b, 0), statuses },
    };
  } finally {
    stop.abort();
    await Promise.all(attackers);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface DatabaseReport {
  database: { kind: BenchDatabase['kind']; description: string };
  figures: TargetFigures[];
  /** The service's targets, as ratios measured in this run. */
  targets: Array<{ goal: string; ratio: number; met: boolean }>;
  /** null when only some pages were measured. */
  flood: FloodFigures | null;
  /** Only on a PostgreSQL server: two instances on PGlite would share its one session. */
  twoInstances: TwoInstanceFigures | null;
  soak: SoakSample[];
}

interface Report {
  node: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average when the run started and ended: other work on the machine skews every figure. */
  loadAverage: { start: number; end: number };
  connections: number;
  rounds: number;
  warmupSeconds: number;
  durationSeconds: number;
  databases: DatabaseReport[];
  wallSeconds: number;
}

/**
 * The service's targets, as ratios of this run: the one-statement read at least 1.2× PostGraphile and 0.35× bare on a
 * PostgreSQL server, every other page at least PostGraphile's pace, the nested page of 100 no worse a tail than 1.5×
 * PostGraphile's p99, and the REST facade at most a fifth dearer than the same operation on /graphql.
 */
function goals(figures: TargetFigures[], kind: BenchDatabase['kind']): DatabaseReport['targets'] {
  const find = (page: string, target: TargetName) => figures.find((f) => f.page === page && f.target === target);
  const statement = `one income statement (${PERIOD})`;
  const list = 'list of 20 companies';
  const rows: Array<{ goal: string; ratio: number; at: number; atMost?: boolean }> = [];
  for (const figure of figures.filter((f) => f.target === 'service REST' || f.target === 'service GraphQL')) {
    const onServer = figure.page === statement && kind === 'postgresql';
    rows.push({
      goal: `${figure.page}, ${figure.target.replace('service ', '')} ≥ ${onServer ? '1.2' : '1.0'}× PostGraphile`,
      ratio: figure.ratioToPostGraphile,
      at: onServer ? 1.2 : 1,
    });
    if (onServer)
      rows.push({
        goal: `${figure.page}, ${figure.target.replace('service ', '')} ≥ 0.35× bare`,
        ratio: figure.ratioToBare,
        at: 0.35,
      });
  }
  const nested = find('nested page of 100', 'service GraphQL');
  const peer = find('nested page of 100', 'PostGraphile');
  if (nested && peer)
    rows.push({
      goal: "nested page of 100, p99 ≤ 1.5× PostGraphile's p99",
      ratio: nested.latencyP99Ms / Math.max(peer.latencyP99Ms, 1),
      at: 1.5,
      atMost: true,
    });
  const restList = find(list, 'service REST');
  const graphqlList = find(list, 'service GraphQL');
  if (restList && graphqlList)
    rows.push(
      { goal: 'REST list ≥ 0.5× bare', ratio: restList.ratioToBare, at: 0.5 },
      // Cost as CPU per request: the facade may add at most a fifth to the same operation sent to /graphql.
      {
        goal: 'REST list CPU ≤ 1.2× GraphQL list CPU',
        ratio: restList.cpuMsPerRequest / graphqlList.cpuMsPerRequest,
        at: 1.2,
        atMost: true,
      },
    );
  return rows.map(({ goal, ratio, at, atMost }) => ({ goal, ratio, met: atMost ? ratio <= at : ratio >= at }));
}

function table(columns: string[], rows: string[][], textColumns: number): string[] {
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < textColumns ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(columns), ...rows.map(line)];
}

function formatDatabase(report: DatabaseReport): string[] {
  const rows = report.figures.map((f) => [
    f.page,
    f.target,
    f.request,
    f.requestsPerSecond.toFixed(1),
    f.rounds.length > 1 ? `${Math.min(...f.rounds).toFixed(0)}–${Math.max(...f.rounds).toFixed(0)}` : '',
    String(f.latencyP50Ms),
    String(f.latencyP99Ms),
    f.cpuMsPerRequest.toFixed(2),
    `${f.ratioToBare.toFixed(2)}×`,
    `${f.ratioToPostGraphile.toFixed(2)}×`,
    f.rssMb.toFixed(0),
    String(f.non2xx + f.errors),
  ]);
  const { flood, twoInstances, soak: samples } = report;
  const againstBaseline = report.figures.filter((f) => f.toBaseline !== null);
  const baselineLines =
    againstBaseline.length === 0
      ? []
      : [
          '',
          'this build against the baseline build, same rounds (req/s and CPU per request as ratios; below 1.00× CPU is less):',
          ...table(
            ['page', 'server', 'req/s', 'vs baseline', 'CPU ms/req', 'CPU vs baseline'],
            againstBaseline.map((f) => [
              f.page,
              f.target,
              f.requestsPerSecond.toFixed(1),
              `${f.toBaseline?.requestsPerSecond.toFixed(2)}×`,
              f.cpuMsPerRequest.toFixed(2),
              `${f.toBaseline?.cpuMsPerRequest.toFixed(2)}×`,
            ]),
            2,
          ),
        ];
  const lines = [
    `== ${report.database.description}`,
    ...table(
      [
        'page',
        'server',
        'request',
        'req/s',
        'rounds',
        'p50 ms',
        'p99 ms',
        'CPU ms/req',
        'vs bare',
        'vs PostGraphile',
        'RSS MB',
        'failed',
      ],
      rows,
      3,
    ),
    '',
    'targets, as ratios of this run:',
    ...report.targets.map((t) => `  ${t.met ? 'met    ' : 'not met'}  ${t.goal}: ${t.ratio.toFixed(2)}×`),
    ...baselineLines,
  ];
  if (flood)
    lines.push(
      '',
      `parser flood: ${flood.request}, ${FLOOD_READERS} callers, alone and while ${FLOOD_ATTACKERS} anonymous clients each POST a 0.9 MB document of 300,000 directives to /graphql every ${FLOOD_INTERVAL_MS / 1000} s`,
      `  alone        ${flood.quiet.requests} requests, p50 ${flood.quiet.p50Ms} ms, p95 ${flood.quiet.p95Ms} ms`,
      `  under flood  ${flood.flooded.requests} requests, p50 ${flood.flooded.p50Ms} ms, p95 ${flood.flooded.p95Ms} ms (p95 ${(flood.quiet.p95Ms > 0 ? flood.flooded.p95Ms / flood.quiet.p95Ms : 0).toFixed(2)}× alone)`,
      `  attack       ${flood.attack.requests} documents, answered ${Object.entries(flood.attack.statuses)
        .map(([status, count]) => `${status} ×${count}`)
        .join(', ')}`,
    );
  if (twoInstances) {
    lines.push(
      '',
      `two service instances on this database (${twoInstances.page}, ${CONNECTIONS} connections split between them): ` +
        `${twoInstances.oneInstance.toFixed(1)} req/s on one, ${twoInstances.twoInstances.toFixed(1)} req/s on two (${(twoInstances.twoInstances / twoInstances.oneInstance).toFixed(2)}×)`,
    );
  }
  if (samples.length > 0) {
    const first = samples[0];
    const last = samples[samples.length - 1];
    lines.push(
      '',
      `soak: nested page of 20 for ${last.minute} min, RSS and heap after a full GC every ${SOAK_SAMPLE_SECONDS} s`,
      ...samples.map(
        (s) =>
          `  ${s.minute.toFixed(1).padStart(4)} min  ${s.requestsPerSecond.toFixed(1).padStart(7)} req/s  RSS ${s.rssMb.toFixed(0).padStart(4)} MB  heap ${s.heapAfterGcMb.toFixed(1).padStart(6)} MB`,
      ),
      `  growth from the first sample to the last: RSS ${(last.rssMb - first.rssMb).toFixed(1)} MB, heap ${(last.heapAfterGcMb - first.heapAfterGcMb).toFixed(1)} MB`,
    );
  }
  return [...lines, ''];
}

function formatText(report: Report): string {
  return [
    'Financial insights service: HTTP benchmark against the bare limit and PostGraphile 5',
    `node         ${report.node} (${process.platform}/${process.arch}), ${report.cpus} CPUs: ${report.cpuModel}`,
    `load         autocannon, ${report.connections} connections, ${report.rounds} interleaved round(s) of ${report.warmupSeconds} s warm-up + ${report.durationSeconds} s per server and page; figures are medians of the rounds`,
    `machine      1-minute load average ${report.loadAverage.start.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end; run took ${(report.wallSeconds / 60).toFixed(1)} min`,
    '',
    ...report.databases.flatMap(formatDatabase),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function benchmarkDatabase(
  database: BenchDatabase,
  options: BenchOptions,
  withSoak: boolean,
  teardown: Teardown,
  signal: AbortSignal,
): Promise<DatabaseReport> {
  // The service first: it migrates and seeds the demo data the other two then read.
  const service = await startServer('service', database, teardown);
  const [bare, postgraphile] = await Promise.all([
    startServer('bare', database, teardown),
    startServer('postgraphile', database, teardown),
  ]);
  const ownPages = (await definePages({ service, bare, postgraphile }, database.url)).filter(
    (page) => options.pages === null || page.name.includes(options.pages),
  );
  if (ownPages.length === 0) throw new BenchError(`no page name contains "${options.pages}"`);
  const pages = options.baseline
    ? withBaseline(ownPages, await startServer('service', database, teardown, options.baseline))
    : ownPages;
  // All verified before any is timed, so a broken page fails the bench in seconds, not minutes.
  await verify(pages);
  const figures = await measurePages(pages, options, signal);
  if (options.pages !== null)
    return {
      database: databaseOf(database),
      figures,
      targets: goals(figures, database.kind),
      flood: null,
      twoInstances: null,
      soak: [],
    };
  const firstCompany = (await fetchJson<{ data: Array<{ id: number }> }>(`${service.url}/v1/companies?limit=1`)).data[0]
    .id;
  const flood = await measureFlood(service.url, firstCompany, options, signal);
  let twoInstances: TwoInstanceFigures | null = null;
  if (database.kind === 'postgresql') {
    twoInstances = await measureTwoInstances(
      service,
      await startServer('service', database, teardown),
      options,
      signal,
    );
  }
  const samples = withSoak ? await soak(service, options, signal) : [];
  return {
    database: databaseOf(database),
    figures,
    targets: goals(figures, database.kind),
    flood,
    twoInstances,
    soak: samples,
  };
}

const databaseOf = ({ kind, description }: BenchDatabase) => ({ kind, description });

async function benchmark(options: BenchOptions, signal: AbortSignal): Promise<Report> {
  const started = Date.now();
  const loadAtStart = os.loadavg()[0];
  const databases: DatabaseReport[] = [];
  const kinds: Array<'embedded' | 'postgresql'> = options.serverUrl ? ['embedded', 'postgresql'] : ['embedded'];
  for (const kind of kinds) {
    // A teardown per database: its servers and data are gone before the next database is measured.
    const teardown = new Teardown();
    let failure: unknown = null;
    try {
      const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-bench-'));
      teardown.add('remove temp dir', () => fs.rmSync(tempDir, { recursive: true, force: true }));
      const database =
        kind === 'postgresql'
          ? await createThrowawayDatabase(options.serverUrl as string, teardown)
          : await startEmbedded(tempDir, teardown);
      if (!options.json) process.stderr.write(`${database.description}\n`);
      const last = kind === kinds[kinds.length - 1];
      databases.push(await benchmarkDatabase(database, options, last && options.soakSeconds > 0, teardown, signal));
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
  return {
    node: process.version,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverage: { start: loadAtStart, end: os.loadavg()[0] },
    connections: CONNECTIONS,
    rounds: options.rounds,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.seconds,
    databases,
    wallSeconds: (Date.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
  if (process.argv.includes('--scale')) return runScaleBench(process.argv.slice(2));
  const options = readOptions(process.argv.slice(2), process.env);
  // Ctrl-C stops the current run and still shuts everything down (a second Ctrl-C kills at once).
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort(new BenchError('interrupted')));
  const report = await benchmark(options, interrupt.signal);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatText(report));
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
    process.stderr.write(
      `bench failed: ${error instanceof BenchError ? error.message : ((error as Error)?.stack ?? String(error))}\n`,
    );
    exitWhenIdle(1);
  },
);
