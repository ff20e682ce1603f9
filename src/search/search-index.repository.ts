import type { EntityManager } from 'typeorm';
import type { CorpusStats } from './bm25';
import type { SearchHit } from './search.types';
import { frequenciesIn } from './term-vector';

/** SQL of the read side of search: collection statistics, postings, nearest vectors and the rows of hits. */

/** Which chunks a search may return; null or absent means no restriction of that kind. */
export interface ChunkFilter {
  companyIds: number[] | null;
  periods?: string[] | null;
  docTypes?: string[] | null;
  /** Item labels ("item 7"), matched exactly, lower case. */
  sectionItems?: string[] | null;
  /** Words of a section title ("risk factors"), matched inside it, lower case. */
  sectionPhrases?: string[] | null;
  publishedFrom?: Date | null;
  publishedTo?: Date | null;
}

/** Whether the filter restricts more than companies (then the document rows must be read). */
export function restrictsDocuments(filter: ChunkFilter): boolean {
  return Boolean(
    filter.periods ||
    filter.docTypes ||
    filter.sectionItems ||
    filter.sectionPhrases ||
    filter.publishedFrom ||
    filter.publishedTo,
  );
}

/**
 * `EXISTS (…)` that holds when the chunk named by `chunkColumn` passes the document filters, with its parameters
 * numbered from `first`.
 */
export function documentCondition(
  chunkColumn: string,
  filter: ChunkFilter,
  first: number,
): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const next = (value: unknown) => {
    parameters.push(value);
    return `$${first + parameters.length - 1}`;
  };
  const conditions: string[] = [];
  if (filter.periods) conditions.push(`d.period = ANY(${next(filter.periods)}::text[])`);
  if (filter.docTypes) conditions.push(`d.doc_type = ANY(${next(filter.docTypes)}::text[])`);
  if (filter.publishedFrom) conditions.push(`d.published_at >= ${next(filter.publishedFrom)}`);
  if (filter.publishedTo) conditions.push(`d.published_at < ${next(filter.publishedTo)}`);
  const sections: string[] = [];
  if (filter.sectionItems)
    sections.push(`split_part(lower(c.section), '.', 1) = ANY(${next(filter.sectionItems)}::text[])`);
  if (filter.sectionPhrases)
    sections.push(
      `EXISTS (SELECT 1 FROM unnest(${next(filter.sectionPhrases)}::text[]) AS s(phrase) WHERE strpos(lower(c.section), s.phrase) > 0)`,
    );
  if (sections.length > 0) conditions.push(`(${sections.join(' OR ')})`);
  return {
    sql: `EXISTS (SELECT 1 FROM document_chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ${chunkColumn} AND ${conditions.join(' AND ')})`,
    parameters,
  };
}

/**
 * The collection statistics and, for each of `terms` that is in the index, the chunks containing it and its id (what
 * the term vectors hold), in one statement.
 */
export async function termStatistics(
  manager: EntityManager,
  terms: string[],
): Promise<{ stats: CorpusStats; chunksPerTerm: Map<string, number>; termIds: Map<string, number> }> {
  const rows: Array<{ term: string | null; chunks: string | number; id: number | null }> = await manager.query(
    `SELECT NULL AS term, chunks, total_terms, NULL::int AS id FROM search_corpus_stats WHERE id = 1
     UNION ALL
     SELECT term, chunks, NULL, id FROM search_terms WHERE term = ANY($1::text[]) AND chunks > 0`,
    [terms],
  );
  const totals = rows.find((row) => row.term === null) as { chunks: string; total_terms: string } | undefined;
  const chunks = Number(totals?.chunks ?? 0);
  const termRows = rows.filter((row) => row.term !== null);
  return {
    stats: { chunks, averageLength: chunks > 0 ? Number(totals?.total_terms) / chunks : 0 },
    chunksPerTerm: new Map(termRows.map((row) => [row.term as string, Number(row.chunks)])),
    termIds: new Map(termRows.map((row) => [row.term as string, row.id as number])),
  };
}

export interface Posting {
  chunk_id: number;
  term: string;
  frequency: number;
  chunk_terms: number;
}

/**
 * The best `perTerm` chunks of each of `candidateTerms` by precomputed impact (read from the impact index, so a common
 * term costs `perTerm` rows, not its whole posting list: a rare term's whole list, a common term's best part), then
 * every posting of `scoredTerms` (each with its id in `termIds`) in those chunks, to score them exactly. The postings
 * come from each chunk's term vector (one compact row per chunk, see term-vector), not from a look-up per chunk and
 * term: a few thousand candidates times a few dozen terms of index probes were most of a global query's time. A
 * chunk's postings are listed in the order of `scoredTerms`.
 */
export async function postingsOfTopChunks(
  manager: EntityManager,
  {
    candidateTerms,
    scoredTerms,
    termIds,
    perTerm,
  }: { candidateTerms: string[]; scoredTerms: string[]; termIds: ReadonlyMap<string, number>; perTerm: number },
): Promise<Posting[]> {
  const rows: Array<{ chunk_id: number; chunk_terms: number; terms: Buffer }> = await manager.query(
    `SELECT v.chunk_id, v.chunk_terms, v.terms
       FROM chunk_term_vectors v
      WHERE v.chunk_id = ANY(ARRAY(
        SELECT best.chunk_id FROM unnest($1::text[]) AS q(term)
         CROSS JOIN LATERAL (SELECT p.chunk_id FROM chunk_postings p WHERE p.term = q.term ORDER BY p.impact DESC LIMIT $2) AS best))`,
    [candidateTerms, perTerm],
  );
  const position = new Map(scoredTerms.map((term, i) => [termIds.get(term) as number, i]));
  const postings: Posting[] = [];
  for (const row of rows) {
    frequenciesIn(row.terms, position, scoredTerms.length).forEach((frequency, i) => {
      if (frequency > 0)
        postings.push({ chunk_id: row.chunk_id, term: scoredTerms[i], frequency, chunk_terms: row.chunk_terms });
    });
  }
  return postings;
}

/** Every posting of the query terms within the filter (a company's chunks are few enough to score all). */
export function postingsWithin(manager: EntityManager, terms: string[], filter: ChunkFilter): Promise<Posting[]> {
  const documents = restrictsDocuments(filter) ? documentCondition('p.chunk_id', filter, 3) : null;
  return manager.query(
    `SELECT p.chunk_id, p.term, p.frequency, p.chunk_terms FROM chunk_postings p
      WHERE p.term = ANY($1::text[]) AND ($2::int[] IS NULL OR p.company_id = ANY($2::int[]))${documents ? ` AND ${documents.sql}` : ''}`,
    [terms, filter.companyIds, ...(documents?.parameters ?? [])],
  );
}

/** Searchable text (context line and content) of chunks, for the phrase boost and near-duplicate checks. */
export async function chunkTexts(
  manager: EntityManager,
  ids: number[],
): Promise<Map<number, { context: string | null; content: string; documentId: number }>> {
  const rows: Array<{ id: number; context: string | null; content: string; document_id: number }> = await manager.query(
    'SELECT id, context, content, document_id FROM document_chunks WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(
    rows.map((row) => [row.id, { context: row.context, content: row.content, documentId: row.document_id }]),
  );
}

/**
 * Nearest chunks of `model` by cosine distance through its HNSW index. Iterative index scans (pgvector 0.8+) keep a
 * filter from starving the result (it is applied inside the index scan, not after LIMIT).
 */
export function nearestChunks(
  manager: EntityManager,
  {
    vector,
    model,
    dimensions,
    filter,
    limit,
    iterativeScan,
  }: { vector: string; model: string; dimensions: number; filter: ChunkFilter; limit: number; iterativeScan: boolean },
): Promise<Array<{ id: number; score: number }>> {
  return manager.transaction(async (inner) => {
    await inner.query(`SET LOCAL hnsw.ef_search = ${Math.max(100, Math.min(1000, Math.floor(limit)))}`);
    if (iterativeScan) await inner.query('SET LOCAL hnsw.iterative_scan = relaxed_order');
    // One company's vectors (a few thousand) are compared exactly, through the (model, company) key: with statistics
    // the planner takes the HNSW index for them too, and its scan then walks past every other company's
    // vectors, far slower than comparing a few thousand exactly. HNSW is an index scan, the key serves a
    // bitmap scan, so turning index scans off for this statement leaves the exact plan.
    if (filter.companyIds) await inner.query('SET LOCAL enable_indexscan = off');
    const documents = restrictsDocuments(filter) ? documentCondition('e.chunk_id', filter, 5) : null;
    const rows: Array<{ id: number; score: number }> = await inner.query(
      `SELECT e.chunk_id AS id, (1 - (e.embedding::vector(${dimensions}) <=> $1::vector(${dimensions})))::float8 AS score
         FROM chunk_embeddings e
        WHERE e.model = $2 AND ($3::int[] IS NULL OR e.company_id = ANY($3::int[]))${documents ? ` AND ${documents.sql}` : ''}
        ORDER BY e.embedding::vector(${dimensions}) <=> $1::vector(${dimensions})
        LIMIT $4`,
      [vector, model, filter.companyIds, limit, ...(documents?.parameters ?? [])],
    );
    // relaxed_order may return neighbours slightly out of order.
    return rows.sort((a, b) => b.score - a.score);
  });
}

export type HitRow = Omit<SearchHit, 'score' | 'textRank' | 'vectorRank'>;

/** What a hit shows for each chunk id (chunks removed meanwhile, or of a document still being stored, are missing from the map). */
export async function hitRows(manager: EntityManager, ids: number[]): Promise<Map<number, HitRow>> {
  const rows: HitRow[] = await manager.query(
    `SELECT c.id AS "chunkId", c.content, c.document_id AS "documentId", c.company_id AS "companyId", co.ticker,
            d.title, d.doc_type AS "docType", d.period, c.section, c.page
       FROM document_chunks c JOIN documents d ON d.id = c.document_id JOIN companies co ON co.id = c.company_id
      WHERE c.id = ANY($1::int[]) AND NOT d.ingesting`,
    [ids],
  );
  return new Map(rows.map((row) => [row.chunkId, row]));
}
