import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { graphql, post } from './helpers/http';
import type { Data, GraphQLAnswer, Refusal } from './helpers/http';
import type { IngestedDocument, Schema, SearchResult } from '../sdk/typescript/src';
import { postingsOfTopChunks, termStatistics, type Posting } from '../src/search/search-index.repository';
import { warmSearchIndex } from '../src/search/search-warmup.repository';
import { createLogger } from '../src/shared/logger';

const sql = <T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]> =>
  app().database.dataSource.query(query, parameters);

const search = (body: Record<string, unknown>) => post<Data<SearchResult[]>>('/v1/search', body);

async function createCompany(name: string, ticker: string): Promise<number> {
  const [{ id }] = await sql<{ id: number }>(
    `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end) VALUES ($1, $2, 'Industrials', 'USD', 12) RETURNING id`,
    [name, ticker],
  );
  return id;
}

async function ingest(document: Record<string, unknown>): Promise<number> {
  const response = await post<Data<IngestedDocument>>('/v1/documents', document);
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body.data.document.id;
}

/** A filing with SEC item headings: its chunks carry the section they come from. */
const annualReport = (topic: string) =>
  [
    'Item 1A. Risk Factors',
    ...Array.from(
      { length: 4 },
      (_, i) =>
        `Supply of ${topic} could be interrupted by export restrictions in region ${i}. Such interruptions could harm margins and delay shipments to customers.`,
    ),
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
    ...Array.from(
      { length: 4 },
      (_, i) =>
        `Spending on ${topic} inventory rose in quarter ${i + 1} as the Company built safety stock. Gross margin declined by forty basis points.`,
    ),
  ].join('\n\n');

describe('search: context of chunks, filters and diversity', () => {
  const topic = `holmium${Date.now() % 100000}`;
  let quill: number;
  let brant: number;

  before(async () => {
    quill = await createCompany('Quillfeather Instruments', 'QFI');
    brant = await createCompany('Brantwood Optics', 'BWO');
    // Two filings that never name their company ("the Company"): only the chunks' context line can tell them apart.
    await ingest({
      company_id: quill,
      title: 'Annual report',
      doc_type: '10-K',
      period: 'FY2024',
      published_at: '2025-02-10',
      content: annualReport(topic),
    });
    await ingest({
      company_id: brant,
      title: 'Annual report',
      doc_type: '10-K',
      period: 'FY2024',
      published_at: '2025-02-12',
      content: annualReport(`${topic} crystal`),
    });
    await ingest({
      company_id: quill,
      title: 'Quarterly report',
      doc_type: '10-Q',
      period: 'Q1-2025',
      published_at: '2025-05-02',
      content: `The Company reduced ${topic} purchases in the first quarter after inventories normalized.`,
    });
  });

  it("finds a filing by the company's name although its text never says it, and returns the content without the context", async () => {
    for (const [name, id] of [
      ['Quillfeather', quill],
      ['Brantwood Optics', brant],
    ] as const) {
      for (const mode of ['text', 'hybrid']) {
        const { status, body } = await search({ query: `${name} ${topic} supply risk`, mode, top_k: 3 });
        expect(status).to.equal(200);
        expect(body.data[0].company_id, `${name} ${mode}`).to.equal(id);
        expect(body.data[0].content).not.to.match(/Quillfeather|Brantwood/);
      }
    }
  });

  it("searches the documents of the company a query names first, and fills up with other companies' only after them", async () => {
    // Brantwood's 10-Q mentions the topic once; Quillfeather's filing is full of it. Naming Brantwood puts its passage first.
    await ingest({
      company_id: brant,
      title: 'Quarterly report',
      doc_type: '10-Q',
      period: 'Q1-2025',
      content: `The Company expects ${topic} costs to ease.`,
    });
    for (const mode of ['text', 'hybrid']) {
      const { body } = await search({
        query: `What did Brantwood Optics say about ${topic} supply? Please answer in one sentence.`,
        mode,
        top_k: 20,
      });
      const companies: number[] = body.data.map((hit) => hit.company_id);
      const firstOther = companies.findIndex((id) => id !== brant);
      expect(firstOther, mode).to.be.above(0);
      expect(
        companies.slice(firstOther).every((id) => id !== brant),
        mode,
      ).to.equal(true);
      expect(companies, mode).to.include(quill);
    }
  });

  it('knows the section of each chunk from the item headings', async () => {
    const { body } = await search({
      query: `${topic} safety stock gross margin`,
      company_ids: [quill],
      mode: 'text',
      top_k: 1,
    });
    expect(body.data[0].section).to.equal(
      "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
    );
  });

  it('filters by period, document type, section and publication date over REST', async () => {
    const cases: Array<[Record<string, unknown>, (hit: SearchResult) => boolean]> = [
      [{ periods: ['q1-2025'] }, (hit) => hit.period === 'Q1-2025'],
      [{ doc_types: ['10-q'] }, (hit) => hit.doc_type === '10-Q'],
      [{ doc_types: ['10-K'], periods: ['FY2024'] }, (hit) => hit.doc_type === '10-K' && hit.period === 'FY2024'],
      [{ sections: ['Item 1A'] }, (hit) => hit.section === 'Item 1A. Risk Factors'],
      [{ sections: ["management's discussion"] }, (hit) => hit.section!.startsWith('Item 7.')],
      [{ published_from: '2025-02-11', published_to: '2025-02-12' }, (hit) => hit.company_id === brant],
    ];
    for (const [filters, holds] of cases) {
      for (const mode of ['text', 'hybrid']) {
        const { status, body } = await search({
          query: `${topic} supply inventory purchases`,
          mode,
          top_k: 10,
          ...filters,
        });
        expect(status, JSON.stringify(filters)).to.equal(200);
        expect(body.data.length, `${mode} ${JSON.stringify(filters)}`).to.be.above(0);
        expect(body.data.every(holds), `${mode} ${JSON.stringify(filters)}`).to.equal(true);
      }
    }
  });

  it('takes the same filters in the GraphQL query', async () => {
    const { body } = await graphql<GraphQLAnswer<{ search: Schema.SearchHit[] }>>(
      `query($q: String!) { search(query: $q, companyIds: [${quill}], periods: ["FY2024"], docTypes: ["10-K"], sections: ["Item 7"], topK: 5) { period docType section companyId } }`,
      { q: `${topic} inventory` },
    );
    expect(body.errors).to.equal(undefined);
    expect(body.data.search.length).to.be.above(0);
    for (const hit of body.data.search)
      expect(hit).to.deep.equal({
        period: 'FY2024',
        docType: '10-K',
        section: body.data.search[0].section,
        companyId: quill,
      });
    expect(body.data.search[0].section).to.match(/^Item 7\./);
  });

  it('refuses bad filters with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ periods: ['H1-2024'] }, /periods must be/],
      [{ periods: [] }, /periods|fewer than 1|minItems|at least 1/i],
      [{ doc_types: ['tweet'] }, /doc_types: "tweet" is not a document type/],
      [{ sections: [''] }, /sections must be non-empty/],
      [{ published_from: 'yesterday' }, /published_from/],
      [{ published_from: '2025-03-01', published_to: '2025-01-01' }, /published_from must be before published_to/],
    ];
    for (const [filters, message] of cases) {
      const response = await post<Refusal>('/v1/search', { query: topic, ...filters });
      expect(response.status, JSON.stringify(filters)).to.equal(400);
      expect(response.body.error.code).to.equal('BAD_USER_INPUT');
      expect(response.body.error.message, JSON.stringify(filters)).to.match(message);
    }
  });

  it('shows a passage once when near-identical copies are stored', async () => {
    const passage = (serial: string) =>
      `Tantalum${serial} capacitor suppliers raised prices twice during the year, and the Company signed long-term agreements to secure volume through the next three fiscal years at fixed prices.`;
    const serial = String(Date.now() % 100000);
    await ingest({
      company_id: quill,
      title: 'Note A',
      doc_type: 'note',
      content: `${passage(serial)} Reported in January.`,
    });
    await ingest({
      company_id: quill,
      title: 'Note B',
      doc_type: 'note',
      content: `${passage(serial)} Reported in February.`,
    });
    const { body } = await search({ query: `tantalum${serial} capacitor suppliers prices`, top_k: 5 });
    expect(body.data.filter((hit) => hit.content.includes(`Tantalum${serial}`))).to.have.length(1);
  });

  it('spreads results over documents instead of filling them with one long document', async () => {
    const word = `zirconia${Date.now() % 100000}`;
    // Distinct filler per paragraph, so the long document's chunks are no near-duplicates of each other.
    const filler = (tag: string) => Array.from({ length: 60 }, (_, j) => `reading${tag}x${j}`).join(' ');
    const long = Array.from({ length: 12 }, (_, i) => `${word} ${word} furnace line ${i}: ${filler(`l${i}`)}`).join(
      '\n\n',
    );
    const longId = await ingest({ company_id: brant, title: 'Plant log', doc_type: 'note', content: long });
    const shortId = await ingest({
      company_id: quill,
      title: 'Brief',
      doc_type: 'note',
      content: `One ${word} order was placed. ${filler('s')}`,
    });
    const [{ chunks }] = await sql<{ chunks: number }>(
      'SELECT count(*)::int AS chunks FROM document_chunks WHERE document_id = $1',
      [longId],
    );
    expect(chunks).to.be.above(4);
    const { body } = await search({ query: word, mode: 'text', top_k: 3 });
    expect(body.data.map((hit) => hit.document_id)).to.include(shortId);
  });

  it('keeps the BM25 statistics and term vectors true when a company and its documents are deleted', async () => {
    const consistent = async () => {
      type Totals = { chunks: number; terms: number };
      const [stats] = await sql<Totals>(
        'SELECT chunks::int AS chunks, total_terms::int AS terms FROM search_corpus_stats',
      );
      const [actual] = await sql<Totals>(
        'SELECT count(*)::int AS chunks, sum(term_count)::int AS terms FROM document_chunks',
      );
      const [{ mismatched }] = await sql<{ mismatched: number }>(
        `SELECT count(*)::int AS mismatched FROM search_terms t
          WHERE t.chunks <> (SELECT count(*) FROM chunk_postings p WHERE p.term = t.term)`,
      );
      // Each indexed chunk's term vector holds exactly its postings, and no vector outlives its chunk.
      const [{ vectorsAmiss }] = await sql<{ vectorsAmiss: number }>(
        `WITH from_postings AS (
           SELECT p.chunk_id, min(p.chunk_terms) AS chunk_terms, string_agg(int4send(t.id) || int2send(p.frequency), ''::bytea ORDER BY t.id) AS terms
             FROM chunk_postings p JOIN search_terms t ON t.term = p.term GROUP BY p.chunk_id)
         SELECT count(*)::int AS "vectorsAmiss" FROM (
           (SELECT chunk_id, chunk_terms, terms FROM chunk_term_vectors EXCEPT SELECT * FROM from_postings)
           UNION ALL
           (SELECT * FROM from_postings EXCEPT SELECT chunk_id, chunk_terms, terms FROM chunk_term_vectors)) AS differences`,
      );
      return { stats, actual, mismatched, vectorsAmiss };
    };
    const before = await consistent();
    expect(before.stats).to.deep.equal(before.actual);
    await sql('DELETE FROM companies WHERE id = ANY($1::int[])', [[quill, brant]]);
    const after = await consistent();
    expect(after.stats).to.deep.equal(after.actual);
    expect(after.stats.chunks).to.be.below(before.stats.chunks);
    expect(after.mismatched).to.equal(0);
    expect(before.vectorsAmiss).to.equal(0);
    expect(after.vectorsAmiss).to.equal(0);
    expect(await sql('SELECT 1 FROM chunk_postings WHERE company_id = ANY($1::int[])', [[quill, brant]])).to.deep.equal(
      [],
    );
    const { body } = await search({ query: `${topic} supply`, mode: 'text' });
    expect(body.data.filter((hit) => [quill, brant].includes(hit.company_id))).to.deep.equal([]);
  });

  // The shared database holds only the demo companies for the other suites.
  after(() => sql('DELETE FROM companies WHERE id = ANY($1::int[])', [[quill, brant]]));
});

describe("search: the global text leg's candidates", () => {
  const marker = `lexeme${Date.now() % 100000}`;
  const vocabulary = Array.from({ length: 40 }, (_, i) => `${marker}w${i}`);
  let company: number;

  /** Deterministic pseudo-random numbers (mulberry32), so a failure can be reproduced. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  before(async () => {
    company = await createCompany('Lexeme Generated Corpus', 'LXG');
    const next = random(7);
    // Skewed word choice and varied lengths: common and rare terms, repeated terms, short and long chunks.
    const paragraph = () =>
      Array.from(
        { length: 5 + Math.floor(next() * 60) },
        () => vocabulary[Math.floor(vocabulary.length * next() ** 2)],
      ).join(' ');
    for (let i = 0; i < 12; i += 1) {
      await ingest({
        company_id: company,
        title: `Generated ${i}`,
        doc_type: 'note',
        content: Array.from({ length: 6 }, paragraph).join('\n\n'),
      });
    }
  });

  it('holds every posting of the query terms in the best chunks of each term, as the postings table does', async () => {
    const manager = app().database.dataSource.manager;
    const next = random(11);
    for (let round = 0; round < 25; round += 1) {
      const terms = [
        ...new Set(
          Array.from({ length: 1 + Math.floor(next() * 8) }, () => vocabulary[Math.floor(next() * vocabulary.length)]),
        ),
      ];
      const perTerm = 1 + Math.floor(next() * 30);
      const expected = await sql<Posting>(
        `WITH candidates AS (
           SELECT DISTINCT best.chunk_id FROM unnest($1::text[]) AS q(term)
            CROSS JOIN LATERAL (SELECT p.chunk_id FROM chunk_postings p WHERE p.term = q.term ORDER BY p.impact DESC LIMIT $2) AS best)
         SELECT p.chunk_id, p.term, p.frequency, p.chunk_terms FROM chunk_postings p JOIN candidates c USING (chunk_id) WHERE p.term = ANY($1::text[])`,
        [terms, perTerm],
      );
      const key = (posting: Posting) =>
        `${posting.chunk_id}|${posting.term}|${posting.frequency}|${posting.chunk_terms}`;
      const { termIds } = await termStatistics(manager, terms);
      const scored = terms.filter((term) => termIds.has(term));
      const actual = await postingsOfTopChunks(manager, {
        candidateTerms: terms,
        scoredTerms: scored,
        termIds,
        perTerm,
      });
      expect(actual.map(key).sort(), `${terms.join(' ')} / ${perTerm}`).to.deep.equal(expected.map(key).sort());
    }
  });

  it('reads the term statistics and term vectors with their keys into the page cache, all of them when they fit', async () => {
    const [{ pages }] = await sql<{ pages: number }>(
      `SELECT sum(pg_relation_size(r::regclass) / current_setting('block_size')::int)::int AS pages
         FROM unnest(ARRAY['search_terms', 'search_terms_pkey', 'chunk_term_vectors', 'chunk_term_vectors_pkey']) AS r`,
    );
    const report = await warmSearchIndex(app().database.dataSource.manager, createLogger('error'));
    expect(pages).to.be.above(0);
    expect(report).to.deep.include({ pages, complete: true });
  });

  after(() => sql('DELETE FROM companies WHERE id = $1', [company]));
});
