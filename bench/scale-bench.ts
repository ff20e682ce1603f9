/**
 * The service at the scale of the whole market: a generated data set of N companies (see scale-data.ts) bulk-imported
 * into a fresh database, then the reads that grow with the number of companies timed on it, against the same reads
 * on the demo data in the same run. Printed as tables with the targets, met or not (no pass/fail).
 *
 *   npm run bench -- --scale 10000 [--data ../shared/data] [--rounds 100]
 *   DATABASE_URL=postgres://...   also on that server (a database created for the run and dropped after it);
 *                                 `--only postgresql` (or `--only embedded`) measures one database
 *
 * For each database: the bulk import (companies/s, the importer's peak RSS and, on the embedded database, the
 * database process's), a second import of the same archives (everything unchanged, so skipped), then p50/p95 of the
 * screener's three typical screens, the company list, `?q=` name lookups, the nested page of 20 and the time to an
 * analyst answer's first token, one request after the other; and req/s of the list and of the nested page under load
 * (autocannon, 10 connections) beside the same on the demo data. The data set is generated once into the system's
 * temporary folder and reused by later runs of the same size.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startApp, type App } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { createLogger } from '../src/shared/logger';
import {
  BenchError,
  Teardown,
  createThrowawayDatabase,
  offlineServiceConfig,
  percentile,
  residentMb,
} from './bench-support';
import { generateScaleData, type ScaleDataSet } from './scale-data';
import { SCREENS, nestedPageQuery } from './workloads';

interface ScaleOptions {
  count: number;
  dataFolder: string;
  rounds: number;
  serverUrl: string | null;
  databases: Array<'embedded' | 'postgresql'>;
}

interface Latency {
  p50: number;
  p95: number;
}

interface DatabaseFigures {
  database: string;
  importSeconds: number;
  imported: number;
  refused: number;
  importerPeakRssMb: number;
  databasePeakRssMb: number | null;
  rerunSeconds: number;
  rerunSkipped: number;
  latencies: Array<{ what: string; latency: Latency; targetMs?: number }>;
  throughput: Array<{ what: string; scale: number; demo: number }>;
}

function readScaleOptions(argv: string[], env: NodeJS.ProcessEnv): ScaleOptions {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const known = new Set(['--scale', '--data', '--rounds', '--only']);
  const unknown = argv.find((arg, i) => arg.startsWith('--') && !known.has(arg) && !known.has(argv[i - 1]));
  if (unknown)
    throw new BenchError(
      `unknown argument "${unknown}" (--scale N, --data <folder>, --rounds N, --only embedded|postgresql)`,
    );
  const count = Number(value('--scale'));
  const rounds = Number(value('--rounds') ?? '100');
  if (!Number.isInteger(count) || count < 1) throw new BenchError('--scale needs a number of companies, e.g. 10000');
  if (!Number.isInteger(rounds) || rounds < 1) throw new BenchError('--rounds must be a positive whole number');
  const dataFolder = value('--data') ?? path.join('..', 'shared', 'data');
  if (!fs.existsSync(path.join(dataFolder, 'sec_xbrl', 'companyfacts')))
    throw new BenchError(`no SEC company facts under ${dataFolder}/sec_xbrl: name the data folder with --data`);
  const serverUrl = env.DATABASE_URL?.trim() || null;
  const only = value('--only');
  if (only !== undefined && only !== 'embedded' && only !== 'postgresql')
    throw new BenchError('--only takes embedded or postgresql');
  if (only === 'postgresql' && !serverUrl) throw new BenchError('--only postgresql needs DATABASE_URL');
  const databases: ScaleOptions['databases'] = only ? [only] : serverUrl ? ['embedded', 'postgresql'] : ['embedded'];
  return { count, dataFolder, rounds, serverUrl, databases };
}

// ---------------------------------------------------------------------------------------------------------------
// Import

const childrenOf = (pid: number): number[] => {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

interface ImportRun {
  seconds: number;
  imported: number;
  skipped: number;
  refused: number;
  importerPeakRssMb: number;
  childPeakRssMb: number;
}

/** Runs `npm run import:sec -- --bulk …` as its own process, sampling its RSS (and its children's) meanwhile. */
async function runImport(set: ScaleDataSet, env: NodeJS.ProcessEnv): Promise<ImportRun> {
  const script = path.join(__dirname, '..', 'src', 'cli', 'import-sec.js');
  const args = ['--bulk', set.facts, '--submissions', set.submissions, '--tickers', set.tickers];
  const started = performance.now();
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  let importerPeak = 0;
  let childPeak = 0;
  const sampler = setInterval(() => {
    importerPeak = Math.max(importerPeak, residentMb(child.pid) ?? 0);
    for (const pid of childrenOf(child.pid as number)) childPeak = Math.max(childPeak, residentMb(pid) ?? 0);
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const done = /Done in [^:]+: (\d+) files, (\d+) imported, (\d+) skipped [^,]*, (\d+) not imported/.exec(output);
  if (code !== 0 || !done) throw new BenchError(`the import exited with ${code}: ${output.slice(-1_000)}`);
  return {
    seconds: (performance.now() - started) / 1000,
    imported: Number(done[2]),
    skipped: Number(done[3]),
    refused: Number(done[4]),
    importerPeakRssMb: importerPeak,
    childPeakRssMb: childPeak,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

async function latencyOf(rounds: number, request: (round: number) => Promise<void>): Promise<Latency> {
  await request(0);
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    await request(round);
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function read(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, init);
  const body = (await response.json()) as { errors?: unknown; success?: boolean };
  if (response.status !== 200 || body.errors) throw new BenchError(`${url} answered ${response.status}`);
  return body;
}

const graphql = (query: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});

/** req/s of one request under load from a worker thread (10 connections, 5 s after 1 s of warm-up). */
async function requestsPerSecond(url: string, init: { method?: string; body?: string } = {}): Promise<number> {
  const run = (duration: number) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        {
          url,
          connections: 10,
          duration,
          method: (init.method ?? 'GET') as 'GET' | 'POST',
          body: init.body,
          headers: { 'content-type': 'application/json' },
          workers: 1,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  await run(1);
  const result = await run(5);
  if (result.non2xx > 0 || result.errors > 0) throw new BenchError(`${url}: ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

/** Time to the first streamed token of the analyst's answer to one statement question. */
async function firstToken(app: App, key: string, question: string): Promise<void> {
  const response = await fetch(`${app.url}/v1/ai/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': key },
    body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
  });
  if (!response.body || response.status !== 200) throw new BenchError(`chat answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('event: token')) {
    const { value, done } = await reader.read();
    if (done) throw new BenchError(`the answer to "${question}" streamed no token: ${text.slice(-300)}`);
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
}

/** The names the `?q=` lookups ask for: tickers, whole names and first words of names of the data set, in turn. */
function lookups(set: ScaleDataSet, count: number): string[] {
  const entries = Object.values(
    JSON.parse(fs.readFileSync(set.tickers, 'utf8')) as Record<string, { ticker: string; title: string }>,
  );
  return Array.from({ length: count }, (_, i) => {
    const entry = entries[(i * 7919) % entries.length];
    return [entry.ticker, entry.title, entry.title.split(' ')[0]][i % 3];
  });
}

async function measureReads(
  app: App,
  demo: App,
  set: ScaleDataSet,
  rounds: number,
): Promise<Pick<DatabaseFigures, 'latencies' | 'throughput'>> {
  const latencies: DatabaseFigures['latencies'] = [];
  for (const screen of SCREENS)
    latencies.push({
      what: `screener: ${screen.label}`,
      latency: await latencyOf(rounds, () => read(`${app.url}/v1/screener?${screen.query}`).then(() => undefined)),
      targetMs: 100,
    });
  latencies.push({
    what: 'list of 20 companies',
    latency: await latencyOf(rounds, () => read(`${app.url}/v1/companies`).then(() => undefined)),
  });
  const names = lookups(set, rounds + 1);
  latencies.push({
    what: '?q= lookup (tickers, names, first words)',
    latency: await latencyOf(rounds, (round) =>
      read(`${app.url}/v1/companies?q=${encodeURIComponent(names[round])}`).then(() => undefined),
    ),
    targetMs: 20,
  });
  latencies.push({
    what: 'nested page of 20',
    latency: await latencyOf(rounds, () =>
      read(`${app.url}/graphql`, graphql(nestedPageQuery(20))).then(() => undefined),
    ),
  });
  const key = (await createApiKey(app.database.dataSource, 'bench:scale', 'analyst')).key;
  const first = ((await read(`${app.url}/v1/companies?limit=1`)) as { data: Array<{ id: number; ticker: string }> })
    .data[0];
  const { period } = (
    (await read(`${app.url}/v1/companies/${first.id}/income-statement?period=latest-fy`)) as {
      data: { period: string };
    }
  ).data;
  const question = `What was ${first.ticker}'s revenue in ${period}?`;
  latencies.push({
    what: `analyst's first token ("${question}")`,
    latency: await latencyOf(Math.min(rounds, 20), () => firstToken(app, key, question)),
  });
  const throughput: DatabaseFigures['throughput'] = [];
  for (const [what, pathname, init] of [
    ['list of 20 companies, req/s', '/v1/companies', {}],
    ['nested page of 20, req/s', '/graphql', graphql(nestedPageQuery(20))],
  ] as const) {
    throughput.push({
      what,
      scale: await requestsPerSecond(`${app.url}${pathname}`, init),
      demo: await requestsPerSecond(`${demo.url}${pathname}`, init),
    });
  }
  return { latencies, throughput };
}

// ---------------------------------------------------------------------------------------------------------------
// Run

async function benchmarkDatabase(
  kind: 'embedded' | 'postgresql',
  set: ScaleDataSet,
  options: ScaleOptions,
  teardown: Teardown,
): Promise<DatabaseFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-scale-db-'));
  teardown.add('remove the data folder', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const database = kind === 'postgresql' ? await createThrowawayDatabase(options.serverUrl as string, teardown) : null;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
  };
  process.stderr.write(`${kind}: importing ${set.count} companies…\n`);
  const first = await runImport(set, env);
  process.stderr.write(`${kind}: importing again…\n`);
  const again = await runImport(set, env);

  const app = await startApp(
    offlineServiceConfig(dataDir, { DATABASE_URL: database?.url ?? '', DB_POOL_SIZE: database ? '10' : '1' }),
    createLogger('error'),
  );
  teardown.add('stop the service', () => app.close());
  const demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-scale-demo-'));
  teardown.add('remove the demo folder', () => fs.rmSync(demoDir, { recursive: true, force: true }));
  // The demo data on the same kind of database, so the two req/s differ by the data alone.
  const demoDatabase =
    kind === 'postgresql' ? await createThrowawayDatabase(options.serverUrl as string, teardown) : null;
  const demo = await startApp(
    offlineServiceConfig(demoDir, {
      SEED_DEMO_DATA: 'true',
      DATABASE_URL: demoDatabase?.url ?? '',
      DB_POOL_SIZE: demoDatabase ? '10' : '1',
    }),
    createLogger('error'),
  );
  teardown.add('stop the demo service', () => demo.close());
  process.stderr.write(`${kind}: timing the reads…\n`);
  const reads = await measureReads(app, demo, set, options.rounds);
  return {
    database: database?.description ?? 'embedded PostgreSQL (PGlite)',
    importSeconds: first.seconds,
    imported: first.imported,
    refused: first.refused,
    importerPeakRssMb: first.importerPeakRssMb,
    databasePeakRssMb: kind === 'embedded' ? first.childPeakRssMb : null,
    rerunSeconds: again.seconds,
    rerunSkipped: again.skipped,
    ...reads,
  };
}

function format(figures: DatabaseFigures, count: number): string {
  const met = (ok: boolean) => (ok ? 'met    ' : 'not met');
  const rate = figures.imported / figures.importSeconds;
  const rss = Math.max(figures.importerPeakRssMb, figures.databasePeakRssMb ?? 0);
  const lines = [
    `== ${figures.database}, ${count} generated companies`,
    `import      ${figures.imported} imported, ${figures.refused} not imported, in ${figures.importSeconds.toFixed(1)} s: ${rate.toFixed(1)} companies/s`,
    `            peak RSS: importer ${figures.importerPeakRssMb.toFixed(0)} MB${figures.databasePeakRssMb === null ? '' : `, database process ${figures.databasePeakRssMb.toFixed(0)} MB`}`,
    `re-run      ${figures.rerunSkipped} skipped in ${figures.rerunSeconds.toFixed(1)} s`,
    '',
    ...figures.latencies.map(
      ({ what, latency }) =>
        `${what.padEnd(72)} p50 ${latency.p50.toFixed(1).padStart(7)} ms  p95 ${latency.p95.toFixed(1).padStart(7)} ms`,
    ),
    ...figures.throughput.map(
      ({ what, scale, demo }) =>
        `${what.padEnd(72)} ${scale.toFixed(0).padStart(7)} at scale, ${demo.toFixed(0)} on the demo data (${(scale / demo).toFixed(2)}×)`,
    ),
    '',
    'targets:',
    `  ${met(rate >= 15)}  bulk import ≥ 15 companies/s: ${rate.toFixed(1)}`,
    `  ${met(rss <= 1024)}  peak RSS ≤ 1 GB: ${rss.toFixed(0)} MB`,
    `  ${met(figures.rerunSeconds <= 120)}  re-run ≤ 2 minutes: ${figures.rerunSeconds.toFixed(1)} s`,
    ...figures.latencies
      .filter((entry) => entry.targetMs !== undefined)
      .map(
        ({ what, latency, targetMs }) =>
          `  ${met(latency.p95 <= (targetMs as number))}  ${what} p95 ≤ ${targetMs} ms: ${latency.p95.toFixed(1)} ms`,
      ),
    ...figures.throughput.map(
      ({ what, scale, demo }) =>
        `  ${met(scale >= 0.8 * demo)}  ${what} within 20% of the demo data's: ${(scale / demo).toFixed(2)}×`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

export async function runScaleBench(argv: string[]): Promise<void> {
  const options = readScaleOptions(argv, process.env);
  const setDir = path.join(os.tmpdir(), `fis-scale-data-${options.count}`);
  let set: ScaleDataSet;
  const started = performance.now();
  if (fs.existsSync(path.join(setDir, 'company_tickers.json'))) {
    set = {
      count: options.count,
      facts: path.join(setDir, 'companyfacts.zip'),
      submissions: path.join(setDir, 'submissions.zip'),
      tickers: path.join(setDir, 'company_tickers.json'),
    };
    process.stderr.write(`data set: reusing ${setDir}\n`);
  } else {
    process.stderr.write(`data set: generating ${options.count} companies into ${setDir}…\n`);
    set = await generateScaleData(options.dataFolder, options.count, setDir);
    process.stderr.write(`data set: generated in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  for (const kind of options.databases) {
    const teardown = new Teardown();
    let figures: DatabaseFigures | null = null;
    let failure: unknown = null;
    try {
      figures = await benchmarkDatabase(kind, set, options, teardown);
    } catch (error) {
      failure = error;
    }
    const leftovers = await teardown.runAll();
    if (failure) throw failure;
    if (leftovers.length > 0) throw new BenchError(`shutdown incomplete: ${leftovers.join('; ')}`);
    process.stdout.write(format(figures as DatabaseFigures, options.count));
  }
}
