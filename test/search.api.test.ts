import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { graphql, request, post, type Data, type GraphQLAnswer, type Page, type Refusal } from './helpers/http';
import type { Company, CompanyProfile, IngestedDocument, Schema, SearchResult } from '../sdk/typescript/src';
import { TARGET } from './helpers/test-app';
import { ingestDocument, MAX_DOCUMENT_CHARS } from '../src/search/ingestion.service';
import { MAX_TERM_LENGTH } from '../src/search/terms';
import type { Embedder } from '../src/search/embedder';
import { ProviderModel } from '../src/search/embedding-models';
import { RRF_K } from '../src/search/fusion';
import { HYBRID_WEIGHTS, POPULATION_WEIGHTS } from '../src/search/search.service';

const sql = <T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]> =>
  app().database.dataSource.query(query, parameters);

async function companyByTicker(ticker: string): Promise<number> {
  const { body } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
    `
      query ($t: String) {
        company(ticker: $t) {
          id
        }
      }
    `,
    { t: ticker },
  );
  return body.data.company.id;
}

async function counts(): Promise<{ documents: number; chunks: number }> {
  const [row] = await sql<{ documents: number; chunks: number }>(
    'SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM document_chunks)::int AS chunks',
  );
  return row;
}

const vectorAvailable = () => app().database.vectorAvailable;
const search = (body: unknown) => post<Data<SearchResult[]>>('/v1/search', body);
const ingest = <T = Data<IngestedDocument>>(body: unknown) => post<T>('/v1/documents', body);

describe('documents and search', () => {
  let companyId: number;
  const unique = `zephyrine lattice ${Date.now()}`;

  before(async () => {
    const list = await request<Page<Company>>('/v1/companies?limit=1');
    companyId = list.body.data[0].id;
  });

  it('has pgvector on the embedded database, and says so when a server has none', () => {
    if (TARGET === 'embedded') expect(vectorAvailable()).to.equal(true);
    else expect(typeof vectorAvailable()).to.equal('boolean');
  });

  it('ingests a document with its chunks, and returns the existing one for the same text', async () => {
    const before = await counts();
    const paragraphs = Array.from(
      { length: 8 },
      (_, i) => `Paragraph ${i}: the ${unique} program expanded capacity in region ${i}. Demand was strong.`,
    );
    const document = {
      company_id: companyId,
      title: 'Capacity note',
      doc_type: 'note',
      period: 'fy2025',
      content: paragraphs.join('\n\n'),
      published_at: '2025-03-01',
      source_url: 'https://example.com/note',
    };
    const first = await ingest(document);
    expect(first.status).to.equal(201);
    expect(first.body.data.created).to.equal(true);
    expect(first.body.data.document).to.include({
      company_id: companyId,
      title: 'Capacity note',
      doc_type: 'note',
      period: 'FY2025',
    });
    expect(first.body.data.document.chunk_count).to.be.at.least(1);
    const after = await counts();
    expect(after.documents).to.equal(before.documents + 1);
    expect(after.chunks).to.equal(before.chunks + first.body.data.document.chunk_count);

    // Same text (even with different line endings and trailing space) is the same document.
    const again = await ingest({
      ...document,
      title: 'Another title',
      content: `${paragraphs.join('\r\n\r\n')}  `,
    });
    expect(again.status).to.equal(200);
    expect(again.body.data.created).to.equal(false);
    expect(again.body.data.document.id).to.equal(first.body.data.document.id);
    expect(await counts()).to.deep.equal(after);

    const found = await search({ query: unique, company_ids: [companyId], top_k: 3 });
    expect(found.status).to.equal(200);
    expect(found.body.data[0]).to.include({
      document_id: first.body.data.document.id,
      company_id: companyId,
      title: 'Capacity note',
      doc_type: 'note',
      period: 'FY2025',
    });
    expect(Object.keys(found.body.data[0])).to.include.members([
      'content',
      'score',
      'chunk_id',
      'document_id',
      'company_id',
      'ticker',
      'title',
      'doc_type',
      'period',
    ]);
  });

  it('ingests HTML as text with table rows kept on one line, through the GraphQL mutation', async () => {
    const html = `<html><body><h1>Quarterly update</h1><p>The ${unique} html note.</p>
      <table><tr><th>Metric</th><th>2025</th><th>2024</th></tr><tr><td>Net sales</td><td>1,234</td><td>1,100</td></tr></table></body></html>`;
    const { status, body } = await graphql<GraphQLAnswer<{ ingestDocument: Schema.IngestDocumentResult }>>(
      `
        mutation ($input: IngestDocumentInput!) {
          ingestDocument(input: $input) {
            created
            document {
              id
              chunkCount
            }
          }
        }
      `,
      { input: { companyId, title: 'HTML note', docType: 'press-release', content: html, format: 'HTML' } },
    );
    expect(status).to.equal(200);
    expect(body.data.ingestDocument.created).to.equal(true);
    const [chunk] = await sql<{ content: string }>(
      'SELECT content FROM document_chunks WHERE document_id = $1 ORDER BY ordinal',
      [body.data.ingestDocument.document.id],
    );
    expect(chunk.content).not.to.match(/<[a-z]/i);
    expect(chunk.content).to.include('Net sales | 1,234 | 1,100');
    expect(chunk.content).to.include('Metric | 2025 | 2024');
  });

  it('stores nothing when ingestion fails part-way (one transaction)', async () => {
    const before = await counts();
    // An embedder that returns empty vectors (which pgvector refuses) makes the last step of the transaction fail.
    const broken: Embedder = {
      model: 'broken-test-model',
      dimensions: 8,
      embedDocuments: async (texts) => texts.map(() => []),
      embedQuery: async () => [],
    };
    let failed = false;
    try {
      await ingestDocument(
        {
          dataSource: app().database.dataSource,
          models: new ProviderModel(broken),
          vectorAvailable: true,
          iterativeScan: false,
        },
        {
          companyId,
          title: 'Doomed',
          docType: 'note',
          format: 'TEXT',
          content: `This ${unique} document must not survive.`,
        },
      );
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    expect(await counts()).to.deep.equal(before);
    expect(await sql(`SELECT id FROM documents WHERE title = 'Doomed'`)).to.deep.equal([]);
  });

  it('ranks the right company first on the demo documents', async () => {
    const cases: Array<[string, string]> = [
      ['contract foundries export controls on advanced chips', 'Information Technology'],
      ['clinical trials FDA approval of product candidates', 'Health Care'],
      ['wildfires storms damage the grid and rate cases', 'Utilities'],
      ['subscriber churn and exclusive content', 'Communication Services'],
    ];
    for (const [query, sector] of cases) {
      const { body } = await search({ query, top_k: 5 });
      const companies = (await request<Data<CompanyProfile>>(`/v1/companies/${body.data[0].company_id}`)).body.data;
      expect(companies.sector, query).to.equal(sector);
    }
    // A company filter is applied inside the search: only that company's chunks come back.
    const target = await companyByTicker('NWSC');
    const filtered = await search({
      query: 'revenue and free cash flow',
      company_ids: [target],
      top_k: 10,
    });
    expect(filtered.body.data.length).to.be.above(0);
    expect(filtered.body.data.every((hit) => hit.company_id === target)).to.equal(true);
    expect(filtered.body.data[0].ticker).to.equal('NWSC');
  });

  it("finds a company's own MD&A by name and figure wording in every mode it supports", async () => {
    const modes = vectorAvailable() ? ['hybrid', 'text', 'vector'] : ['hybrid', 'text'];
    for (const mode of modes) {
      const { status, body } = await search({
        query: 'Kestrel Bay Resorts capital expenditures and free cash flow',
        top_k: 5,
        mode,
      });
      expect(status, mode).to.equal(200);
      const position = body.data.findIndex((hit) => /^Kestrel Bay Resorts .*management's discussion/.test(hit.title));
      // The vector leg alone weighs the name no more than any other words, so it only has to find it near the top.
      expect(position, mode).to.be.within(0, mode === 'vector' ? 4 : 0);
      const scores = body.data.map((hit) => hit.score);
      expect(
        [...scores].sort((a, b) => b - a),
        mode,
      ).to.deep.equal(scores);
    }
  });

  it('reports which leg found each hit in hybrid mode', async () => {
    const { body } = await search({ query: 'interest rates and credit losses', top_k: 5 });
    for (const hit of body.data) {
      expect(hit.text_rank !== null || hit.vector_rank !== null).to.equal(true);
      if (!vectorAvailable()) expect(hit.vector_rank).to.equal(null);
    }
  });

  it("fuses the legs' scores where both rank every chunk of the company asked for, and their ranks elsewhere", async function () {
    if (!vectorAvailable()) this.skip();
    const [{ id: small }] = await sql<{ id: number }>(
      `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end) VALUES ('Fewchunk Holdings', 'FEWC', 'Industrials', 'USD', 12) RETURNING id`,
    );
    try {
      for (const [title, content] of [
        ['Revenue', 'Revenue grew as net sales of services rose and operating income improved.'],
        ['Debt', 'Long-term debt was refinanced; interest expense fell and cash flow from operations rose.'],
        ['Buyback', 'The company repurchased shares and paid dividends from free cash flow.'],
        ['Plant', 'A new plant opened; capital expenditures rose with property and equipment.'],
      ]) {
        expect((await ingest({ company_id: small, title, doc_type: 'note', content })).status).to.equal(201);
      }
      const query = 'cash flow from operations and interest expense';
      const ask = async (mode: string, filter: Record<string, unknown>) =>
        (await search({ query, mode, top_k: 10, ...filter })).body.data;
      const [text, vector, hybrid] = [
        await ask('text', { company_ids: [small] }),
        await ask('vector', { company_ids: [small] }),
        await ask('hybrid', { company_ids: [small] }),
      ];
      // Four chunks: the vector leg ranks all of them; a chunk the text leg leaves out has none of the words (BM25 0).
      expect(vector).to.have.length(4);
      const normalized = (scores: number[]) => (score: number) =>
        (score - Math.min(...scores)) / (Math.max(...scores) - Math.min(...scores));
      const textScore = new Map<number, number>(text.map((hit) => [hit.chunk_id, hit.score]));
      const ofText = normalized([...textScore.values(), ...(text.length < vector.length ? [0] : [])]);
      const ofVector = normalized(vector.map((hit) => hit.score));
      const expected = vector
        .map((hit) => ({
          id: hit.chunk_id,
          score:
            POPULATION_WEIGHTS[0] * ofText(textScore.get(hit.chunk_id) ?? 0) +
            POPULATION_WEIGHTS[1] * ofVector(hit.score),
        }))
        .sort((a, b) => b.score - a.score);
      expect(hybrid.map((hit) => hit.chunk_id)).to.deep.equal(expected.map((entry) => entry.id));
      hybrid.forEach((hit, i) => expect(hit.score).to.be.closeTo(expected[i].score, 1e-6));
      // Over every company, the legs' lists are cut at the candidate count: their ranks are fused.
      for (const hit of await ask('hybrid', {})) {
        const rrf =
          (hit.text_rank ? HYBRID_WEIGHTS[0] / (RRF_K + hit.text_rank) : 0) +
          (hit.vector_rank ? HYBRID_WEIGHTS[1] / (RRF_K + hit.vector_rank) : 0);
        expect(hit.score).to.be.closeTo(rrf, 1e-9);
      }
    } finally {
      // Other tests check every company's statements; this one has none.
      await sql('DELETE FROM companies WHERE id = $1', [small]);
    }
  });

  it('answers a vector-only search without pgvector with a clear 400', async function () {
    if (vectorAvailable()) this.skip();
    const { status, body } = await post<Refusal>('/v1/search', { query: 'anything', mode: 'vector' });
    expect(status).to.equal(400);
    expect(body.error.message).to.match(/pgvector/);
  });

  it('keeps common words when nothing rarer is asked for, and answers symbol-only queries with nothing', async () => {
    const common = await search({ query: 'revenue', mode: 'text', top_k: 3 });
    expect(common.body.data).to.have.length(3);
    const target = await companyByTicker('NWSC');
    const ownName = await search({ query: 'Northwind', mode: 'text', company_ids: [target] });
    expect(ownName.body.data.length).to.be.above(0);
    for (const mode of ['vector', 'hybrid', 'text']) {
      if (mode === 'vector' && !vectorAvailable()) continue;
      for (const query of ['the and of', '!!! ??? ...']) {
        const response = await search({ query, mode });
        expect(response.status, `${mode} ${query}`).to.equal(200);
        expect(response.body.data, `${mode} ${query}`).to.deep.equal([]);
      }
    }
  });

  it('ingests several documents at once without losing any', async () => {
    const before = await counts();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post('/v1/documents', {
          company_id: companyId,
          title: `Parallel ${i}`,
          doc_type: 'note',
          content: `Parallel note ${i} about ${unique}.`,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201, 201]);
    expect((await counts()).documents).to.equal(before.documents + 6);
  });

  it('gives a term an id only when it is new (term vectors hold 4-byte ids, so none is wasted on known terms)', async () => {
    // Ids taken from the identity sequence and not held by a term; a known term must not take one.
    const unused = async () =>
      (
        await sql<{ n: number }>(
          `SELECT pg_sequence_last_value(pg_get_serial_sequence('search_terms', 'id')::regclass)::int - (SELECT count(*)::int FROM search_terms) AS n`,
        )
      )[0].n;
    const words = `${unique} quarterly shipments of turbines rose in the northern plant`;
    expect(
      (await post('/v1/documents', { company_id: companyId, title: 'Turbines', doc_type: 'note', content: words }))
        .status,
    ).to.equal(201);
    const before = await unused();
    // The same words in another order (another document), then with two new ones.
    const reordered = words.split(' ').reverse().join(' ');
    expect(
      (await post('/v1/documents', { company_id: companyId, title: 'Turbines', doc_type: 'note', content: reordered }))
        .status,
    ).to.equal(201);
    expect(
      (
        await post('/v1/documents', {
          company_id: companyId,
          title: 'Turbines',
          doc_type: 'note',
          content: `${reordered} quixotic${Date.now()} zanthoxylum`,
        })
      ).status,
    ).to.equal(201);
    expect(await unused()).to.equal(before);
  });

  describe('validation', () => {
    const searches: Array<[unknown, RegExp]> = [
      [{ query: 'foo\u0000bar' }, /NUL/],
      [{ query: 'x', company_ids: [] }, /company_ids must not be empty/],
      [{ query: '' }, /query must not be empty/],
      [{ query: '   \n ' }, /query must not be empty/],
      [{}, /query is required/],
      [{ query: 42 }, /query must be a string/],
      [{ query: 'x', company_ids: 5 }, /company_ids must be an array of integers/],
      [{ query: 'x', company_ids: ['1'] }, /company_ids must be an array of integers/],
      [{ query: 'x', top_k: 0 }, /top_k must be a whole number from 1 to 50/],
      [{ query: 'x', top_k: 51 }, /top_k must be a whole number from 1 to 50/],
      [{ query: 'x', top_k: '5' }, /top_k must be an integer/],
      [{ query: 'x', mode: 'fuzzy' }, /mode must be one of hybrid, text, vector, got "fuzzy"/],
      [{ query: 'x', limit: 5 }, /Unknown field "limit"/],
      [['query'], /must be a JSON object/],
    ];
    for (const [body, message] of searches) {
      it(`search ${JSON.stringify(body)} → 400`, async () => {
        const response = await post<Refusal>('/v1/search', body);
        expect(response.status).to.equal(400);
        expect(response.body.error.code).to.equal('BAD_USER_INPUT');
        expect(response.body.error.message).to.match(message);
      });
    }

    it('refuses bad documents with 4xx and writes nothing', async () => {
      const before = await counts();
      const base = { company_id: companyId, title: 'T', doc_type: 'note', content: 'Some text.' };
      const cases: Array<[unknown, number, RegExp]> = [
        [{ ...base, content: '   ' }, 400, /content has no text/],
        [{ ...base, company_id: 987654 }, 404, /No company with id 987654/],
        [{ ...base, doc_type: 'tweet' }, 400, /doc_type must be one of 10-K, 10-Q, .*, got "tweet"/],
        [{ ...base, format: 'pdf' }, 400, /format must be one of text, markdown, html, got "pdf"/],
        [{ ...base, period: 'H1-2024' }, 400, /period must be/],
        [{ ...base, published_at: 'yesterday' }, 400, /published_at/],
        [{ ...base, source_url: 'ftp://x' }, 400, /source_url/],
        [{ ...base, title: '' }, 400, /title must not be empty/],
        [{ ...base, pages: 3 }, 400, /Unknown field "pages"/],
        [{ title: 'T' }, 400, /company_id is required/],
        [{ ...base, content: 'bad\u0000byte' }, 400, /NUL/],
        [{ ...base, title: 'nul\u0000title' }, 400, /NUL/],
        [{ ...base, published_at: '2024-02-30' }, 400, /published_at/],
        [{ ...base, published_at: '2024-02-01T10:00:00' }, 400, /time zone/],
        [{ ...base, source_url: `https://example.com/${'a'.repeat(2100)}` }, 400, /at most 2000/],
      ];
      for (const [body, status, message] of cases) {
        const response = await ingest<Refusal>(body);
        expect(response.status, JSON.stringify(body)).to.equal(status);
        expect(response.body.error.message, JSON.stringify(body)).to.match(message);
      }
      const wrongType = await request('/v1/documents', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(wrongType.status).to.equal(415);
      const tooLarge = await post('/v1/documents', { ...base, content: 'x'.repeat(11 * 1024 * 1024) });
      expect(tooLarge.status).to.equal(413);
      // Within the body limit, past the content limit: 413 naming the limit and the count.
      const tooLong = await ingest<Refusal>({ ...base, content: 'x'.repeat(MAX_DOCUMENT_CHARS + 1) });
      expect(tooLong.status).to.equal(413);
      expect(tooLong.body.error).to.deep.include({
        code: 'PAYLOAD_TOO_LARGE',
        details: { limit: MAX_DOCUMENT_CHARS, characters: MAX_DOCUMENT_CHARS + 1 },
      });
      expect(tooLong.body.error.message).to.include('at most 5,000,000 (the document content limit)');
      expect(await counts()).to.deep.equal(before);
    });

    it('stores text with words too long to index (digests, base64 data) and finds it by its other words', async () => {
      const marker = `quarrystone ${Date.now()}`;
      const content = [
        `The ${marker} filing is signed with SHA-512 ${'9a'.repeat(64)} and carries a logo.`,
        `Logo: data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg'.repeat(40)}==`,
        `A word of ${'z'.repeat(150)} letters ends it.`,
      ].join('\n\n');
      const stored = await ingest({
        company_id: companyId,
        title: 'Signed filing',
        doc_type: 'note',
        content,
      });
      expect(stored.status, JSON.stringify(stored.body)).to.equal(201);
      const found = await search({ query: marker, company_ids: [companyId], mode: 'text', top_k: 1 });
      expect(found.body.data[0].document_id).to.equal(stored.body.data.document.id);
      // The long words stay in the text, though no search finds them.
      expect(found.body.data[0].content).to.include('9a'.repeat(64));
      const byDigest = await search({ query: '9a'.repeat(64), company_ids: [companyId], mode: 'text' });
      expect(byDigest.status).to.equal(200);
      expect(byDigest.body.data).to.deep.equal([]);
      const [{ longest }] = await sql<{ longest: number }>(
        'SELECT max(length(term))::int AS longest FROM search_terms',
      );
      expect(longest).to.be.at.most(MAX_TERM_LENGTH);
    });
  });
});
