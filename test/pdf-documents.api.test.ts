import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { get, graphql, post } from './helpers/http';
import type { Data, GraphQLAnswer, GraphQLFailure, Page, Refusal } from './helpers/http';
import { runCli } from './helpers/cli';
import { keysFor } from './helpers/keys';
import { makePdf, type PdfLine } from './helpers/pdf';
import { itemsToText, pdfPages } from '../src/search/pdf-text';
import { CHUNKS_PER_TRANSACTION, ingestDocument } from '../src/search/ingestion.service';
import { ProviderModel } from '../src/search/embedding-models';
import type { Embedder } from '../src/search/embedder';
import { OneAtATime } from '../src/shared/one-at-a-time';
import type { Company, Document, IngestedDocument, Schema, SearchResult } from '../sdk/typescript/src';

const sql = <T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]> =>
  app().database.dataSource.query(query, parameters);

/** Rows every stored document adds to, and the search index's totals: unchanged when nothing was stored. */
async function footprint(): Promise<Record<string, number>> {
  const [row] = await sql<
    Record<string, number>
  >(`SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM document_chunks)::int AS chunks,
    (SELECT count(*) FROM chunk_postings)::int AS postings, (SELECT coalesce(sum(chunks), 0)::int FROM search_terms) AS term_chunks,
    (SELECT chunks::int FROM search_corpus_stats WHERE id = 1) AS corpus_chunks`);
  return row;
}

async function companyId(ticker: string): Promise<number> {
  return (await get<Page<Company>>(`/v1/companies?ticker=${ticker}`)).body.data[0].id;
}

const ingest = (body: unknown) => post<Data<IngestedDocument>>('/v1/documents', body);
const readDocument = async (id: number) => (await get<Data<Document>>(`/v1/documents/${id}`)).body;

const base64 = (bytes: Buffer) => bytes.toString('base64');

/** A three-page report: text, an empty page, and a page with a statement table. */
function report(marker: string): PdfLine[][] {
  return [
    ['Annual report 2025', `The ${marker} company makes kilns (and glazes).`],
    [],
    [
      'Consolidated statements of operations (in millions)',
      [
        [72, 'Net sales'],
        [320, '1,234'],
        [420, '1,100'],
      ],
      [
        [72, 'Cost of sales'],
        [320, '(700)'],
        [420, '(650)'],
      ],
      `Demand for ${marker} kilns rose in ceramic markets.`,
    ],
  ];
}

describe('reading PDFs (unit)', () => {
  it('gives each page\u2019s text, with a table row\u2019s cells apart and empty pages kept', async () => {
    const pages = await pdfPages(makePdf(report('ashlar')));
    expect(pages).to.deep.equal([
      'Annual report 2025\nThe ashlar company makes kilns (and glazes).',
      '',
      'Consolidated statements of operations (in millions)\nNet sales | 1,234 | 1,100\nCost of sales | (700) | (650)\nDemand for ashlar kilns rose in ceramic markets.',
    ]);
  });

  it('joins items of one line, splits lines where the text moves down', () => {
    const item = (str: string, x: number, y: number, width: number) => ({
      str,
      transform: [10, 0, 0, 10, x, y],
      width,
      height: 10,
    });
    expect(
      itemsToText([
        item('Total', 72, 700, 25),
        item('revenue', 99, 700, 35),
        item('12', 300, 700, 10),
        item('Next line', 72, 686, 40),
      ]),
    ).to.equal('Total revenue | 12\nNext line');
  });

  it('refuses a corrupt, an encrypted and a non-PDF file with BAD_USER_INPUT naming the bytes', async () => {
    const whole = makePdf(report('x'));
    const cases: Array<[Buffer, RegExp]> = [
      [whole.subarray(0, Math.floor(whole.length / 3)), /could not be read/],
      [makePdf([['secret figures']], { encrypted: true }), /encrypted with a password/],
      [Buffer.from('PK\u0003\u0004 a zip file'), /not a PDF/],
    ];
    for (const [bytes, message] of cases) {
      const refusal = await pdfPages(bytes).then(
        () => null,
        (error) => error,
      );
      expect(refusal).to.include({ code: 'BAD_USER_INPUT' });
      expect(refusal.message).to.match(message);
      expect(refusal.details).to.deep.equal({ field: 'content_base64' });
    }
  });
});

describe('storing PDFs (POST /v1/documents, ingestDocument, npm run ingest)', function () {
  this.timeout(120_000);
  let company: number;

  before(async () => {
    company = await companyId('KHWO');
  });

  it('stores a PDF sent in base64, page by page, and finds its passages with their pages', async () => {
    const marker = `tessaline${Date.now()}`;
    const pdf = base64(makePdf(report(marker)));
    const body = {
      company_id: company,
      title: 'KHWO annual report',
      doc_type: '10-K',
      period: 'FY2025',
      content_base64: pdf,
      content_type: 'application/pdf',
    };
    const stored = await ingest(body);
    expect(stored.status, JSON.stringify(stored.body)).to.equal(201);
    expect(stored.body.data.created).to.equal(true);
    const { id, chunk_count: chunkCount } = stored.body.data.document;
    expect(chunkCount).to.equal(2);

    const read = await readDocument(id);
    expect(read.data.passages.map((passage) => passage.page)).to.deep.equal([1, 3]);
    expect(read.data.passages[1].content).to.include('Net sales | 1,234 | 1,100');

    const search = await post<Data<SearchResult[]>>('/v1/search', {
      query: `${marker} kilns demand ceramic`,
      company_ids: [company],
      top_k: 5,
    });
    const hit = search.body.data.find((candidate) => candidate.document_id === id);
    expect(hit).to.include({ page: 3 });

    const again = await ingest(body);
    expect(again.status).to.equal(200);
    expect(again.body.data).to.deep.include({ created: false });
    expect(again.body.data.document.id).to.equal(id);
  });

  it('stores a PDF through the GraphQL mutation, and text in base64 with form feeds', async () => {
    const marker = `orpheline${Date.now()}`;
    const viaGraphql = await graphql<GraphQLAnswer<{ ingestDocument: Schema.IngestDocumentResult }>>(
      `
        mutation ($input: IngestDocumentInput!) {
          ingestDocument(input: $input) {
            created
            document {
              id
              chunkCount
              passages {
                page
                content
              }
            }
          }
        }
      `,
      {
        input: {
          companyId: company,
          title: 'KHWO note',
          docType: 'note',
          contentBase64: base64(makePdf([[`First ${marker} page.`], [`Second ${marker} page.`]])),
          contentType: 'application/pdf',
        },
      },
    );
    expect(viaGraphql.body.errors, JSON.stringify(viaGraphql.body.errors)).to.equal(undefined);
    expect(viaGraphql.body.data.ingestDocument.document.passages).to.deep.equal([
      { page: 1, content: `First ${marker} page.` },
      { page: 2, content: `Second ${marker} page.` },
    ]);

    const text = await ingest({
      company_id: company,
      title: 'KHWO text pages',
      doc_type: 'note',
      content_base64: base64(Buffer.from(`Page one ${marker}.\fPage two ${marker}.`)),
      content_type: 'text/plain; charset=utf-8',
    });
    expect(text.status, JSON.stringify(text.body)).to.equal(201);
    const body = await readDocument(text.body.data.document.id);
    expect(body.data.passages.map((passage) => passage.page)).to.deep.equal([1, 2]);
  });

  it('refuses a corrupt or encrypted PDF with 400, another type with 415, and stores nothing', async () => {
    const before = await footprint();
    const send = (fields: Record<string, unknown>) =>
      post<Refusal>('/v1/documents', { company_id: company, title: 'Bad', doc_type: 'other', ...fields });
    const whole = makePdf(report('corrupt'));
    const corrupt = await send({
      content_base64: base64(whole.subarray(0, whole.length - 200)),
      content_type: 'application/pdf',
    });
    expect(corrupt.status).to.equal(400);
    expect(corrupt.body.error).to.deep.include({ code: 'BAD_USER_INPUT', details: { field: 'content_base64' } });
    expect(corrupt.body.error.message).to.match(/^the PDF could not be read/);

    const encrypted = await send({
      content_base64: base64(makePdf([['secret']], { encrypted: true })),
      content_type: 'application/pdf',
    });
    expect(encrypted.status).to.equal(400);
    expect(encrypted.body.error.message).to.equal('the PDF is encrypted with a password: store a copy without one');

    const noText = await send({ content_base64: base64(makePdf([[], []])), content_type: 'application/pdf' });
    expect(noText.status).to.equal(400);
    expect(noText.body.error.message).to.match(/the PDF has no text/);

    const word = await send({
      content_base64: base64(Buffer.from('PK\u0003\u0004')),
      content_type: 'application/msword',
    });
    expect(word.status).to.equal(415);
    expect(word.body.error).to.deep.include({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(word.body.error.details).to.deep.include({ field: 'content_type' });
    expect(word.body.error.details?.accepted).to.include('application/pdf');

    const latin1 = await send({
      content_base64: base64(Buffer.from('caf\u00e9', 'latin1')),
      content_type: 'text/plain; charset=iso-8859-1',
    });
    expect(latin1.status).to.equal(415);

    const fieldOf = async (fields: Record<string, unknown>) => {
      const answer = await send(fields);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
      return answer.body.error.details?.field;
    };
    expect(await fieldOf({ content_base64: 'not base64!', content_type: 'application/pdf' })).to.equal(
      'content_base64',
    );
    expect(await fieldOf({ content_base64: base64(whole) })).to.equal('content_type');
    expect(await fieldOf({})).to.equal('content');
    expect(await fieldOf({ content: 'text', content_base64: base64(whole), content_type: 'application/pdf' })).to.equal(
      'content_base64',
    );
    expect(
      await fieldOf({ content_base64: base64(Buffer.from([0xff, 0xfe, 0x41])), content_type: 'text/plain' }),
    ).to.equal('content_base64');

    const viaGraphql = await graphql<GraphQLFailure>(
      'mutation($input: IngestDocumentInput!) { ingestDocument(input: $input) { created } }',
      {
        input: {
          companyId: company,
          title: 'Bad',
          docType: 'other',
          contentBase64: base64(whole.subarray(0, 300)),
          contentType: 'application/pdf',
        },
      },
    );
    expect(viaGraphql.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
    expect(await footprint()).to.deep.equal(before);
  });

  it('leaves nothing of a PDF whose storing fails half-way through its transactions', async function () {
    // The failure comes from the embedder, which runs only where pgvector stores vectors.
    if (!app().database.vectorAvailable) this.skip();
    const pages = Array.from({ length: CHUNKS_PER_TRANSACTION * 3 }, (_, i) => [
      `Page ${i + 1} of the failing report says the quarrelite${i} figure.`,
    ]);
    let calls = 0;
    const failing: Embedder = {
      model: 'failing-pdf-test-model',
      dimensions: 8,
      embedDocuments: async (texts) => {
        calls += 1;
        if (calls === 2) throw new Error('the embedding provider went away');
        return texts.map(() => [1, 0, 0, 0, 0, 0, 0, 0]);
      },
      embedQuery: async () => [1, 0, 0, 0, 0, 0, 0, 0],
    };
    const backend = {
      dataSource: app().database.dataSource,
      models: new ProviderModel(failing),
      vectorAvailable: true,
      iterativeScan: false,
      ingestionTurns: new OneAtATime(),
    };
    const before = await footprint();
    const input = {
      companyId: company,
      title: 'Failing report',
      docType: 'annual-report',
      format: 'TEXT' as const,
      contentBase64: base64(makePdf(pages)),
      contentType: 'application/pdf',
    };
    const failure = await ingestDocument(backend, input).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).to.equal('the embedding provider went away');
    expect(calls, 'the first transaction of chunks was committed before the failure').to.equal(2);
    expect(await footprint()).to.deep.equal(before);

    calls = 10;
    const stored = await ingestDocument(backend, input);
    expect(stored.document.chunkCount).to.equal(pages.length);
    const rows = await sql<{ page: number }>(
      'SELECT page FROM document_chunks WHERE document_id = $1 ORDER BY ordinal',
      [stored.document.id],
    );
    expect(rows.map((row) => row.page)).to.deep.equal(pages.map((_, i) => i + 1));
  });

  it('reads .pdf files in npm run ingest, and reports a corrupt one as failed', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-ingest-pdf-'));
    const marker = `calvarine${Date.now()}`;
    fs.writeFileSync(
      path.join(folder, 'report.pdf'),
      makePdf([[`Cover of the ${marker} report.`], [`Results of the ${marker} year.`]]),
    );
    fs.writeFileSync(path.join(folder, 'broken.pdf'), makePdf([['broken']]).subarray(0, 120));
    const result = await runCli('ingest', [
      folder,
      '--company',
      'KHWO',
      '--type',
      '10-K',
      '--api',
      app().url,
      '--key',
      keysFor(app().url).admin,
    ]);
    expect(result.status, result.stdout + result.stderr).to.equal(1);
    expect(result.stdout).to.match(/broken\.pdf: failed: 400 BAD_USER_INPUT: the PDF could not be read/);
    expect(result.stdout).to.match(/report\.pdf: stored as document \d+, 2 chunks/);
    const id = Number(/report\.pdf: stored as document (\d+)/.exec(result.stdout)?.[1]);
    const body = await readDocument(id);
    expect(body.data.title).to.equal('report');
    expect(body.data.passages.map((passage) => [passage.page, passage.content])).to.deep.equal([
      [1, `Cover of the ${marker} report.`],
      [2, `Results of the ${marker} year.`],
    ]);
  });
});
