/**
 * `npm test`: the whole suite on a fresh embedded database, then — when TEST_PG_ADMIN_URL names a PostgreSQL server
 * (CI sets it to the machine's PostgreSQL 15) — the same suite on a fresh database created there, dropped afterwards.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';

const root = path.join(__dirname, '..', '..');
const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
/**
 * The whole suite. Kept here rather than in .mocharc.json: mocha adds a config file's `spec` to the files named on its
 * command line, so `npx mocha dist/test/one.test.js` would run everything.
 */
const SUITE = ['dist/test/**/*.test.js', 'dist/web/test/**/*.test.js', 'dist/sdk/typescript/test/**/*.test.js'];
/** `npm test -- dist/test/one.test.js` runs the files it names; flags alone (`-- --grep x`) keep the whole suite. */
const args = process.argv.slice(2);
const specs = args.some((arg) => arg.endsWith('.js')) ? [] : SUITE;

function runMocha(label: string, env: Record<string, string>): boolean {
  process.stdout.write(`\n=== test suite on ${label} ===\n`);
  const result = spawnSync(process.execPath, [mocha, ...args, ...specs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

async function withAdmin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  let ok = runMocha('the embedded PostgreSQL (PGlite)', {});
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (adminUrl) {
    const database = `fis_test_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${database}`));
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    try {
      ok = runMocha(`PostgreSQL at ${url.host} (database ${database})`, { TEST_DATABASE_URL: url.toString() }) && ok;
    } finally {
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    }
  } else {
    process.stdout.write('\n(TEST_PG_ADMIN_URL is not set: skipping the run against a PostgreSQL server)\n');
  }
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
