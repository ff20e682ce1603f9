/**
 * Where the CPU of one kind of request goes: the service under autocannon load while the V8 profiler samples its
 * main thread, self time summed by layer (Apollo, graphql-js, type-graphql, TypeORM, pg, JSON, our code, ...).
 * The load comes from a worker thread, so the samples are the service's alone.
 *
 *   npm run bench:profile                      nested page (20 companies) on the embedded PostgreSQL
 *   npm run bench:profile -- list              GET /v1/companies instead
 *   npm run bench:profile -- statement         GET one company's FY2024 income statement instead
 *   npm run bench:profile -- statement-graphql the same statement through POST /graphql (the REST route's own operation)
 *   npm run bench:profile -- nested-100        the nested page of 100 companies
 *   npm run bench:profile -- nested-100 --tail no profiler: what the slowest requests wait for, seen during the load
 *                                              (garbage-collection pauses, event-loop delay, requests queued for a
 *                                              database connection) beside the latency percentiles
 *   DATABASE_URL=postgres://...                on that server, in a database created for the run and dropped after
 *   BENCH_SECONDS=5                            profiled seconds (default 10), after a 3 s warm-up
 *   PROFILE_FILE=nested.cpuprofile             also keep the raw profile (opens in Chrome DevTools)
 *   npm run bench:profile -- --summarize nested.cpuprofile 451   the table of a kept profile (451: requests in it)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, monitorEventLoopDelay, constants as perfConstants } from 'node:perf_hooks';
import type { Pool } from 'pg';
import autocannon from 'autocannon';
import { startApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { createLogger } from '../src/shared/logger';
import { BenchError, Teardown, createThrowawayDatabase, messageOf } from './bench-support';
import { nestedPageQuery } from './workloads';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Layers in the order they are tried: the first whose test matches a frame's script takes its samples. */
const LAYERS: Array<[string, (url: string, name: string) => boolean]> = [
  ['garbage collection', (_url, name) => name === '(garbage collector)'],
  ['idle', (_url, name) => name === '(idle)' || name === '(program)'],
  ['Apollo request pipeline', (url) => url.includes('/node_modules/@apollo/')],
  ['graphql-js execution', (url) => url.includes('/node_modules/graphql/')],
  ['type-graphql', (url) => url.includes('/node_modules/type-graphql/')],
  ['TypeORM (query building, hydration)', (url) => url.includes('/node_modules/typeorm/')],
  ['pg driver', (url) => /\/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-\w+)\//.test(url)],
  ['dataloader', (url) => url.includes('/node_modules/dataloader/')],
  ['other packages', (url) => url.includes('/node_modules/')],
  ['our code', (url) => /\/dist\/(src|rest-facade)\//.test(url)],
  ['JSON', (url, name) => url === '' && (name === 'stringify' || name === 'parse')],
  ['socket writes', (_url, name) => /^(writev|writeBuffer|writevGeneric|writeGeneric)$/.test(name)],
  ['promise hooks (AsyncLocalStorage)', (url, name) => url.includes('async_hooks') || /^promise\w*Hook$/.test(name)],
  ['microtask queue', (_url, name) => name === 'runMicrotasks'],
  ['Node core and native', () => true],
];

/** Self time per layer, as shares of the busy (non-idle) time of the main thread. */
function summarize(profile: Profile): Array<{ layer: string; ms: number; share: number }> {
  const layerOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { url, functionName } = node.callFrame;
    layerOf.set(node.id, (LAYERS.find(([, test]) => test(url, functionName)) as [string, unknown])[0]);
  }
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const layer = layerOf.get(id) as string;
    micros.set(layer, (micros.get(layer) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  micros.delete('idle');
  const busy = [...micros.values()].reduce((a, b) => a + b, 0);
  return [...micros.entries()]
    .map(([layer, us]) => ({ layer, ms: us / 1000, share: busy > 0 ? us / busy : 0 }))
    .sort((a, b) => b.ms - a.ms);
}

function load(
  url: string,
  seconds: number,
  init: { method: 'GET' | 'POST'; body?: string },
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: 10,
        duration: seconds,
        method: init.method,
        body: init.body,
        headers: { 'content-type': 'application/json' },
        workers: 1,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main(teardown: Teardown): Promise<void> {
  const target = process.argv[2] ?? 'nested';
  const targets = ['nested', 'nested-100', 'list', 'statement', 'statement-graphql'];
  if (!targets.includes(target)) throw new BenchError(`unknown request "${target}" (${targets.join(', ')})`);
  const seconds = Number(process.env.BENCH_SECONDS || '10');
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-profile-'));
  teardown.add('remove temp dir', () => fs.rmSync(tempDir, { recursive: true, force: true }));
  const serverUrl = process.env.DATABASE_URL?.trim();
  let url: string;
  if (serverUrl) {
    url = (await createThrowawayDatabase(serverUrl, teardown)).url;
  } else {
    const embedded = await startEmbeddedPostgres(path.join(tempDir, 'pglite'), 1);
    teardown.add('stop embedded PostgreSQL', () => embedded.stop());
    url = embedded.url;
  }
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: tempDir,
    DATABASE_URL: url,
    DB_POOL_SIZE: serverUrl ? '10' : '1',
    LOG_LEVEL: 'error',
    RATE_LIMIT_READS: '999999999/60',
  });
  const app = await startApp(config, createLogger('error'));
  teardown.add('close service', () => app.close());

  const firstCompany = (
    (await (await fetch(`${app.url}/v1/companies?limit=1`)).json()) as { data: Array<{ id: number }> }
  ).data[0].id;
  const requests = {
    nested: {
      url: `${app.url}/graphql`,
      method: 'POST' as const,
      body: JSON.stringify({ query: nestedPageQuery(20) }),
      what: 'POST /graphql nested page (20 companies × 4 fiscal years × 3 statements)',
    },
    'nested-100': {
      url: `${app.url}/graphql`,
      method: 'POST' as const,
      body: JSON.stringify({ query: nestedPageQuery(100) }),
      what: 'POST /graphql nested page (100 companies × 4 fiscal years × 3 statements)',
    },
    list: { url: `${app.url}/v1/companies`, method: 'GET' as const, what: 'GET /v1/companies' },
    statement: {
      url: `${app.url}/v1/companies/${firstCompany}/income-statement?period=FY2024`,
      method: 'GET' as const,
      what: `GET /v1/companies/${firstCompany}/income-statement?period=FY2024`,
    },
    'statement-graphql': {
      url: `${app.url}/graphql`,
      method: 'POST' as const,
      body: JSON.stringify({
        query: fs.readFileSync(
          path.join(__dirname, '..', '..', 'rest-facade', 'operations', 'GetIncomeStatement.graphql'),
          'utf8',
        ),
        variables: { id: firstCompany, period: 'FY2024' },
      }),
      what: `POST /graphql GetIncomeStatement (company ${firstCompany}, FY2024)`,
    },
  };
  const request = requests[target as keyof typeof requests];
  await load(request.url, 3, request);
  if (process.argv.includes('--tail')) {
    const pool = (app.database.dataSource.driver as unknown as { master: Pool }).master;
    process.stdout.write(
      formatTail(
        request.what,
        serverUrl ? 'PostgreSQL server (DATABASE_URL)' : 'embedded PostgreSQL (PGlite)',
        await observeTail(() => load(request.url, seconds, request), pool),
      ),
    );
    return;
  }

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const result = await load(request.url, seconds, request);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  session.disconnect();
  if (process.env.PROFILE_FILE) fs.writeFileSync(process.env.PROFILE_FILE, JSON.stringify(profile));

  if (result.non2xx > 0 || result.errors > 0)
    throw new BenchError(`${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  process.stdout.write(
    [
      `CPU profile: ${request.what}`,
      `database     ${serverUrl ? 'PostgreSQL server (DATABASE_URL)' : 'embedded PostgreSQL (PGlite)'}; load ${os.loadavg()[0].toFixed(2)}`,
      `requests     ${result.requests.total} in ${seconds} s (${result.requests.average.toFixed(1)} req/s)`,
      ...formatSummary(profile, result.requests.total),
    ].join('\n'),
  );
}

interface TailFigures {
  result: autocannon.Result;
  /** Pauses by kind: how many, their total and the longest, in ms. */
  gc: Map<string, { count: number; totalMs: number; maxMs: number }>;
  eventLoopDelay: { p99Ms: number; maxMs: number };
  /** Requests waiting for a pooled connection, sampled every 5 ms: the most seen, and the share of samples with any. */
  poolWaits: { max: number; share: number };
}

const GC_KINDS: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major (mark-compact)',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** Runs the load while watching what stalls the main thread or queues requests. */
async function observeTail(run: () => Promise<autocannon.Result>, pool: Pool): Promise<TailFigures> {
  const gc = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as unknown as { detail: { kind: number } }).detail.kind] ?? 'other';
      const figures = gc.get(kind) ?? { count: 0, totalMs: 0, maxMs: 0 };
      gc.set(kind, {
        count: figures.count + 1,
        totalMs: figures.totalMs + entry.duration,
        maxMs: Math.max(figures.maxMs, entry.duration),
      });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let samples = 0;
  let withWaiters = 0;
  let maxWaiting = 0;
  const sampler = setInterval(() => {
    samples++;
    if (pool.waitingCount > 0) withWaiters++;
    maxWaiting = Math.max(maxWaiting, pool.waitingCount);
  }, 5);
  try {
    const result = await run();
    return {
      result,
      gc,
      eventLoopDelay: { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 },
      poolWaits: { max: maxWaiting, share: samples > 0 ? withWaiters / samples : 0 },
    };
  } finally {
    clearInterval(sampler);
    delay.disable();
    observer.disconnect();
  }
}

function formatTail(what: string, database: string, { result, gc, eventLoopDelay, poolWaits }: TailFigures): string {
  const { latency } = result;
  return [
    `Tail latency: ${what}`,
    `database          ${database}; load ${os.loadavg()[0].toFixed(2)}`,
    `requests          ${result.requests.total} (${result.requests.average.toFixed(1)} req/s)`,
    `latency           p50 ${latency.p50} ms, p90 ${latency.p90} ms, p99 ${latency.p99} ms, max ${latency.max} ms`,
    `event-loop delay  p99 ${eventLoopDelay.p99Ms.toFixed(1)} ms, max ${eventLoopDelay.maxMs.toFixed(1)} ms`,
    `pool waits        up to ${poolWaits.max} requests waiting for a connection; some waiting in ${(poolWaits.share * 100).toFixed(1)} % of samples`,
    'garbage collection',
    ...[...gc.entries()].map(
      ([kind, f]) =>
        `  ${kind.padEnd(22)} ${String(f.count).padStart(6)} pauses  total ${f.totalMs.toFixed(0).padStart(6)} ms  longest ${f.maxMs.toFixed(1).padStart(6)} ms`,
    ),
    '',
  ].join('\n');
}

/** The layers' shares and their main-thread milliseconds per request. */
function formatSummary(profile: Profile, requests: number): string[] {
  const layers = summarize(profile);
  const busy = layers.reduce((sum, { ms }) => sum + ms, 0);
  return [
    `main thread  ${(busy / requests).toFixed(2)} ms busy per request`,
    '',
    ...layers.map(
      ({ layer, ms, share }) =>
        `  ${layer.padEnd(38)} ${(share * 100).toFixed(1).padStart(5)} %  ${(ms / requests).toFixed(2).padStart(6)} ms/req`,
    ),
    '',
  ];
}

const teardown = new Teardown();
const summarizeAt = process.argv.indexOf('--summarize');
if (summarizeAt >= 0) {
  const [file, requests] = process.argv.slice(summarizeAt + 1);
  process.stdout.write(
    formatSummary(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, Number(requests)).join('\n'),
  );
} else
  main(teardown)
    .catch((error: unknown) => {
      process.stderr.write(
        `profile failed: ${error instanceof BenchError ? error.message : ((error as Error)?.stack ?? messageOf(error))}\n`,
      );
      process.exitCode = 1;
    })
    .finally(async () => {
      for (const leftover of await teardown.runAll()) process.stderr.write(`shutdown: ${leftover}\n`);
      setTimeout(() => process.exit(), 2000).unref();
    });
