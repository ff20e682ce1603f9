import { expect } from 'chai';
import type { App } from '../src/app';
import { ConfigError, loadConfig } from '../src/config/config';
import { dueMaintenance, maintainEmbeddedTables } from '../src/db/maintenance';
import { createLogger } from '../src/shared/logger';
import { request, type Data } from './helpers/http';
import type { SearchResult } from '../sdk/typescript/src';
import { createTestKeys } from './helpers/keys';
import { startTestApp, TARGET } from './helpers/test-app';

const search = (app: App, query: string) =>
  request<Data<SearchResult[]>>(
    '/v1/search',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, mode: 'text', top_k: 3 }),
    },
    app.url,
  );

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('maintenance of the embedded database (what autovacuum does on a server)', function () {
  this.timeout(120_000);
  let app: App | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });
  const sql = <T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]> =>
    (app as App).database.dataSource.query(query, parameters);

  it('gives the planner statistics of the seeded tables at start-up, and search answers from them', async function () {
    if (TARGET !== 'embedded') this.skip();
    app = await startTestApp();
    await createTestKeys(app);
    const tables = await sql<{ relname: string; reltuples: number; analyzed: boolean }>(
      `SELECT c.relname, c.reltuples::float8 AS reltuples, s.last_analyze IS NOT NULL AS analyzed
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE c.relname IN ('companies', 'income_statements', 'documents', 'document_chunks', 'chunk_postings', 'chunk_term_vectors')
        ORDER BY c.relname`,
    );
    expect(tables.map((t) => t.relname)).to.deep.equal([
      'chunk_postings',
      'chunk_term_vectors',
      'companies',
      'document_chunks',
      'documents',
      'income_statements',
    ]);
    for (const table of tables) {
      expect(table.analyzed, table.relname).to.equal(true);
      expect(Number(table.reltuples), table.relname).to.be.greaterThan(0);
    }
    // The planner's row count of the postings is the real one, not the empty table of the migration.
    const [{ postings }] = await sql<{ postings: number }>('SELECT count(*)::int AS postings FROM chunk_postings');
    const [{ reltuples }] = await sql<{ reltuples: number }>(
      `SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'chunk_postings'`,
    );
    expect(Number(reltuples)).to.equal(postings);
    const { status, body } = await search(app, 'revenue growth');
    expect(status).to.equal(200);
    expect(body.data.length).to.be.greaterThan(0);

    // Nothing of these changed since: a second pass leaves them be.
    const again = await maintainEmbeddedTables(app.database, createLogger('silent'));
    const checked = tables.map((t) => t.relname);
    expect(again.vacuumed.concat(again.analyzed).filter((name) => checked.includes(name))).to.deep.equal([]);
  });

  it('counts a bulk write of the last second before it analyzes, not as changes after the ANALYZE', async function () {
    if (TARGET !== 'embedded') this.skip();
    app = await startTestApp({ seedDemoData: false });
    // PostgreSQL reports a backend's changes at most once a second: this write is still pending when the pass starts.
    await sql(`INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end)
               SELECT 'Bulk ' || n, 'BLK' || n, 'Industrials', 'USD', 12 FROM generate_series(1, 500) AS n`);
    const first = await maintainEmbeddedTables(app.database, createLogger('silent'));
    expect(first.vacuumed.concat(first.analyzed)).to.include('companies');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await sql('SELECT 1');
    const second = await maintainEmbeddedTables(app.database, createLogger('silent'));
    expect(second.vacuumed.concat(second.analyzed)).not.to.include('companies');
  });

  it('leaves a PostgreSQL server to its own autovacuum', async function () {
    if (TARGET === 'embedded') this.skip();
    app = await startTestApp();
    const report = await maintainEmbeddedTables(app.database, createLogger('silent'), { vacuum: ['documents'] });
    expect(report.vacuumed.concat(report.analyzed)).to.deep.equal([]);
  });

  it('runs the embedded database with DB_SHARED_BUFFERS_MB of shared buffers, also after the child was restarted', async function () {
    if (TARGET !== 'embedded') this.skip();
    app = await startTestApp({ dbSharedBuffersMb: 48, seedDemoData: false });
    expect(await sql('SHOW shared_buffers')).to.deep.equal([{ shared_buffers: '48MB' }]);
    const pid = app.database.childPid as number;
    process.kill(pid, 'SIGKILL');
    await until('the restarted child to answer', 30_000, async () => {
      if (app?.database.childPid === pid) return null;
      const [row] = await sql('SHOW shared_buffers');
      return row ?? null;
    });
    expect(await sql('SHOW shared_buffers')).to.deep.equal([{ shared_buffers: '48MB' }]);
  });

  it('refuses a DB_SHARED_BUFFERS_MB the embedded database cannot hold', () => {
    expect(loadConfig({ DB_SHARED_BUFFERS_MB: '256' }).dbSharedBuffersMb).to.equal(256);
    expect(() => loadConfig({ DB_SHARED_BUFFERS_MB: '4096' })).to.throw(
      ConfigError,
      /DB_SHARED_BUFFERS_MB must be between 16 and 1024/,
    );
    expect(() => loadConfig({ DB_SHARED_BUFFERS_MB: '1GB' })).to.throw(
      ConfigError,
      /DB_SHARED_BUFFERS_MB must be a whole number/,
    );
  });

  it('is due by autovacuum rules: analyzed when never analyzed, changed or resized by a tenth; vacuumed when a fifth is dead, inserted or grown', () => {
    const table = {
      name: 't',
      reltuples: 10_000,
      relpages: 100,
      pages: 100,
      modifiedSinceAnalyze: 0,
      insertedSinceVacuum: 0,
      dead: 0,
    };
    expect(dueMaintenance([table])).to.deep.equal([]);
    expect(dueMaintenance([{ ...table, reltuples: -1 }])).to.deep.equal([{ name: 't', vacuum: false }]);
    expect(dueMaintenance([{ ...table, modifiedSinceAnalyze: 1_051 }])).to.deep.equal([{ name: 't', vacuum: false }]);
    expect(dueMaintenance([{ ...table, modifiedSinceAnalyze: 1_049 }])).to.deep.equal([]);
    // Counters start from zero at every start of the embedded database; the pages recorded survive it.
    expect(dueMaintenance([{ ...table, pages: 119 }])).to.deep.equal([{ name: 't', vacuum: false }]);
    expect(dueMaintenance([{ ...table, pages: 117 }])).to.deep.equal([]);
    expect(dueMaintenance([{ ...table, reltuples: 0, relpages: 0, pages: 1 }])).to.deep.equal([]);
    expect(dueMaintenance([{ ...table, pages: 129 }])).to.deep.equal([{ name: 't', vacuum: true }]);
    expect(dueMaintenance([{ ...table, dead: 2_051 }])).to.deep.equal([{ name: 't', vacuum: true }]);
    expect(dueMaintenance([{ ...table, insertedSinceVacuum: 3_001 }])).to.deep.equal([{ name: 't', vacuum: true }]);
    expect(dueMaintenance([{ ...table, insertedSinceVacuum: 2_999 }])).to.deep.equal([]);
    expect(dueMaintenance([table], new Set(['t']))).to.deep.equal([{ name: 't', vacuum: true }]);
    expect(dueMaintenance([{ ...table, reltuples: -1, relpages: 0, pages: 0 }])).to.deep.equal([]);
    // The embeddings are vacuumed, never analyzed (see NOT_ANALYZED).
    const embeddings = { ...table, name: 'chunk_embeddings' };
    expect(dueMaintenance([{ ...embeddings, reltuples: -1 }])).to.deep.equal([]);
    expect(dueMaintenance([{ ...embeddings, dead: 2_051 }])).to.deep.equal([
      { name: 'chunk_embeddings', vacuum: true },
    ]);
  });
});
