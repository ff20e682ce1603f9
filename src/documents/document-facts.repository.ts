import type { EntityManager } from 'typeorm';
import type { FactKind, FactScale, FactUnit } from './fact-extraction';

/** SQL of the figures read from documents; writes take the caller's manager, so they share the chunks' transaction. */

const FACTS_PER_INSERT = 1_000;

export interface NewDocumentFact {
  chunkId: number;
  period: string;
  label: string;
  context: string;
  value: number;
  scale: FactScale;
  unit: FactUnit;
  kind: FactKind;
}

/** A stored figure with the document and chunk it was read from. */
export interface StoredDocumentFact extends Omit<NewDocumentFact, 'chunkId'> {
  id: number;
  companyId: number;
  documentId: number;
  chunkId: number;
  title: string;
  docType: string;
  documentPeriod: string | null;
  /** The page of the document its chunk is on, from 1. */
  page: number;
  /** The document's publication date, else the day it was stored (YYYY-MM-DD). */
  documentDate: string;
}

export async function insertDocumentFacts(
  manager: EntityManager,
  documentId: number,
  companyId: number,
  facts: NewDocumentFact[],
): Promise<void> {
  for (let start = 0; start < facts.length; start += FACTS_PER_INSERT) {
    const slice = facts.slice(start, start + FACTS_PER_INSERT);
    await manager.query(
      `INSERT INTO document_facts (document_id, company_id, chunk_id, period, label, context, value, scale, unit, kind)
       SELECT $1, $2, * FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::text[], $10::text[])`,
      [
        documentId,
        companyId,
        slice.map((f) => f.chunkId),
        slice.map((f) => f.period),
        slice.map((f) => f.label.slice(0, 200)),
        slice.map((f) => f.context.slice(0, 300)),
        slice.map((f) => f.value),
        slice.map((f) => f.scale),
        slice.map((f) => f.unit),
        slice.map((f) => f.kind),
      ],
    );
  }
}

/**
 * The figures of the companies' stored documents (none of a document still being stored), in reading order; only
 * those read from tables, or from sentences, when `kind` is given.
 */
export function findDocumentFacts(
  manager: EntityManager,
  companyIds: number[],
  kind: FactKind | null = null,
): Promise<StoredDocumentFact[]> {
  return manager.query(
    `SELECT f.id::int AS id, f.company_id AS "companyId", f.document_id AS "documentId", f.chunk_id AS "chunkId", f.period, f.label, f.context,
            f.value, f.scale, f.unit, f.kind, d.title, d.period AS "documentPeriod", d.doc_type AS "docType", c.page,
            to_char(coalesce(d.published_at, d.created_at), 'YYYY-MM-DD') AS "documentDate"
       FROM document_facts f JOIN documents d ON d.id = f.document_id JOIN document_chunks c ON c.id = f.chunk_id
      WHERE f.company_id = ANY($1::int[]) AND NOT d.ingesting AND ($2::text IS NULL OR f.kind = $2)
      ORDER BY f.id`,
    [companyIds, kind],
  );
}

/** How many figures a document has stored (what ingestion reports). */
export async function countDocumentFacts(manager: EntityManager, documentId: number): Promise<number> {
  const [{ facts }]: Array<{ facts: number }> = await manager.query(
    'SELECT count(*)::int AS facts FROM document_facts WHERE document_id = $1',
    [documentId],
  );
  return facts;
}

/** Where a statement value read from a stored document was read: the document, its title and the page. */
export interface StatementDocumentSource {
  companyId: number;
  statement: string;
  period: string;
  field: string;
  documentId: number;
  title: string;
  page: number | null;
}

/** The document sources of the companies' statement values that were read from their documents. */
export function findStatementDocumentSources(
  manager: EntityManager,
  companyIds: number[],
): Promise<StatementDocumentSource[]> {
  return manager.query(
    `SELECT v.company_id AS "companyId", v.statement, v.period, v.field, v.document_id AS "documentId", d.title, v.page
       FROM statement_value_sources v JOIN documents d ON d.id = v.document_id
      WHERE v.company_id = ANY($1::int[]) AND v.document_id IS NOT NULL`,
    [companyIds],
  );
}
