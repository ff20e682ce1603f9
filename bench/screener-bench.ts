/**
 * Latency of three typical screens through the REST route, printed as figures (no pass/fail).
 *
 *   npm run bench:screener -- [--url http://127.0.0.1:8080] [--rounds 200]
 *
 * Without --url it starts the service on a fresh embedded database in a temporary folder (seeded with the demo data)
 * and stops it afterwards; with --url it measures a running service (e.g. one on a larger data set). Each screen runs
 * once to warm up, then --rounds times one after the other; p50 and p95 are of those rounds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, Teardown, messageOf, percentile } from './bench-support';
import { SCREENS } from './workloads';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

/** Starts the service on a fresh embedded database and resolves with its URL once it listens. */
function startService(teardown: Teardown): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-screener-bench-'));
  teardown.add('data folder', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, '..', 'src', 'main.js')], {
    // The reads' rate budget is not what is measured: 600 screens run within a minute.
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      RATE_LIMIT_READS: '1000000/60',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  teardown.add(
    'service',
    () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new BenchError(`the service exited with ${code} before listening`)));
  });
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  const body = (await response.json()) as { success: boolean; error?: { message: string } };
  if (!body.success) throw new BenchError(`${url} answered ${response.status}: ${body.error?.message}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const rounds = Number(option('rounds', '200'));
  if (!Number.isInteger(rounds) || rounds < 1) throw new BenchError('--rounds must be a positive whole number');
  const teardown = new Teardown();
  try {
    const base = option('url', '') || (await startService(teardown));
    const body = (await (await fetch(`${base}/v1/companies?limit=1`)).json()) as { meta: { total: number } };
    process.stdout.write(`screener on ${base} (${body.meta.total} companies), ${rounds} rounds per screen\n`);
    for (const screen of SCREENS) {
      const url = `${base}/v1/screener?${screen.query}`;
      await timed(url);
      const times: number[] = [];
      for (let round = 0; round < rounds; round += 1) times.push(await timed(url));
      process.stdout.write(
        `  ${screen.label.padEnd(40)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms\n`,
      );
    }
  } finally {
    for (const failure of await teardown.runAll()) process.stderr.write(`teardown: ${failure}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof BenchError ? error.message : messageOf(error)}\n`);
  process.exit(1);
});
