/**
 * Fault drills: each drill injects one fault into a running service (a database connection killed, a big ingest, …)
 * and counts what a user would notice: 5xx answers, crashed processes, lost writes, time to recover.
 *
 * Every module in `bench/faults/drills/` is a drill (see `drill.ts`). Drills run one after the other, each on its own
 * fresh service, and print one row of the table; the exit code is 1 when any drill missed a target or failed to run.
 *
 *   npm run bench:faults [-- <drill> …] [--json] [--list]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { missedTargets, type Drill, type DrillResult } from './drill';

interface Options {
  names: string[];
  json: boolean;
  list: boolean;
}

interface Outcome {
  name: string;
  result: DrillResult | null;
  /** Why the drill could not run to its end. */
  error: string | null;
  missed: string[];
  seconds: number;
}

const DRILLS_DIR = path.join(__dirname, 'drills');

function readOptions(argv: string[]): Options {
  const options: Options = { names: [], json: false, list: false };
  for (const arg of argv) {
    if (arg === '--json') options.json = true;
    else if (arg === '--list') options.list = true;
    else if (/^[a-z0-9-]+$/.test(arg)) options.names.push(arg);
    else throw new Error(`unknown option "${arg}" (usage: [drill …] [--json] [--list])`);
  }
  return options;
}

/** Every drill module, in file-name order. */
async function loadDrills(): Promise<Drill[]> {
  const files = fs
    .readdirSync(DRILLS_DIR)
    .filter((file) => file.endsWith('.js'))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const drill = (await import(path.join(DRILLS_DIR, file))) as Partial<Drill>;
      if (typeof drill.name !== 'string' || typeof drill.run !== 'function')
        throw new Error(`${file} does not export name and run()`);
      return { name: drill.name, run: drill.run };
    }),
  );
}

function pick(drills: Drill[], names: string[]): Drill[] {
  if (names.length === 0) return drills;
  const unknown = names.filter((name) => !drills.some((drill) => drill.name === name));
  if (unknown.length > 0)
    throw new Error(`no drill named ${unknown.join(', ')} (drills: ${drills.map((drill) => drill.name).join(', ')})`);
  return drills.filter((drill) => names.includes(drill.name));
}

async function runOne(drill: Drill): Promise<Outcome> {
  const started = performance.now();
  process.stderr.write(`drill ${drill.name} …\n`);
  try {
    const result = await drill.run();
    return {
      name: drill.name,
      result,
      error: null,
      missed: missedTargets(result),
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      name: drill.name,
      result: null,
      error: message,
      missed: [],
      seconds: (performance.now() - started) / 1000,
    };
  }
}

function recovery(samples: number[]): string {
  if (samples.length === 0) return '-';
  const sorted = [...samples].sort((a, b) => a - b);
  return `${Math.round(sorted[Math.floor(sorted.length / 2)])} / ${Math.round(sorted[sorted.length - 1])} ms`;
}

function formatTable(outcomes: Outcome[]): string {
  const header = ['drill', 'requests', '5xx', '503', 'crashes', 'lost writes', 'recovery p50 / max', 'time', 'result'];
  const rows = outcomes.map((outcome) => {
    const r = outcome.result;
    const verdict = outcome.error ? 'ERROR' : outcome.missed.length > 0 ? 'MISSED' : 'ok';
    return [
      outcome.name,
      r ? String(r.requests) : '-',
      r ? String(r.serverErrors) : '-',
      r ? String(r.unavailable) : '-',
      r ? String(r.crashes) : '-',
      r ? String(r.lostWrites) : '-',
      r ? recovery(r.recoveryMs) : '-',
      `${outcome.seconds.toFixed(0)} s`,
      verdict,
    ];
  });
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  const lines = [line(header), ...rows.map(line)];
  for (const outcome of outcomes) {
    for (const note of outcome.result?.notes ?? []) lines.push(`${outcome.name}: ${note}`);
    for (const missed of outcome.missed) lines.push(`${outcome.name}: MISSED ${missed}`);
    if (outcome.error) lines.push(`${outcome.name}: ERROR ${outcome.error}`);
  }
  lines.push(
    '5xx counts every 5xx but a 503 with Retry-After (the documented answer while a dependency is away), listed as 503.',
  );
  lines.push(
    `(${new Date().toISOString()}, node ${process.version}, ${os.availableParallelism()} cpus, load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')})`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const drills = await loadDrills();
  if (options.list) {
    process.stdout.write(`${drills.map((drill) => drill.name).join('\n')}\n`);
    return 0;
  }
  const outcomes: Outcome[] = [];
  for (const drill of pick(drills, options.names)) outcomes.push(await runOne(drill));
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ date: new Date().toISOString(), loadAverage: os.loadavg(), outcomes }, null, 2)}\n`
      : formatTable(outcomes),
  );
  return outcomes.some((outcome) => outcome.error || outcome.missed.length > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:faults failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
