import { expect } from 'chai';
import type { App } from '../src/app';
import { CorpusModel, LSA_MODEL_PREFIX } from '../src/search/corpus-model';
import { DEFAULT_LSA_OPTIONS } from '../src/search/lsa';
import { prepareModel } from '../src/search/search-backend';
import { createLogger } from '../src/shared/logger';
import { createTestKeys } from './helpers/keys';
import { startTestApp, TARGET } from './helpers/test-app';
import { request, type Data, type Refusal } from './helpers/http';
import { FAKE_DIMENSIONS, startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai';
import type { SearchResult } from '../sdk/typescript/src';

const post = <T = unknown>(app: App, path: string, body: unknown) =>
  request<T>(
    path,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    app.url,
  );

describe('embeddings from an OpenAI-compatible provider (local fake server)', function () {
  this.timeout(120_000);
  let fake: FakeOpenAI;
  let app: App;

  before(async function () {
    if (TARGET !== 'embedded') this.skip(); // the vector leg needs pgvector, which the PostgreSQL 15 service lacks
    fake = await startFakeOpenAI();
    app = await startTestApp({
      openaiApiKey: 'sk-test-key',
      openaiBaseUrl: fake.url,
      embeddingModel: 'fake-embed',
      aiTimeoutMs: 1000,
    });
    await createTestKeys(app);
  });

  after(async () => {
    await app?.close();
    await fake?.close();
  });

  it('embeds the demo documents through the provider and searches with its vectors', async () => {
    expect(fake.requests.length).to.be.above(1);
    expect(
      fake.requests.every((r) => r.path === '/v1/embeddings' && r.authorization === 'Bearer sk-test-key'),
    ).to.equal(true);
    expect(fake.requests[0].body!.model).to.equal('fake-embed');
    const [{ models }] = await app.database.dataSource.query(
      `SELECT array_agg(DISTINCT model) AS models FROM chunk_embeddings`,
    );
    // The stored model names the endpoint and the size, so vectors of different spaces never mix.
    expect(models).to.have.length(1);
    expect(models[0]).to.match(/^openai:127\.0\.0\.1:\d+\/fake-embed@64$/);
    const [{ dims }] = await app.database.dataSource.query(
      'SELECT vector_dims(embedding) AS dims FROM chunk_embeddings LIMIT 1',
    );
    expect(dims).to.equal(FAKE_DIMENSIONS);
    const { status, body } = await post<Data<SearchResult[]>>(app, '/v1/search', {
      query: 'clinical trials and FDA approval',
      mode: 'vector',
      top_k: 3,
    });
    expect(status).to.equal(200);
    expect(body.data).to.have.length(3);
    expect(body.data[0].vector_rank).to.equal(1);
  });

  it('turns a provider failure into a 502 and a silent provider into a 504, storing nothing', async () => {
    const [{ before }] = await app.database.dataSource.query('SELECT count(*)::int AS before FROM documents');
    const document = {
      company_id: 1,
      title: 'Provider test',
      doc_type: 'note',
      content: 'A note that needs embedding.',
    };
    fake.behaviour = 'fail';
    const failed = await post<Refusal>(app, '/v1/documents', document);
    expect(failed.status).to.equal(502);
    expect(failed.body.error.code).to.equal('UPSTREAM_ERROR');
    fake.behaviour = 'hang';
    const started = Date.now();
    const silent = await post<Refusal>(app, '/v1/documents', { ...document, content: 'Another note.' });
    expect(silent.status).to.equal(504);
    expect(silent.body.error.code).to.equal('UPSTREAM_TIMEOUT');
    // one call and two retries of 1 s each, plus back-off: bounded, never a hang
    expect(Date.now() - started).to.be.below(15_000);
    fake.behaviour = 'ok';
    const [{ after }] = await app.database.dataSource.query('SELECT count(*)::int AS after FROM documents');
    expect(after).to.equal(before);
  });

  it('keeps the vectors of one model when switching to another, and fills in the new model', async () => {
    // Switch to the built-in model: it is fitted on the stored chunks and embeds all of them.
    const builtin = new CorpusModel(app.database, createLogger('silent'), {
      backgroundRefit: false,
      lsa: DEFAULT_LSA_OPTIONS,
    });
    expect(await builtin.refitIfStale()).to.equal(true);
    const [{ chunks }] = await app.database.dataSource.query('SELECT count(*)::int AS chunks FROM document_chunks');
    const rows: Array<{ model: string; n: number }> = await app.database.dataSource.query(
      'SELECT model, count(*)::int AS n FROM chunk_embeddings GROUP BY model ORDER BY model',
    );
    expect(rows.map((row) => row.n)).to.deep.equal([chunks, chunks]);
    expect(rows[0].model.startsWith(LSA_MODEL_PREFIX)).to.equal(true);
    expect(rows[1].model).to.match(/^openai:/);
    // Nothing is left to fill in for either model.
    expect(await prepareModel(app.database, (await builtin.current())!, createLogger('silent'))).to.equal(0);
    await builtin.close();
    // Both models now answer vector searches over the same chunks.
    const { body } = await post<Data<SearchResult[]>>(app, '/v1/search', {
      query: 'clinical trials',
      mode: 'vector',
      top_k: 2,
    });
    expect(body.data).to.have.length(2);
  });
});
