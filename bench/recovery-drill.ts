/**
 * Recovery drill: how long the service takes to notice that its embedded database died and to serve again.
 *
 * Starts the service on a fresh embedded database, stores a document over HTTP, then `kill -9`s the PGlite child
 * `--rounds` times (default 5). Each round measures, from the kill: the first 503 on `GET /v1/companies` (noticed),
 * the first 200 again (serving), and whether the stored document is still found. Prints p50/max of both and whether
 * every round served again within the target (5 s). Timing targets live here, not in the tests, whose
 * bounds stay generous for loaded machines.
 *
 *   npm run bench:recovery [-- --rounds N] [--json]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type App } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/shared/logger';
import { BenchError, Teardown, messageOf, percentile } from './bench-support';
import type { Data, Page } from '../test/helpers/http';
import type { Company, SearchResult } from '../sdk/typescript/src';

const TARGET_MS = 5_000;
/** A round that has not served again after this long is a failure of the drill, not a slow figure. */
const GIVE_UP_MS = 60_000;
const POLL_MS = 20;
const MARKER = 'Quillowbrook';

interface Options {
  rounds: number;
  json: boolean;
}

interface Round {
  noticedMs: number;
  servingMs: number;
  dataKept: boolean;
}

function readOptions(argv: string[]): Options {
  let rounds = 5;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--rounds' && /^[1-9]\d*$/.test(argv[i + 1] ?? '')) rounds = Number(argv[++i]);
    else throw new BenchError(`unknown or incomplete option "${argv[i]}" (usage: --rounds N, --json)`);
  }
  return { rounds, json };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One JSON request with the key; the answer's body read as the `T` the caller expects (null when not JSON). */
async function call<T = unknown>(
  app: App,
  key: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: T | null }> {
  const response = await fetch(`${app.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T | null };
}

/** Milliseconds from `since` until the company list answers `status`. */
async function untilListAnswers(app: App, key: string, status: number, since: number): Promise<number> {
  for (;;) {
    const seen = await call(app, key, '/v1/companies?limit=1').catch(() => null);
    const elapsed = performance.now() - since;
    if (seen?.status === status) return elapsed;
    if (elapsed > GIVE_UP_MS)
      throw new BenchError(`GET /v1/companies did not answer ${status} within ${GIVE_UP_MS / 1000} s of the kill`);
    await sleep(POLL_MS);
  }
}

async function documentFound(app: App, key: string): Promise<boolean> {
  const found = await call<Data<SearchResult[]>>(app, key, '/v1/search', { query: MARKER, mode: 'text' });
  if (found.status !== 200) throw new BenchError(`search after recovery answered ${found.status}`);
  return JSON.stringify(found.body!.data).includes(MARKER);
}

async function drillRound(app: App, key: string): Promise<Round> {
  const pid = app.database.childPid;
  if (pid === null) throw new BenchError('the service has no embedded database child to kill');
  const killedAt = performance.now();
  process.kill(pid, 'SIGKILL');
  const noticedMs = await untilListAnswers(app, key, 503, killedAt);
  const servingMs = await untilListAnswers(app, key, 200, killedAt);
  if (app.database.childPid === pid) throw new BenchError('the service answered 200 without a new database child');
  return { noticedMs, servingMs, dataKept: await documentFound(app, key) };
}

function formatText(rounds: Round[]): string {
  const ms = (value: number) => `${Math.round(value)} ms`.padStart(9);
  const lines = rounds.map(
    (round, i) =>
      `round ${String(i + 1).padStart(2)}: noticed ${ms(round.noticedMs)}  serving ${ms(round.servingMs)}  data ${round.dataKept ? 'kept' : 'LOST'}`,
  );
  for (const [label, field] of [
    ['noticed (503)', 'noticedMs'],
    ['serving (200)', 'servingMs'],
  ] as const) {
    const samples = rounds.map((round) => round[field]);
    lines.push(`${label.padEnd(14)} p50 ${ms(percentile(samples, 50))}  max ${ms(Math.max(...samples))}`);
  }
  const kept = rounds.every((round) => round.dataKept);
  const within = rounds.every((round) => round.servingMs <= TARGET_MS);
  lines.push(`written row still there after every round: ${kept ? 'yes' : 'NO'}`);
  lines.push(`every round served again within ${TARGET_MS / 1000} s: ${within ? 'yes' : 'NO'}`);
  lines.push(
    `(node ${process.version}, ${os.availableParallelism()} cpus, load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')})`,
  );
  return `${lines.join('\n')}\n`;
}

async function drill(options: Options, teardown: Teardown): Promise<Round[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-recovery-'));
  teardown.add('remove temp dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  // No DATABASE_URL: the service runs and supervises its own embedded child, which is what is drilled.
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    RATE_LIMIT_READS: '999999999/60',
  });
  const app = await startApp(config, createLogger('error'));
  teardown.add('close service', () => app.close());
  const { key } = await createApiKey(app.database.dataSource, 'recovery drill', 'admin');

  const companies = await call<Page<Company>>(app, key, '/v1/companies?limit=1');
  const stored = await call(app, key, '/v1/documents', {
    company_id: companies.body?.data?.[0]?.id,
    title: MARKER,
    doc_type: 'note',
    content: `The ${MARKER} note says revenue grew.`,
  });
  if (stored.status !== 201)
    throw new BenchError(`storing the document answered ${stored.status}: ${JSON.stringify(stored.body)}`);
  if (!(await documentFound(app, key))) throw new BenchError('the stored document is not found before any kill');

  const rounds: Round[] = [];
  for (let i = 0; i < options.rounds; i++) rounds.push(await drillRound(app, key));
  return rounds;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const teardown = new Teardown();
  let failure: unknown = null;
  try {
    const rounds = await drill(options, teardown);
    process.stdout.write(
      options.json
        ? `${JSON.stringify({ targetMs: TARGET_MS, loadAverage: os.loadavg(), rounds }, null, 2)}\n`
        : formatText(rounds),
    );
    if (!rounds.every((round) => round.dataKept)) failure = new BenchError('a written row was lost');
  } catch (error) {
    failure = error;
  }
  const leftovers = await teardown.runAll();
  if (leftovers.length > 0)
    throw new BenchError(
      `${failure ? `${messageOf(failure)}\nand ` : ''}shutdown incomplete:\n  ${leftovers.join('\n  ')}`,
    );
  if (failure) throw failure;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench:recovery failed: ${error instanceof BenchError ? error.message : ((error as Error)?.stack ?? String(error))}\n`,
    );
    process.exit(1);
  },
);
