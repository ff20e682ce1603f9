import type { EntityManager } from 'typeorm';
import { countTerms, termImpact } from './bm25';
import { searchableText } from './chunk-context';
import { Document } from './document.entity';
import type { Passage } from './document-reading.types';
import { toVectorLiteral, type Embedder } from './embedder';
import { encodeTermVector, MAX_TERM_FREQUENCY } from './term-vector';

/**
 * SQL of documents and their chunks, and of the BM25 index that ingestion keeps with them (postings, terms and
 * corpus statistics). Every write takes the caller's manager, so a document, its chunks and their index entries are
 * stored in one transaction.
 */

const CHUNKS_PER_INSERT = 500;
const POSTINGS_PER_INSERT = 5_000;
const VECTORS_PER_INSERT = 500;
const TERM_VECTORS_PER_INSERT = 500;
/** The advisory lock ingestions take turns at the term dictionary with (the start-up lock is 4,242,001). */
const TERM_DICTIONARY_LOCK_KEY = 4_242_002;

export interface NewChunk {
  content: string;
  /** 1-based page of the document the chunk comes from. */
  page: number;
  section: string | null;
  context: string;
}

export interface StoredChunk {
  id: number;
  companyId: number;
  /** Context line and content: what is indexed and embedded. */
  text: string;
}

/** The stored document with this text; one still being stored (`ingesting`) is not stored yet. */
export function findDocumentByHash(
  manager: EntityManager,
  companyId: number,
  contentHash: string,
): Promise<Document | null> {
  return manager
    .getRepository(Document)
    .createQueryBuilder('d')
    .where('d.companyId = :companyId AND d.contentHash = :contentHash AND NOT d.ingesting', { companyId, contentHash })
    .getOne();
}

/** Hides a document from readers while it is stored in several transactions, or shows it once its last one commits. */
export async function setIngesting(manager: EntityManager, documentId: number, ingesting: boolean): Promise<void> {
  await manager.query('UPDATE documents SET ingesting = $2 WHERE id = $1', [documentId, ingesting]);
}

/** Documents left half-stored by a failed or interrupted ingestion; only those with this text when it is given. */
export async function unfinishedDocuments(
  manager: EntityManager,
  sameText?: { companyId: number; contentHash: string },
): Promise<number[]> {
  const rows: Array<{ id: number }> = sameText
    ? await manager.query('SELECT id FROM documents WHERE ingesting AND company_id = $1 AND content_hash = $2', [
        sameText.companyId,
        sameText.contentHash,
      ])
    : await manager.query('SELECT id FROM documents WHERE ingesting');
  return rows.map((row) => row.id);
}

/** Deletes up to `limit` chunks of a document (their index entries leave with them, by trigger); returns how many. */
export async function deleteSomeChunks(manager: EntityManager, documentId: number, limit: number): Promise<number> {
  const [, deleted]: [unknown, number] = await manager.query(
    'DELETE FROM document_chunks WHERE id IN (SELECT id FROM document_chunks WHERE document_id = $1 LIMIT $2)',
    [documentId, limit],
  );
  return deleted;
}

export async function deleteDocument(manager: EntityManager, documentId: number): Promise<void> {
  await manager.query('DELETE FROM documents WHERE id = $1', [documentId]);
}

/** Name and ticker of a company, or null when there is none with that id. */
export async function companyNaming(
  manager: EntityManager,
  companyId: number,
): Promise<{ name: string; ticker: string } | null> {
  const [row]: Array<{ name: string; ticker: string }> = await manager.query(
    'SELECT name, ticker FROM companies WHERE id = $1',
    [companyId],
  );
  return row ?? null;
}

export function insertDocument(manager: EntityManager, fields: Omit<Document, 'id' | 'createdAt'>): Promise<Document> {
  const repository = manager.getRepository(Document);
  return repository.save(repository.create(fields));
}

/** Stores chunks of a document in order, the first at `firstOrdinal`, and indexes them; returns their ids. */
export async function insertChunks(
  manager: EntityManager,
  document: Document,
  chunks: NewChunk[],
  firstOrdinal = 0,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < chunks.length; start += CHUNKS_PER_INSERT) {
    const slice = chunks.slice(start, start + CHUNKS_PER_INSERT);
    const rows: Array<{ id: number }> = await manager.query(
      `INSERT INTO document_chunks (document_id, company_id, ordinal, content, page, section, context)
       SELECT $1, $2, ordinal, content, page, section, context
         FROM unnest($3::int[], $4::text[], $5::int[], $6::text[], $7::text[]) AS t(ordinal, content, page, section, context)
       ORDER BY ordinal RETURNING id`,
      [
        document.id,
        document.companyId,
        slice.map((_, i) => firstOrdinal + start + i),
        slice.map((c) => c.content),
        slice.map((c) => c.page),
        slice.map((c) => c.section),
        slice.map((c) => c.context),
      ],
    );
    ids.push(...rows.map((row) => row.id));
  }
  await indexChunks(
    manager,
    ids.map((id, i) => ({
      id,
      companyId: document.companyId,
      text: searchableText(chunks[i].context, chunks[i].content),
    })),
  );
  return ids;
}

/**
 * Adds chunks to the BM25 index: their postings, their term vectors (all their frequencies in one row, which scores a
 * candidate in one read), the chunk count of each of their terms, and the corpus totals.
 * Concurrent ingestions take turns at the term dictionary (a transaction-scoped advisory lock), so none waits on
 * another's term rows in an order that could deadlock.
 */
export async function indexChunks(manager: EntityManager, chunks: StoredChunk[]): Promise<void> {
  if (chunks.length === 0) return;
  const counted = chunks.map((chunk) => ({ chunk, ...countTerms(chunk.text) }));
  const addedTerms = counted.reduce((sum, c) => sum + c.length, 0);
  const [stats]: Array<{ chunks: string; total_terms: string }> = await manager.query(
    'SELECT chunks, total_terms FROM search_corpus_stats WHERE id = 1',
  );
  const corpusChunks = Number(stats?.chunks ?? 0) + chunks.length;
  const averageLength = (Number(stats?.total_terms ?? 0) + addedTerms) / corpusChunks;

  const postings = {
    term: [] as string[],
    chunk: [] as number[],
    company: [] as number[],
    frequency: [] as number[],
    length: [] as number[],
    impact: [] as number[],
  };
  const chunksPerTerm = new Map<string, number>();
  const flush = async () => {
    if (postings.term.length === 0) return;
    await manager.query(
      `INSERT INTO chunk_postings (term, chunk_id, company_id, frequency, chunk_terms, impact)
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::smallint[], $5::int[], $6::real[])`,
      [postings.term, postings.chunk, postings.company, postings.frequency, postings.length, postings.impact],
    );
    for (const list of Object.values(postings)) list.length = 0;
  };
  for (const { chunk, length, frequencies } of counted) {
    for (const [term, frequency] of frequencies) {
      postings.term.push(term);
      postings.chunk.push(chunk.id);
      postings.company.push(chunk.companyId);
      postings.frequency.push(Math.min(frequency, MAX_TERM_FREQUENCY));
      postings.length.push(length);
      postings.impact.push(termImpact(frequency, length, averageLength));
      chunksPerTerm.set(term, (chunksPerTerm.get(term) ?? 0) + 1);
    }
    if (postings.term.length >= POSTINGS_PER_INSERT) await flush();
  }
  await flush();
  // The terms' ids are what the term vectors below hold. A known term is counted, a new one inserted: an INSERT … ON
  // CONFLICT would take an identity value for every term, known or not, and the 4-byte ids would run out after about
  // a million ingestions. Ingestions take turns here (to their commit), so no other can insert a term in between;
  // they did already, since every one of them also writes the corpus totals' single row below.
  await manager.query('SELECT pg_advisory_xact_lock($1)', [TERM_DICTIONARY_LOCK_KEY]);
  const terms = [...chunksPerTerm.keys()];
  const counts = (list: string[]) => list.map((term) => chunksPerTerm.get(term));
  // TypeORM answers an UPDATE with [rows, count].
  const [known]: [Array<{ term: string; id: number }>, number] = await manager.query(
    `UPDATE search_terms s SET chunks = s.chunks + t.chunks FROM unnest($1::text[], $2::int[]) AS t(term, chunks)
      WHERE s.term = t.term RETURNING s.term, s.id`,
    [terms, counts(terms)],
  );
  const knownTerms = new Set(known.map((row) => row.term));
  const fresh = terms.filter((term) => !knownTerms.has(term));
  const added: Array<{ term: string; id: number }> =
    fresh.length === 0
      ? []
      : await manager.query(
          'INSERT INTO search_terms (term, chunks) SELECT * FROM unnest($1::text[], $2::int[]) RETURNING term, id',
          [fresh, counts(fresh)],
        );
  const termIds = new Map([...known, ...added].map((row) => [row.term, row.id]));
  await manager.query(
    `INSERT INTO search_corpus_stats (id, chunks, total_terms) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET chunks = search_corpus_stats.chunks + EXCLUDED.chunks, total_terms = search_corpus_stats.total_terms + EXCLUDED.total_terms`,
    [chunks.length, addedTerms],
  );
  await manager.query(
    'UPDATE document_chunks c SET term_count = t.length FROM unnest($1::int[], $2::int[]) AS t(id, length) WHERE c.id = t.id',
    [counted.map((c) => c.chunk.id), counted.map((c) => c.length)],
  );
  for (let start = 0; start < counted.length; start += TERM_VECTORS_PER_INSERT) {
    const batch = counted.slice(start, start + TERM_VECTORS_PER_INSERT);
    await manager.query(
      `INSERT INTO chunk_term_vectors (chunk_id, chunk_terms, terms)
       SELECT * FROM unnest($1::int[], $2::int[], $3::bytea[])`,
      [
        batch.map((c) => c.chunk.id),
        batch.map((c) => c.length),
        batch.map((c) =>
          encodeTermVector([...c.frequencies].map(([term, frequency]) => [termIds.get(term) as number, frequency])),
        ),
      ],
    );
  }
}

/** A document stored before chunks had a context and a BM25 index, with what is needed to give them both. */
export interface UnindexedDocument {
  id: number;
  companyId: number;
  companyName: string;
  ticker: string;
  docType: string;
  period: string | null;
  chunks: Array<{ id: number; content: string }>;
}

export async function nextUnindexedDocument(manager: EntityManager): Promise<UnindexedDocument | null> {
  const [document]: Array<Omit<UnindexedDocument, 'chunks'>> = await manager.query(
    `SELECT d.id, d.company_id AS "companyId", co.name AS "companyName", co.ticker, d.doc_type AS "docType", d.period
       FROM documents d JOIN companies co ON co.id = d.company_id
      WHERE d.id = (SELECT document_id FROM document_chunks WHERE term_count IS NULL LIMIT 1)`,
  );
  if (!document) return null;
  const chunks: Array<{ id: number; content: string }> = await manager.query(
    'SELECT id, content FROM document_chunks WHERE document_id = $1 ORDER BY ordinal',
    [document.id],
  );
  return { ...document, chunks };
}

export async function setChunkContexts(
  manager: EntityManager,
  chunks: Array<{ id: number; section: string | null; context: string }>,
): Promise<void> {
  await manager.query(
    'UPDATE document_chunks c SET section = t.section, context = t.context FROM unnest($1::int[], $2::text[], $3::text[]) AS t(id, section, context) WHERE c.id = t.id',
    [chunks.map((c) => c.id), chunks.map((c) => c.section), chunks.map((c) => c.context)],
  );
}

export async function countChunks(manager: EntityManager): Promise<number> {
  const [{ chunks }]: Array<{ chunks: number }> = await manager.query(
    'SELECT count(*)::int AS chunks FROM document_chunks',
  );
  return chunks;
}

/** Searchable texts of every `step`-th chunk after `after`, in id order (an even sample for fitting a model). */
export async function sampleChunkTexts(
  manager: EntityManager,
  after: number,
  step: number,
  limit: number,
): Promise<Array<{ id: number; text: string }>> {
  const rows: Array<{ id: number; context: string | null; content: string }> = await manager.query(
    'SELECT id, context, content FROM document_chunks WHERE id > $1 AND id % $2 = 0 ORDER BY id LIMIT $3',
    [after, step, limit],
  );
  return rows.map((row) => ({ id: row.id, text: searchableText(row.context, row.content) }));
}

/**
 * Chunks with ids in (after, through] that have no vector of `model` yet, at most `limit`, with their searchable
 * text, in id order. The id range bounds each statement's work when most chunks have their vector already (a scan
 * to the end of a 100,000-chunk table took over a second). The subquery's OFFSET 0 keeps it a lookup per chunk in
 * the primary key: as an anti-join, the planner scanned the whole primary key of chunk_embeddings instead.
 */
export async function chunksWithoutVector(
  manager: EntityManager,
  model: string,
  limit: number,
  after: number,
  through: number,
): Promise<StoredChunk[]> {
  const rows: Array<{ id: number; company_id: number; context: string | null; content: string }> = await manager.query(
    `SELECT c.id, c.company_id, c.context, c.content FROM document_chunks c
      WHERE c.id > $3 AND c.id <= $4 AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id AND e.model = $1 OFFSET 0)
      ORDER BY c.id LIMIT $2`,
    [model, limit, after, through],
  );
  return rows.map((row) => ({ id: row.id, companyId: row.company_id, text: searchableText(row.context, row.content) }));
}

/** The highest chunk id, 0 when there are none. */
export async function lastChunkId(manager: EntityManager): Promise<number> {
  const [{ last }]: Array<{ last: number }> = await manager.query(
    'SELECT coalesce(max(id), 0)::int AS last FROM document_chunks',
  );
  return last;
}

/** Writes vectors of `embedder`'s model for chunks (same order). */
export async function storeEmbeddings(
  manager: EntityManager,
  embedder: Embedder,
  chunks: Array<{ chunkId: number; companyId: number }>,
  vectors: number[][],
): Promise<void> {
  for (let start = 0; start < chunks.length; start += VECTORS_PER_INSERT) {
    const slice = chunks.slice(start, start + VECTORS_PER_INSERT);
    await manager.query(
      `INSERT INTO chunk_embeddings (chunk_id, model, company_id, embedding)
       SELECT chunk_id, $1::text, company_id, embedding::vector
         FROM unnest($2::int[], $3::int[], $4::text[]) AS t(chunk_id, company_id, embedding)
       -- A stored model a refit dropped meanwhile keeps no vectors: the new model's are filled in after.
       WHERE NOT $5::boolean OR EXISTS (SELECT 1 FROM embedding_models WHERE name = $1::text)
       ON CONFLICT DO NOTHING`,
      [
        embedder.model,
        slice.map((c) => c.chunkId),
        slice.map((c) => c.companyId),
        vectors.slice(start, start + VECTORS_PER_INSERT).map(toVectorLiteral),
        embedder.stored === true,
      ],
    );
  }
}

/** A document as the document viewer reads it: its row, its company's ticker and its passages. */
export interface DocumentToRead extends Document {
  ticker: string;
  passages: Passage[];
}

/** A document with its ticker and its chunks in reading order, in one query; null when there is none with that id. */
export async function findDocumentToRead(manager: EntityManager, id: number): Promise<DocumentToRead | null> {
  const [row]: DocumentToRead[] = await manager.query(
    `SELECT d.id, d.company_id AS "companyId", d.title, d.doc_type AS "docType", d.period, d.published_at AS "publishedAt",
            d.source_url AS "sourceUrl", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount", d.char_count AS "charCount",
            d.created_at AS "createdAt", co.ticker,
            (SELECT coalesce(json_agg(json_build_object('chunkId', c.id, 'page', c.page, 'content', c.content) ORDER BY c.ordinal), '[]'::json)
               FROM document_chunks c WHERE c.document_id = d.id) AS passages
       FROM documents d JOIN companies co ON co.id = d.company_id
      WHERE d.id = $1 AND NOT d.ingesting`,
    [id],
  );
  return row ?? null;
}

/** The chunks of a document in reading order: what the document viewer shows as its passages. */
export function documentPassages(manager: EntityManager, documentId: number): Promise<Passage[]> {
  return manager.query(
    'SELECT id AS "chunkId", page, content FROM document_chunks WHERE document_id = $1 ORDER BY ordinal',
    [documentId],
  );
}
