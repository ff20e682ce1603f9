import { expect } from 'chai';
import type { App } from '../src/app';
import { LSA_MODEL_PREFIX, REFIT_LEASE_SECONDS } from '../src/search/corpus-model';
import { saveModel, takeLease } from '../src/search/search-models.repository';
import { storeEmbeddings } from '../src/search/documents.repository';
import { ensureModelIndex } from '../src/db/vector-schema';
import { request, type Data } from './helpers/http';
import { createTestKeys } from './helpers/keys';
import { freshDataDir, startTestApp, TARGET } from './helpers/test-app';
import type { SearchResult } from '../sdk/typescript/src';

const TOPICS = [
  'Share repurchases and the buyback program returned cash to shareholders through treasury stock purchases.',
  'Clinical trials of the drug candidate continue ahead of regulatory approval by the FDA.',
  'Capital expenditures on new plants and equipment rose with capacity expansion.',
  'Revenue grew on higher volumes and pricing across every segment of the business.',
  'Credit losses and the allowance for loan losses rose as the economy slowed.',
];

/** A distinct document: one topic sentence repeated with a serial, so every text is new and on one topic. */
const documentText = (serial: number) =>
  Array.from({ length: 3 }, (_, i) => `${TOPICS[serial % TOPICS.length]} Note ${serial}-${i} gives the details.`).join(
    '\n\n',
  );

/** Waits for background work (fits and refits run in a worker, behind other work on a busy machine). */
async function waitFor<T>(
  probe: () => Promise<T | null | undefined>,
  what: string,
  state: () => Promise<unknown> = async () => null,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; state: ${JSON.stringify(await state())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the built-in search model (LSA fitted on the stored chunks)', function () {
  this.timeout(180_000);
  const dataDir = freshDataDir();
  let app: App;
  let companyId: number;

  const sql = <T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]> =>
    app.database.dataSource.query(query, parameters);
  const readyModels = () =>
    sql<{ name: string; corpus_chunks: number }>(
      'SELECT name, corpus_chunks FROM embedding_models WHERE ready_at IS NOT NULL',
    );
  /** What the models, vectors and the refit lease look like, said when a wait times out. */
  const modelState = async () => ({
    models: await sql('SELECT name, ready_at IS NOT NULL AS ready, corpus_chunks FROM embedding_models'),
    chunks: await sql('SELECT count(*)::int AS n FROM document_chunks'),
    vectors: await sql('SELECT model, count(*)::int AS n FROM chunk_embeddings GROUP BY model'),
    lease: await sql('SELECT holder, expires_at < now() AS expired FROM search_refit_lease'),
  });
  const ingest = (serial: number) =>
    request(
      '/v1/documents',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          company_id: companyId,
          title: `Note ${serial}`,
          doc_type: 'note',
          content: documentText(serial),
        }),
      },
      app.url,
    );

  before(async function () {
    if (TARGET !== 'embedded') this.skip(); // vectors need pgvector, which the PostgreSQL 15 service lacks
    app = await startTestApp({ dataDir, seedDemoData: false });
    await createTestKeys(app);
    [{ id: companyId }] = await sql<{ id: number }>(
      `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end) VALUES ('Model Test Corp', 'MTC', 'Industrials', 'USD', 12) RETURNING id`,
    );
  });

  after(async () => {
    await app?.close();
  });

  it('has no model on an empty corpus, and fits one in the background once text arrives', async () => {
    expect(await readyModels()).to.deep.equal([]);
    const empty = await request<Data<SearchResult[]>>(
      '/v1/search',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'buyback', mode: 'vector' }),
      },
      app.url,
    );
    expect(empty.status).to.equal(200);
    expect(empty.body.data).to.deep.equal([]);

    for (let serial = 0; serial < 10; serial += 1) expect((await ingest(serial)).status).to.equal(201);
    // Refits follow the growth while documents arrive; in the end one model holds a vector of every chunk.
    const [model] = await waitFor(
      async () => {
        const models = await readyModels();
        const [{ chunks }] = await sql<{ chunks: number }>('SELECT count(*)::int AS chunks FROM document_chunks');
        if (models.length !== 1 || models[0].corpus_chunks * 1.25 <= chunks) return null;
        const [{ missing }] = await sql<{ missing: number }>(
          'SELECT count(*)::int AS missing FROM document_chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id AND e.model = $1)',
          [models[0].name],
        );
        return missing === 0 ? models : null;
      },
      'one model, fitted on at least four fifths of the corpus, with a vector for every chunk',
      modelState,
    );
    expect(model.name.startsWith(LSA_MODEL_PREFIX)).to.equal(true);
  });

  it('finds passages by meaning with the fitted model', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // instances look for a newer model once a second
    const { status, body } = await request<Data<SearchResult[]>>(
      '/v1/search',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'stock buybacks', mode: 'vector', top_k: 2 }),
      },
      app.url,
    );
    expect(status).to.equal(200);
    // The two buyback notes differ only in their serial numbers: one is shown, a near-duplicate is not shown twice.
    expect(body.data).to.have.length(2);
    expect(body.data[0].content).to.include('repurchases');
    expect(body.data[1].content).not.to.include('repurchases');
  });

  it('refits when the corpus has grown by a quarter, then drops the old model with its vectors and index', async () => {
    const [old] = await readyModels();
    for (let serial = 10; serial < 16; serial += 1) expect((await ingest(serial)).status).to.equal(201);
    // Settled: one model (no refit under way), not the old one, with a vector for every chunk and no other vectors.
    const current = await waitFor(
      async () => {
        const models = await sql<{ name: string; ready: boolean; corpus_chunks: number }>(
          'SELECT name, ready_at IS NOT NULL AS ready, corpus_chunks FROM embedding_models',
        );
        const [{ chunks }] = await sql<{ chunks: number }>('SELECT count(*)::int AS chunks FROM document_chunks');
        // Up to date too: fitted on at least four fifths of the corpus, so no further refit is due.
        if (
          models.length !== 1 ||
          !models[0].ready ||
          models[0].name === old.name ||
          models[0].corpus_chunks * 1.25 <= chunks
        )
          return null;
        const rows = await sql<{ model: string; n: number }>(
          'SELECT model, count(*)::int AS n FROM chunk_embeddings GROUP BY model',
        );
        return rows.length === 1 && rows[0].model === models[0].name && rows[0].n === chunks ? models[0] : null;
      },
      'the refitted model, alone',
      modelState,
    );
    const indexes = await sql<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'chunk_embeddings' AND indexdef LIKE '%hnsw%'`,
    );
    expect(indexes).to.have.length(1);
    expect(indexes[0].indexdef).to.include(current.name);
  });

  it('vacuums the old model’s dead rows after the refit (the embedded database has no autovacuum)', async () => {
    // Statistics reach pg_stat a moment after the vacuum: wait until they show it, with no dead row left.
    await waitFor(
      async () => {
        const [{ chunks }] = await sql<{ chunks: number }>('SELECT count(*)::int AS chunks FROM document_chunks');
        const [row] = await sql<{ vacuumed: boolean; dead: number; live: number }>(
          `SELECT last_vacuum IS NOT NULL AS vacuumed, n_dead_tup::int AS dead, n_live_tup::int AS live FROM pg_stat_user_tables WHERE relname = 'chunk_embeddings'`,
        );
        return row?.vacuumed && row.dead === 0 && row.live === chunks ? row : null;
      },
      'chunk_embeddings to be vacuumed, no dead row left and a live row per chunk',
      async () => ({
        stats: await sql(
          `SELECT last_vacuum::text AS at, n_dead_tup::int AS dead, n_live_tup::int AS live FROM pg_stat_user_tables WHERE relname = 'chunk_embeddings'`,
        ),
        ...(await modelState()),
      }),
      30_000,
    );
  });

  it('keeps no vector of a model a refit dropped while a document was being stored', async () => {
    const [chunk] = await sql<{ id: number; company_id: number }>(
      'SELECT c.id, d.company_id FROM document_chunks c JOIN documents d ON d.id = c.document_id ORDER BY c.id LIMIT 1',
    );
    // The ingestion embedded with a model that is gone by the time it writes: nothing is written for it.
    await storeEmbeddings(
      app.database.dataSource.manager,
      { model: `${LSA_MODEL_PREFIX}dropped`, dimensions: 4, stored: true } as never,
      [{ chunkId: chunk.id, companyId: chunk.company_id }],
      [[1, 0, 0, 0]],
    );
    expect(
      await sql('SELECT count(*)::int AS n FROM chunk_embeddings WHERE model = $1', [`${LSA_MODEL_PREFIX}dropped`]),
    ).to.deep.equal([{ n: 0 }]);
  });

  it('keeps its model across a restart, without refitting', async () => {
    const [before] = await sql('SELECT name, fitted_at FROM embedding_models');
    await app.close();
    app = await startTestApp({ dataDir, seedDemoData: false });
    await createTestKeys(app);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sql('SELECT name, fitted_at FROM embedding_models')).to.deep.equal([before]);
    const { body } = await request<Data<SearchResult[]>>(
      '/v1/search',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'loan loss allowance', mode: 'vector', top_k: 1 }),
      },
      app.url,
    );
    expect(body.data[0].content).to.include('Credit losses');
  });

  it('lets a refit go ahead soon after the holder of the lease was killed, and drops the vectors it left unfinished', async () => {
    const manager = app.database.dataSource.manager;
    // What a refitting instance has done when it is killed: taken the lease and written part of a new model.
    expect(await takeLease(manager, 'killed-instance', REFIT_LEASE_SECONDS)).to.equal(true);
    const unfinished = `${LSA_MODEL_PREFIX}unfinished00`;
    const empty = new Float32Array(0);
    await saveModel(
      manager,
      unfinished,
      { terms: [], idf: empty, projection: empty, dimensions: 4, rank: 0, documents: 0 },
      1,
    );
    const runner = app.database.dataSource.createQueryRunner();
    await runner.connect();
    await ensureModelIndex(runner, unfinished, 4).finally(() => runner.release());
    const chunks = await sql<{ chunkId: number; companyId: number }>(
      'SELECT id AS "chunkId", company_id AS "companyId" FROM document_chunks ORDER BY id LIMIT 5',
    );
    await storeEmbeddings(
      manager,
      { model: unfinished, dimensions: 4, embedDocuments: async () => [], embedQuery: async () => [] },
      chunks,
      chunks.map(() => [1, 0, 0, 0]),
    );
    const [old] = await readyModels();

    // The corpus grows by more than a quarter: a refit is due, and must not wait for a lease nobody renews.
    for (let serial = 16; serial < 24; serial += 1) expect((await ingest(serial)).status).to.equal(201);
    const started = Date.now();
    await waitFor(
      async () => {
        const models = await sql<{ name: string; ready: boolean }>(
          'SELECT name, ready_at IS NOT NULL AS ready FROM embedding_models',
        );
        return models.length === 1 && models[0].ready && models[0].name !== old.name ? models : null;
      },
      "a new model once the dead holder's lease expired",
      modelState,
      (REFIT_LEASE_SECONDS + 30) * 1000,
    );
    expect(Date.now() - started).to.be.below((REFIT_LEASE_SECONDS + 30) * 1000);
    expect(await sql('SELECT count(*)::int AS n FROM chunk_embeddings WHERE model = $1', [unfinished])).to.deep.equal([
      { n: 0 },
    ]);
    const indexes = await sql<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'chunk_embeddings' AND indexdef LIKE '%unfinished00%'`,
    );
    expect(indexes).to.deep.equal([]);
    expect(await sql(`SELECT holder FROM search_refit_lease WHERE holder = 'killed-instance'`)).to.deep.equal([]);
  });
});
