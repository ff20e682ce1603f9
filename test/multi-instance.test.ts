import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Client } from 'pg';
import { freshDataDir, startTestApp, testConfig, TARGET } from './helpers/test-app';
import { startApp } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { requestAs, type Page } from './helpers/http';
import type { Company } from '../sdk/typescript/src';

const SEED_CLI = path.join(__dirname, '..', 'src', 'cli', 'seed.js');

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('start-up on a shared or fresh database', function () {
  this.timeout(180_000);

  if (TARGET === 'postgres' && process.env.TEST_PG_ADMIN_URL) {
    it('lets two instances start together on one empty database: migrated and seeded once, both serving', async () => {
      const name = `fis_two_${randomBytes(4).toString('hex')}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      const url = new URL(process.env.TEST_PG_ADMIN_URL as string);
      url.pathname = `/${name}`;
      try {
        // One of them with a single connection, as a small deployment might run it.
        const warnings: string[] = [];
        const [first, second] = await Promise.all([
          startApp(
            testConfig({ databaseUrl: url.toString(), dbPoolSize: 1, redisUrl: null }),
            createLogger('warn', (line) => warnings.push(line)),
          ),
          startTestApp({ databaseUrl: url.toString(), dbPoolSize: 4 }),
        ]);
        try {
          // Without Redis each instance counts its own rate-limit budgets: the operator is told at start-up.
          expect(warnings.map((line) => JSON.parse(line).message)).to.include(
            'rate limits are per instance: without REDIS_URL every instance on this database counts its own budgets',
          );
          const a = await requestAs<Page<Company>>(null, '/v1/companies?limit=100', {}, first.url);
          const b = await requestAs(null, '/v1/companies?limit=100', {}, second.url);
          expect(a.body.meta.total).to.equal(44);
          expect(b.body).to.deep.equal(a.body);
        } finally {
          await Promise.all([first.close(), second.close()]);
        }
      } finally {
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    });
  }

  if (TARGET === 'embedded') {
    it('`npm run seed` re-creates the demo data on a stopped service’s database', async () => {
      const dataDir = freshDataDir();
      const run = () =>
        spawnSync(process.execPath, [SEED_CLI], {
          env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
          encoding: 'utf8',
        });
      const first = run();
      expect(first.status, first.stderr).to.equal(0);
      expect(first.stdout).to.match(/Seeded 44 companies, \d+ statements and 132 documents \(embedded database\)/);
      // Damage the data, then seed again: everything is back as generated.
      const damaged = await startTestApp({ dataDir, seedDemoData: false });
      await damaged.database.dataSource.query(
        'DELETE FROM companies WHERE id IN (SELECT id FROM companies ORDER BY id LIMIT 5)',
      );
      await damaged.database.dataSource.query('UPDATE income_statements SET net_income = 0');
      await damaged.close();
      const again = run();
      expect(again.status, again.stderr).to.equal(0);
      const app = await startTestApp({ dataDir, seedDemoData: false });
      try {
        const list = await requestAs<Page<Company>>(null, '/v1/companies?limit=1', {}, app.url);
        expect(list.body.meta.total).to.equal(44);
        const [{ zeroes }] = await app.database.dataSource.query(
          'SELECT count(*)::int AS zeroes FROM income_statements WHERE net_income = 0',
        );
        expect(zeroes).to.equal(0);
      } finally {
        await app.close();
      }
    });
  }
});
