/** Pieces the benchmark scripts share: ordered teardown and a throw-away database on a PostgreSQL server. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Client } from 'pg';
import { loadConfig, type AppConfig } from '../src/config/config';

/** An expected failure (bad option, unexpected answer): its message alone says what went wrong. */
export class BenchError extends Error {}

/** A small seeded generator (mulberry32), numbers in [0, 1): the same seed gives the same data on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The p-th percentile (nearest rank) of some samples, in any order. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Resident memory of a process in MB, from /proc (null elsewhere, or when the process has ended). */
export function residentMb(pid: number | null | undefined): number | null {
  if (pid === null || pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------------------------------------------
// Teardown

/**
 * Shutdown steps, run newest first so each resource goes before the ones it depends on (the servers before the
 * database, the database before its folder). Every step runs even when an earlier one failed.
 */
export class Teardown {
  private readonly steps: Array<{ label: string; run: () => unknown }> = [];

  add(label: string, run: () => unknown): void {
    this.steps.push({ label, run });
  }

  /** Returns what could not be shut down, one line per failed step. */
  async runAll(): Promise<string[]> {
    const failures: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (error) {
        failures.push(`${step.label}: ${messageOf(error)}`);
      }
    }
    return failures;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Database

export interface BenchDatabase {
  kind: 'embedded' | 'postgresql';
  /** For the report, e.g. "PostgreSQL 15.2 at 127.0.0.1:5432 (database fis_bench_…)"; never the credentials. */
  description: string;
  url: string;
  /** Pool size for each of the two servers: PGlite has one backend session, so one connection each. */
  poolSize: number;
}

/** Runs `work` on a short-lived connection to the database named in `url` (the server's maintenance database). */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server, so the run neither sees nor disturbs anyone's data; dropped at teardown. */
export async function createThrowawayDatabase(serverUrl: string, teardown: Teardown): Promise<BenchDatabase> {
  // Lowercase hex only, so the name needs no quoting.
  const name = `fis_bench_${crypto.randomBytes(4).toString('hex')}`;
  try {
    await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  } catch (error) {
    throw new BenchError(
      `could not create database ${name} on the DATABASE_URL server ${new URL(serverUrl).host}: ${messageOf(error)}`,
    );
  }
  // FORCE: a connection the service failed to close must not keep the database alive.
  teardown.add(`drop database ${name}`, () =>
    withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  );

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const version = await withClient(url.toString(), async (client) => {
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0].server_version;
  });
  return {
    kind: 'postgresql',
    description: `PostgreSQL ${version} at ${url.host} (database ${name})`,
    url: url.toString(),
    poolSize: 10,
  };
}

/**
 * The service as a bench or an evaluation starts it: loopback on a free port, an embedded database in `dataDir`
 * without demo data, no language-model endpoint, quiet logs and no rate limits; `overrides` set other variables.
 */
export function offlineServiceConfig(dataDir: string, overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO_DATA: 'false',
    OPENAI_API_KEY: '',
    LOG_LEVEL: 'error',
    RATE_LIMIT_READS: '1000000/60',
    RATE_LIMIT_SEARCH: '1000000/60',
    RATE_LIMIT_AI: '1000000/60',
    ...overrides,
  });
}
