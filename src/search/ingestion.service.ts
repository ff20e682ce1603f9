import { CAPS } from '../operations/catalog';
import type { DataSource, EntityManager } from 'typeorm';
import { giveWayToRequests } from '../db/give-way';
import { AppError, badUserInput } from '../shared/errors';
import { parseExactPeriod } from '../statements/fiscal-period';
import { contextLine, searchableText, sectionsOf } from './chunk-context';
import type { Document } from './document.entity';
import {
  companyNaming,
  deleteDocument,
  deleteSomeChunks,
  findDocumentByHash,
  indexChunks,
  insertChunks,
  insertDocument,
  nextUnindexedDocument,
  setChunkContexts,
  setIngesting,
  storeEmbeddings,
  unfinishedDocuments,
  type NewChunk,
} from './documents.repository';
import type { Embedder } from './embedder';
import { documentSource } from './document-source';
import { prepareSourceAside } from './text-preparation';
import { hasText } from './text-extraction';
import type { IngestDocumentInput } from './search.types';
import type { SearchBackend } from './search-backend.types';
import { insertDocumentFacts } from '../documents/document-facts.repository';
import { refreshDocumentStatements } from '../documents/document-statements.service';
import type { PlacedFact } from '../documents/fact-extraction';

export const DOC_TYPES: readonly string[] = CAPS.ingestDocument.docTypes;
export const MAX_DOCUMENT_CHARS = 5_000_000;

/**
 * Chunks stored per transaction when a document is stored in several: a reader waits for at most one such
 * transaction (about 1,000 characters a chunk).
 */
export const CHUNKS_PER_TRANSACTION = 16;

export interface IngestResult {
  document: Document;
  created: boolean;
}

function required(value: string | null | undefined, name: string, maxLength: number): string {
  const trimmed = value?.trim() ?? '';
  if (!trimmed) throw badUserInput(`${name} must not be empty`);
  if (trimmed.includes('\u0000')) throw badUserInput(`${name} must not contain NUL characters`);
  if (trimmed.length > maxLength) throw badUserInput(`${name} must be at most ${maxLength} characters`);
  return trimmed;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$)/;

/** An ISO 8601 date (2024-11-01) or date-time with a time zone (2024-11-01T16:30:00Z); impossible dates are refused. */
export function parseDate(value: string | null | undefined, field: string): Date | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const text = value.trim();
  const match = DATE.exec(text);
  const date = new Date(text);
  const [year, month, day] = match ? match.slice(1, 4).map(Number) : [];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (!match || Number.isNaN(date.getTime()) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw badUserInput(
      `${field} must be an ISO 8601 date such as 2024-11-01 (or a date-time with a time zone), got "${value}"`,
    );
  }
  return date;
}

function optionalUrl(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    if (url.toString().length > 2000) throw new Error('too long');
    return url.toString();
  } catch {
    throw badUserInput(`source_url must be an http(s) URL of at most 2000 characters, got "${value.slice(0, 100)}"`);
  }
}

function checkLength(characters: number): void {
  if (characters <= MAX_DOCUMENT_CHARS) return;
  throw new AppError(
    'PAYLOAD_TOO_LARGE',
    `content has ${characters.toLocaleString('en-US')} characters; a document holds at most ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')} (the document content limit): split it into sections`,
    { limit: MAX_DOCUMENT_CHARS, characters },
  );
}

/** Validates and normalizes the input; throws BAD_USER_INPUT naming the field at fault. */
async function prepare(input: IngestDocumentInput) {
  const docType = required(input.docType, 'doc_type', 40);
  const canonicalType = DOC_TYPES.find((type) => type.toLowerCase() === docType.toLowerCase());
  if (!canonicalType)
    throw badUserInput(`doc_type "${docType}" is not supported; use one of ${DOC_TYPES.join(', ')}`, {
      field: 'doc_type',
      accepted: DOC_TYPES,
    });
  let period: string | null = null;
  if (input.period !== null && input.period !== undefined && input.period.trim() !== '') {
    const parsed = parseExactPeriod(input.period);
    if (!parsed) throw badUserInput(`period must be Q<1-4>-<yyyy> or FY<yyyy>, got "${input.period}"`);
    period = parsed.label;
  }
  const source = documentSource(input);
  if (source.kind === 'text') {
    checkLength(source.content.length);
    if (source.content.includes('\u0000'))
      throw badUserInput('content must not contain NUL characters (is the file UTF-8 text?)', { field: 'content' });
  }
  const { text, contentHash, chunks, facts } = await prepareSourceAside(source, period);
  checkLength(text.length);
  if (!hasText(text))
    throw badUserInput(
      source.kind === 'pdf'
        ? 'the PDF has no text (a scanned PDF needs text recognition first)'
        : 'content has no text',
      { field: source.kind === 'pdf' ? 'content_base64' : 'content' },
    );
  return {
    title: required(input.title, 'title', 300),
    docType: canonicalType,
    period,
    publishedAt: parseDate(input.publishedAt, 'published_at'),
    section: input.section?.trim() ? required(input.section, 'section', 300) : null,
    sourceUrl: optionalUrl(input.sourceUrl),
    text,
    contentHash,
    chunks,
    facts,
  };
}

type DocumentFields = Omit<Document, 'id' | 'createdAt'>;

/**
 * Stores a document with its chunks and their embeddings: all of it or nothing. The same text for the same company
 * is stored once; asking again returns the existing document with `created: false`.
 */
export async function ingestDocument(backend: SearchBackend, input: IngestDocumentInput): Promise<IngestResult> {
  const { dataSource } = backend;
  const prepared = await prepare(input);
  const company = await companyNaming(dataSource.manager, input.companyId);
  if (!company) throw new AppError('NOT_FOUND', `No company with id ${input.companyId}`);
  const existing = await findDocumentByHash(dataSource.manager, input.companyId, prepared.contentHash);
  if (existing) return { document: existing, created: false };

  const contents = prepared.chunks;
  const naming = {
    companyName: company.name,
    ticker: company.ticker,
    docType: prepared.docType,
    period: prepared.period,
  };
  const sections = sectionsOf(
    contents.map((chunk) => chunk.content),
    prepared.section,
  );
  const chunks: ChunkToStore[] = contents.map(({ content, page }, i) => ({
    content,
    page,
    section: sections[i],
    context: contextLine(naming, sections[i]),
    facts: prepared.facts.filter((fact) => fact.chunk === i),
  }));
  // Before the built-in model's first fit there is no model: the fit embeds these chunks with everything else.
  const embedder = backend.vectorAvailable ? await backend.models.current() : null;
  const fields: DocumentFields = {
    companyId: input.companyId,
    title: prepared.title,
    docType: prepared.docType,
    period: prepared.period,
    publishedAt: prepared.publishedAt,
    sourceUrl: prepared.sourceUrl,
    contentHash: prepared.contentHash,
    chunkCount: chunks.length,
    charCount: prepared.text.length,
  };
  const turns = backend.ingestionTurns;
  const result = turns
    ? await turns.run(() => storeInTransactions(dataSource, fields, chunks, embedder))
    : await storeInOneTransaction(dataSource, fields, chunks, embedder);
  if (result.created) backend.models.documentsAdded(embedder?.model ?? null);
  return result;
}

async function embed(embedder: Embedder | null, chunks: NewChunk[]): Promise<number[][] | null> {
  return embedder ? embedder.embedDocuments(chunks.map((chunk) => searchableText(chunk.context, chunk.content))) : null;
}

/** A chunk with the figures read from it: both are stored in the same transaction. */
type ChunkToStore = NewChunk & { facts: PlacedFact[] };

async function storeChunks(
  manager: EntityManager,
  document: Document,
  chunks: ChunkToStore[],
  firstOrdinal: number,
  embedder: Embedder | null,
  vectors: number[][] | null,
): Promise<void> {
  const chunkIds = await insertChunks(manager, document, chunks, firstOrdinal);
  if (embedder && vectors)
    await storeEmbeddings(
      manager,
      embedder,
      chunkIds.map((chunkId) => ({ chunkId, companyId: document.companyId })),
      vectors,
    );
  const facts = chunks.flatMap((chunk, i) => chunk.facts.map((fact) => ({ ...fact, chunkId: chunkIds[i] })));
  if (facts.length > 0) await insertDocumentFacts(manager, document.id, document.companyId, facts);
}

async function storeInOneTransaction(
  dataSource: DataSource,
  fields: DocumentFields,
  chunks: ChunkToStore[],
  embedder: Embedder | null,
): Promise<IngestResult> {
  // Embedding may call a remote provider: do it before the transaction, which then holds its connection briefly.
  const vectors = await embed(embedder, chunks);
  try {
    return await dataSource.transaction(async (manager) => {
      const document = await insertDocument(manager, fields);
      await storeChunks(manager, document, chunks, 0, embedder, vectors);
      await refreshDocumentStatements(manager, document.companyId);
      return { document, created: true };
    });
  } catch (error) {
    // Two requests with the same text raced; the other one stored it.
    if ((error as { code?: string }).code === '23505') {
      const winner = await findDocumentByHash(dataSource.manager, fields.companyId, fields.contentHash);
      if (winner) return { document: winner, created: false };
    }
    throw error;
  }
}

/**
 * Stores a document in transactions of CHUNKS_PER_TRANSACTION chunks, giving way to waiting requests before each.
 * The document is `ingesting`, which every reader passes by, until the last one shows it; on failure what was
 * written is removed (and what a crash leaves, at the next start). Runs in its turn: one document at a time.
 */
async function storeInTransactions(
  dataSource: DataSource,
  fields: DocumentFields,
  chunks: ChunkToStore[],
  embedder: Embedder | null,
): Promise<IngestResult> {
  const { manager } = dataSource;
  // An ingestion of the same text that was ahead in the queue may have stored it; one that failed may have left it.
  const stored = await findDocumentByHash(manager, fields.companyId, fields.contentHash);
  if (stored) return { document: stored, created: false };
  for (const id of await unfinishedDocuments(manager, fields)) await removeDocument(dataSource, id);

  const document = await dataSource.transaction(async (transaction) => {
    const inserted = await insertDocument(transaction, fields);
    await setIngesting(transaction, inserted.id, true);
    return inserted;
  });
  try {
    for (let start = 0; start < chunks.length; start += CHUNKS_PER_TRANSACTION) {
      const batch = chunks.slice(start, start + CHUNKS_PER_TRANSACTION);
      const vectors = await embed(embedder, batch);
      await giveWayToRequests(manager);
      await dataSource.transaction((transaction) =>
        storeChunks(transaction, document, batch, start, embedder, vectors),
      );
    }
    // Shown, with the statements its tables give, at once.
    await dataSource.transaction(async (transaction) => {
      await setIngesting(transaction, document.id, false);
      await refreshDocumentStatements(transaction, document.companyId);
    });
    return { document, created: true };
  } catch (error) {
    await removeDocument(dataSource, document.id).catch(() => undefined);
    throw error;
  }
}

/** Removes a document that was not completely stored, in bounded transactions like those that stored it. */
async function removeDocument(dataSource: DataSource, documentId: number): Promise<void> {
  const { manager } = dataSource;
  for (;;) {
    await giveWayToRequests(manager);
    if ((await deleteSomeChunks(manager, documentId, CHUNKS_PER_TRANSACTION * 4)) === 0) break;
  }
  await deleteDocument(manager, documentId);
}

/** Removes what interrupted ingestions left (a crash while a document was stored in several transactions); returns how many. */
export async function removeUnfinishedDocuments(dataSource: DataSource): Promise<number> {
  const unfinished = await unfinishedDocuments(dataSource.manager);
  for (const id of unfinished) await removeDocument(dataSource, id);
  return unfinished.length;
}

/**
 * Gives chunks stored before chunks had a context line and a BM25 index both, one document per transaction; returns
 * the number of chunks indexed. Run at start-up on the start-up lock's connection; nothing to do on a current database.
 */
export async function indexStoredChunks(connection: EntityManager): Promise<number> {
  let indexed = 0;
  for (;;) {
    const done = await connection.transaction(async (manager) => {
      const document = await nextUnindexedDocument(manager);
      if (!document) return 0;
      const sections = sectionsOf(document.chunks.map((chunk) => chunk.content));
      const chunks = document.chunks.map((chunk, i) => ({
        ...chunk,
        section: sections[i],
        context: contextLine(document, sections[i]),
      }));
      await setChunkContexts(manager, chunks);
      await indexChunks(
        manager,
        chunks.map((chunk) => ({
          id: chunk.id,
          companyId: document.companyId,
          text: searchableText(chunk.context, chunk.content),
        })),
      );
      return chunks.length;
    });
    if (done === 0) return indexed;
    indexed += done;
  }
}
