import { AppError, badUserInput } from '../shared/errors';
import { CAPS } from '../operations/catalog';
import { reciprocalRankFusion, RRF_K } from './fusion';
import { toVectorLiteral } from './embedder';
import type { SearchBackend } from './ingestion.service';
import type { SearchHit, SearchMode } from './search.types';

export const { defaultTopK: DEFAULT_TOP_K, maxTopK: MAX_TOP_K, maxQueryChars: MAX_QUERY_CHARS, maxCompanyFilter: MAX_COMPANY_FILTER } = CAPS.search;
/**
 * Weights of the text and vector legs in the fusion. Measured on FinanceBench (npm run eval:search -- --fusion-grid)
 * with the built-in LSA embedder: half weight for the vector leg gave the best recall across the whole corpus and
 * beat both legs alone in every setting (weights from 0.5 to 1 are within noise of each other by company).
 */
export const HYBRID_WEIGHTS = [1, 0.5];

export interface SearchRequest {
  query: string;
  companyIds?: number[] | null;
  topK?: number | null;
  mode?: SearchMode | null;
}

interface RankedId {
  id: number;
  score: number;
}

function validate(request: SearchRequest) {
  const query = typeof request.query === 'string' ? request.query.trim() : '';
  if (!query) throw badUserInput('query must not be empty');
  if (query.includes('\u0000')) throw badUserInput('query must not contain NUL characters');
  if (query.length > MAX_QUERY_CHARS) throw badUserInput(`query must be at most ${MAX_QUERY_CHARS} characters`);
  const topK = request.topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) throw badUserInput(`top_k must be a whole number from 1 to ${MAX_TOP_K}, got ${topK}`);
  const companyIds = request.companyIds ?? null;
  if (companyIds && companyIds.length === 0) throw badUserInput('company_ids must not be empty; leave it out to search every company');
  if (companyIds && companyIds.length > MAX_COMPANY_FILTER) throw badUserInput(`company_ids may name at most ${MAX_COMPANY_FILTER} companies`);
  return { query, topK, companyIds: companyIds ? [...new Set(companyIds)] : null, mode: request.mode ?? 'HYBRID' };
}

// A word in more than this share of the searched chunks says little; it is dropped when rarer words remain.
const COMMON_WORD_SHARE = 0.4;
// Distinct query words looked at; each costs one index look-up.
const MAX_QUERY_WORDS = 32;

/**
 * Full-text leg, scored like BM25 without term frequency: each query word a chunk contains adds the word's inverse
 * document frequency, so rare words ("capex", a company name) outweigh common ones ("million", "year"); `ts_rank_cd`
 * (cover density, length-normalized) breaks ties. PostgreSQL's own ranking has no IDF, which makes long
 * natural-language questions rank poorly. A chunk needs one of the words (they are OR-ed). Document frequencies are
 * counted through the GIN index, with the company filter, like everything else in this leg.
 */
/** Chunks within the company filter: the N of inverse document frequency. */
async function chunkCount(backend: SearchBackend, companyIds: number[] | null): Promise<number> {
  const [{ total }]: Array<{ total: number }> = await backend.dataSource.query(
    'SELECT count(*)::int AS total FROM document_chunks WHERE $1::int[] IS NULL OR company_id = ANY($1::int[])',
    [companyIds],
  );
  return total;
}

/** BM25's inverse document frequency; positive even for a word in every chunk. */
function idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

async function textLeg(backend: SearchBackend, query: string, companyIds: number[] | null, limit: number): Promise<RankedId[]> {
  const frequencies: Array<{ lexeme: string; df: number }> = await backend.dataSource.query(
    `SELECT t.lexeme,
            (SELECT count(*) FROM document_chunks c
              WHERE c.search_vector @@ quote_literal(t.lexeme)::tsquery
                AND ($2::int[] IS NULL OR c.company_id = ANY($2::int[])))::int AS df
       FROM (SELECT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS lexeme LIMIT $3) AS t`,
    [query, companyIds, MAX_QUERY_WORDS],
  );
  const present = frequencies.filter((term) => term.df > 0);
  if (present.length === 0) return [];
  const total = await chunkCount(backend, companyIds);
  const rare = present.filter((term) => term.df <= total * COMMON_WORD_SHARE);
  const terms = rare.length > 0 ? rare : present;
  const weights = terms.map((term) => idf(total, term.df));
  return backend.dataSource.query(
    `WITH q AS (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS query FROM unnest($1::text[]) AS t(lexeme))
     SELECT c.id,
            ((SELECT sum(w.weight) FROM unnest($1::text[], $2::float8[]) AS w(lexeme, weight)
               WHERE c.search_vector @@ quote_literal(w.lexeme)::tsquery)
             + ts_rank_cd(c.search_vector, q.query, 1))::float8 AS score
       FROM document_chunks c, q
      WHERE c.search_vector @@ q.query AND ($3::int[] IS NULL OR c.company_id = ANY($3::int[]))
      ORDER BY score DESC, c.id
      LIMIT $4`,
    [terms.map((term) => term.lexeme), weights, companyIds, limit],
  );
}

/**
 * Vector leg: nearest chunks by cosine distance through the model's HNSW index. Iterative index scans (pgvector 0.8+)
 * keep a company filter from starving the result (the filter is applied inside the index scan, not after LIMIT).
 */
async function vectorLeg(backend: SearchBackend, query: string, companyIds: number[] | null, limit: number): Promise<RankedId[]> {
  const embedder = await backend.models.current();
  // No model yet (an empty corpus), or a query with no known term (only stop words or symbols): nothing is near it.
  if (!embedder) return [];
  const embedding = await embedder.embedQuery(query);
  if (!embedding.some((value) => value !== 0)) return [];
  const vector = toVectorLiteral(embedding);
  const dims = embedder.dimensions;
  return backend.dataSource.transaction(async (manager) => {
    await manager.query(`SET LOCAL hnsw.ef_search = ${Math.max(100, limit)}`);
    if (backend.iterativeScan) await manager.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
    const rows: Array<{ id: number; score: number }> = await manager.query(
      `SELECT chunk_id AS id, (1 - (embedding::vector(${dims}) <=> $1::vector(${dims})))::float8 AS score
         FROM chunk_embeddings
        WHERE model = $2 AND ($3::int[] IS NULL OR company_id = ANY($3::int[]))
        ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims})
        LIMIT $4`,
      [vector, embedder.model, companyIds, limit],
    );
    // relaxed_order may return neighbours slightly out of order.
    return rows.sort((a, b) => b.score - a.score);
  });
}

/** Hybrid (or single-leg) search over document chunks, best first. */
export async function search(backend: SearchBackend, request: SearchRequest): Promise<SearchHit[]> {
  const { query, topK, companyIds, mode } = validate(request);
  if (mode === 'VECTOR' && !backend.vectorAvailable) {
    throw new AppError('BAD_USER_INPUT', 'Vector search is unavailable: the database has no pgvector extension; use mode TEXT or HYBRID');
  }
  // Each leg brings more candidates than asked for, so fusion can promote what only one leg found.
  const candidates = Math.max(topK * 4, 50);
  const runText = mode !== 'VECTOR';
  const runVector = mode !== 'TEXT' && backend.vectorAvailable;
  const [text, vector] = await Promise.all([
    runText ? textLeg(backend, query, companyIds, candidates) : Promise.resolve([]),
    runVector ? vectorLeg(backend, query, companyIds, candidates) : Promise.resolve([]),
  ]);

  const fused = reciprocalRankFusion([text.map((r) => r.id), vector.map((r) => r.id)], RRF_K, HYBRID_WEIGHTS);
  const legScore = new Map((mode === 'TEXT' ? text : vector).map((r) => [r.id, r.score]));
  const top = fused.slice(0, topK);
  if (top.length === 0) return [];

  const rows: Array<Omit<SearchHit, 'score' | 'textRank' | 'vectorRank'> & { chunkId: number }> = await backend.dataSource.query(
    `SELECT c.id AS "chunkId", c.content, c.document_id AS "documentId", c.company_id AS "companyId", co.ticker,
            d.title, d.doc_type AS "docType", d.period
       FROM document_chunks c JOIN documents d ON d.id = c.document_id JOIN companies co ON co.id = c.company_id
      WHERE c.id = ANY($1::int[])`,
    [top.map((entry) => entry.id)],
  );
  const byId = new Map(rows.map((row) => [row.chunkId, row]));
  return top
    .filter((entry) => byId.has(entry.id))
    .map((entry) => ({
      ...(byId.get(entry.id) as (typeof rows)[number]),
      score: mode === 'HYBRID' ? entry.score : (legScore.get(entry.id) as number),
      textRank: entry.ranks[0],
      vectorRank: entry.ranks[1],
    }));
}
