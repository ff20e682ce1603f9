import { expect } from 'chai';
import { get, graphql, request, post } from './helpers/http';
import type { Data, GraphQLAnswer, Page } from './helpers/http';
import type {
  ChatDoneEvent,
  Company,
  Document,
  IncomeStatement,
  IngestedDocument,
  Schema,
  SearchResult,
} from '../sdk/typescript/src';
import { chunkPages } from '../src/search/chunker';
import { extractText } from '../src/search/text-extraction';

async function companyId(ticker: string): Promise<number> {
  const { body } = await get<Page<Company>>(`/v1/companies?ticker=${ticker}`);
  return body.data[0].id;
}

describe('pages of a text (unit)', () => {
  it('numbers chunks by the form feeds before them, counting empty pages, and never spans two pages', () => {
    const text = extractText(
      'Cover page.\f\f  Results: revenue rose.  \r\n\r\n\r\nMore results.\fRisks: supply.\f\f',
      'TEXT',
    );
    expect(text).to.equal('Cover page.\f\fResults: revenue rose.\n\nMore results.\fRisks: supply.');
    expect(chunkPages(text)).to.deep.equal([
      { content: 'Cover page.', page: 1 },
      { content: 'Results: revenue rose.\n\nMore results.', page: 3 },
      { content: 'Risks: supply.', page: 4 },
    ]);
  });

  it('keeps a text without form feeds as it was, all of it page 1', () => {
    const text = extractText('  One paragraph.\n\n\n\nAnother  one.  ', 'TEXT');
    expect(text).to.equal('One paragraph.\n\nAnother one.');
    expect(chunkPages(text).map((chunk) => chunk.page)).to.deep.equal([1]);
  });

  it('cuts a long page into several chunks of that page', () => {
    const long = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} of the long second page says something.`,
    ).join(' ');
    const chunks = chunkPages(`Short first page.\f${long}`, { targetChars: 300, maxChars: 500, overlapChars: 80 });
    expect(chunks[0]).to.deep.equal({ content: 'Short first page.', page: 1 });
    expect(chunks.length).to.be.above(3);
    expect(chunks.slice(1).every((chunk) => chunk.page === 2)).to.equal(true);
  });
});

describe('pages of stored documents on hits, passages and citations', function () {
  this.timeout(60_000);
  const marker = `brindlewort${Date.now()}`;
  let company: number;
  let documentId: number;
  let fiscalYear: string;

  before(async () => {
    company = await companyId('FXGM');
    fiscalYear = (await get<Data<IncomeStatement>>(`/v1/companies/${company}/income-statement?period=latest-fy`)).body
      .data.period;
    const pages = [
      'Annual report. This report covers the fiscal year.',
      '',
      `Revenue increased compared with the prior year, driven primarily by demand for our ${marker} kilns in ceramic markets.`,
      `Risk factors. A shortage of ${marker} glaze could harm production.`,
    ];
    const stored = await post<Data<IngestedDocument>>('/v1/documents', {
      company_id: company,
      title: 'FXGM annual report',
      doc_type: '10-K',
      period: fiscalYear,
      content: pages.join('\f'),
    });
    expect(stored.status, JSON.stringify(stored.body)).to.equal(201);
    documentId = stored.body.data.document.id;
  });

  it('gives each passage of the document its page', async () => {
    const { body } = await get<Data<Document>>(`/v1/documents/${documentId}`);
    const passages = body.data.passages.map((passage) => [passage.page, passage.content.slice(0, 20)]);
    expect(passages).to.deep.equal([
      [1, 'Annual report. This '],
      [3, 'Revenue increased co'],
      [4, 'Risk factors. A shor'],
    ]);
    const viaGraphql = await graphql<GraphQLAnswer<Pick<Schema.Query, 'document'>>>(
      'query($id: Int!) { document(id: $id) { passages { chunkId page } } }',
      { id: documentId },
    );
    expect(viaGraphql.body.data.document.passages.map((passage) => passage.page)).to.deep.equal([1, 3, 4]);
  });

  it('gives a search hit the page of its passage, over REST and GraphQL', async () => {
    const rest = await post<Data<SearchResult[]>>('/v1/search', {
      query: `${marker} glaze shortage`,
      company_ids: [company],
      top_k: 3,
    });
    const hit = rest.body.data.find((candidate) => candidate.document_id === documentId);
    expect(hit).to.include({ page: 4 });
    expect(hit!.content).to.include('glaze');
    const viaGraphql = await graphql<GraphQLAnswer<Pick<Schema.Query, 'search'>>>(
      'query($q: String!, $c: [Int!]) { search(query: $q, companyIds: $c, topK: 3) { documentId page content } }',
      {
        q: `${marker} kilns demand`,
        c: [company],
      },
    );
    const graphqlHit = viaGraphql.body.data.search.find((candidate) => candidate.documentId === documentId);
    expect(graphqlHit).to.include({ page: 3 });
  });

  it('gives an answer\u2019s document citation the page it quotes from', async () => {
    const response = await request<Data<ChatDoneEvent>>('/v1/ai/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: `Why did FXGM revenue grow in fiscal ${fiscalYear.slice(2)}?` }],
        stream: false,
      }),
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const { answer, citations } = response.body.data;
    expect(answer).to.include(`${marker} kilns`);
    const cited = citations.filter((citation) => citation.kind === 'DOCUMENT' && citation.document_id === documentId);
    expect(cited.map((citation) => citation.page)).to.include(3);
    const statementCitations = citations.filter((citation) => citation.kind === 'STATEMENT');
    expect(statementCitations.every((citation) => citation.page === null)).to.equal(true);
  });
});
