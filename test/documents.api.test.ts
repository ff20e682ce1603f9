import { expect } from 'chai';
import { graphql, request, requestAs, post } from './helpers/http';
import type { Data, GraphQLAnswer, GraphQLFailure, Page, Refusal } from './helpers/http';
import type { Company, Document, IngestedDocument, Schema, SearchResult, StoredDocument } from '../sdk/typescript/src';

type DocumentAnswer = GraphQLAnswer<{ document: Schema.Document }>;

const DOCUMENT_FIELDS =
  'id companyId ticker title docType period publishedAt sourceUrl chunkCount charCount createdAt passages { chunkId content }';

describe('reading a document (GET /v1/documents/:id, GraphQL document)', () => {
  const marker = `quillwort ${Date.now()}`;
  const paragraphs = Array.from(
    { length: 30 },
    (_, i) =>
      `Section ${i}: the ${marker} plant ran at ${60 + i}% of capacity. ${'Output rose with demand. '.repeat(12)}`,
  );
  let companyId: number;
  let ticker: string;
  let documentId: number;
  let ingestedDocument: StoredDocument;

  before(async () => {
    const list = await request<Page<Company>>('/v1/companies?limit=1');
    ({ id: companyId, ticker } = list.body.data[0]);
    const ingested = await post<Data<IngestedDocument>>('/v1/documents', {
      company_id: companyId,
      title: 'Plant note',
      doc_type: 'note',
      period: 'FY2025',
      published_at: '2025-04-02',
      content: paragraphs.join('\n\n'),
    });
    expect(ingested.status).to.be.oneOf([200, 201]);
    ingestedDocument = ingested.body.data.document;
    documentId = ingestedDocument.id;
  });

  it('gives the document with its passages in reading order, the same over REST and GraphQL', async () => {
    const rest = await request<Data<Document>>(`/v1/documents/${documentId}`);
    expect(rest.status).to.equal(200);
    const document = rest.body.data;
    expect(document).to.include({
      id: documentId,
      company_id: companyId,
      ticker,
      title: 'Plant note',
      doc_type: 'note',
      period: 'FY2025',
    });
    expect(document.published_at).to.match(/^2025-04-02/);
    const { content_hash: _contentHash, ...answered } = ingestedDocument;
    expect(document, 'the fields ingestion answered, unchanged').to.include(answered);
    expect(document.passages).to.have.length(document.chunk_count).and.to.have.length.above(1);
    const text = document.passages.map((passage) => passage.content).join('\n');
    // Every paragraph is there, first to last, in order.
    const positions = paragraphs.map((paragraph) => text.indexOf(paragraph.slice(0, 40)));
    expect(positions.every((position) => position >= 0)).to.equal(true);
    expect(positions).to.deep.equal([...positions].sort((a, b) => a - b));

    const viaGraphql = await graphql<DocumentAnswer>(`query($id: Int!) { document(id: $id) { ${DOCUMENT_FIELDS} } }`, {
      id: documentId,
    });
    expect(viaGraphql.body.errors).to.equal(undefined);
    const fromGraphql = viaGraphql.body.data.document;
    expect(fromGraphql.passages).to.deep.equal(
      document.passages.map((passage) => ({
        chunkId: passage.chunk_id,
        content: passage.content,
      })),
    );
    expect(fromGraphql).to.include({
      id: documentId,
      companyId,
      ticker,
      title: document.title,
      docType: document.doc_type,
      chunkCount: document.chunk_count,
    });
  });

  it('gives the ticker and passages on the document ingestDocument answers too', async () => {
    const again = await graphql<GraphQLAnswer<{ ingestDocument: Schema.IngestDocumentResult }>>(
      `mutation($content: String!, $companyId: Int!) { ingestDocument(input: { companyId: $companyId, title: "Plant note", docType: "note", content: $content }) { created document { ${DOCUMENT_FIELDS} } } }`,
      { content: paragraphs.join('\n\n'), companyId },
    );
    expect(again.body.errors).to.equal(undefined);
    expect(again.body.data.ingestDocument.created).to.equal(false);
    const read = await graphql<DocumentAnswer>(`query($id: Int!) { document(id: $id) { ${DOCUMENT_FIELDS} } }`, {
      id: documentId,
    });
    expect(again.body.data.ingestDocument.document).to.deep.equal(read.body.data.document);
  });

  it('holds the passage a search hit points at, under the hit\u2019s chunk id', async () => {
    const search = await post<Data<SearchResult[]>>('/v1/search', {
      query: `${marker} plant capacity`,
      company_ids: [companyId],
      mode: 'text',
      top_k: 3,
    });
    const hit = search.body.data.find((result) => result.document_id === documentId);
    expect(hit, 'a hit in the ingested document').to.not.equal(undefined);
    const { body } = await request<Data<Document>>(`/v1/documents/${hit!.document_id}`);
    const passage = body.data.passages.find((candidate) => candidate.chunk_id === hit!.chunk_id);
    expect(passage!.content).to.equal(hit!.content);
  });

  it('answers an unknown id with NOT_FOUND in the envelope (404 over REST)', async () => {
    const rest = await request<Refusal>('/v1/documents/987654');
    expect(rest.status).to.equal(404);
    expect(rest.body).to.deep.equal({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No document with id 987654' },
    });
    const viaGraphql = await graphql<GraphQLFailure>('{ document(id: 987654) { id } }');
    expect(viaGraphql.body.errors[0].extensions.code).to.equal('NOT_FOUND');
  });

  it('answers a bad id with 400', async () => {
    for (const bad of ['abc', '-3', '1.5', '0']) {
      const rest = await request<Refusal>(`/v1/documents/${bad}`);
      expect(rest.status, bad).to.equal(400);
      expect(rest.body.success).to.equal(false);
      expect(rest.body.error.code).to.equal('BAD_USER_INPUT');
    }
  });

  it('is for analysts, as the catalog says: anonymous 401, viewer 403', async () => {
    expect((await requestAs(null, `/v1/documents/${documentId}`)).status).to.equal(401);
    expect((await requestAs('viewer', `/v1/documents/${documentId}`)).status).to.equal(403);
    expect((await requestAs('analyst', `/v1/documents/${documentId}`)).status).to.equal(200);
  });
});
