import { AppError, badUserInput } from '../shared/errors';
import { CAPS } from '../operations/catalog';
import { parseExactPeriod } from '../statements/fiscal-period';
import { inverseDocumentFrequency, proximityBonus, queryTerms, termImpact } from './bm25';
import { searchableText } from './chunk-context';
import { diversify } from './diversity';
import { minMaxFusion, reciprocalRankFusion, RRF_K } from './fusion';
import { toVectorLiteral } from './embedder';
import { DOC_TYPES, parseDate } from './ingestion.service';
import type { SearchBackend } from './search-backend.types';
import {
  chunkTexts,
  hitRows,
  nearestChunks,
  postingsOfTopChunks,
  postingsWithin,
  restrictsDocuments,
  termStatistics,
  type ChunkFilter,
  type Posting,
} from './search-index.repository';
import type { SearchHit, SearchMode } from './search.types';
import { findCompanies } from '../understanding/companies';
import { companyDirectory } from '../companies/company-directory';
import { expansionOf } from './query-expansion';
import { withoutInstructions } from './terms';

export const {
  defaultTopK: DEFAULT_TOP_K,
  maxTopK: MAX_TOP_K,
  maxQueryChars: MAX_QUERY_CHARS,
  maxCompanyFilter: MAX_COMPANY_FILTER,
  maxListFilter: MAX_LIST_FILTER,
  maxSectionChars: MAX_SECTION_CHARS,
} = CAPS.search;
/**
 * Weights of the text and vector legs in the fusion, chosen on FinanceBench (npm run eval:search) with the built-in
 * LSA embedder: the vector weight at which hybrid is at least as good as either leg on every measure, where a
 * heavier one lets the vector leg pull hybrid below the text leg (docs/evaluation.md).
 */
export const HYBRID_WEIGHTS = [1, 0.35];
/**
 * Weights of the legs' min-max normalized scores where both legs rank every chunk the filter allows (a company or
 * context of a few dozen chunks; see rankedHits). Chosen with the built-in embedder on TAT-QA, whose contexts are
 * such populations, and on FinanceBench's smallest companies: the middle of the weights at which hybrid beats rank
 * fusion and stays at or above the text leg (docs/evaluation.md).
 */
export const POPULATION_WEIGHTS = [1, 0.45];

export interface SearchRequest {
  query: string;
  companyIds?: number[] | null;
  topK?: number | null;
  mode?: SearchMode | null;
  /** Fiscal periods of the documents (FY2024, Q3-2024). */
  periods?: string[] | null;
  /** Document types (10-K, earnings-call …). */
  docTypes?: string[] | null;
  /** Sections: an item ("Item 7") or words of a section title ("risk factors"). */
  sections?: string[] | null;
  /** Documents published on or after this date (ISO 8601). */
  publishedFrom?: string | null;
  /** Documents published before the end of this date (ISO 8601). */
  publishedTo?: string | null;
}

interface RankedId {
  id: number;
  score: number;
}

function optionalList<T>(values: T[] | null | undefined, name: string, convert: (value: T) => string): string[] | null {
  if (values === null || values === undefined) return null;
  if (values.length === 0) throw badUserInput(`${name} must not be empty; leave it out to search all`);
  if (values.length > MAX_LIST_FILTER) throw badUserInput(`${name} may list at most ${MAX_LIST_FILTER} values`);
  return [...new Set(values.map(convert))];
}

const ITEM_LABEL = /^item\s+(\d{1,2}[a-d]?)$/i;

function filterOf(request: SearchRequest, companyIds: number[] | null): ChunkFilter {
  const periods = optionalList(request.periods, 'periods', (value) => {
    const parsed = typeof value === 'string' ? parseExactPeriod(value) : null;
    if (!parsed) throw badUserInput(`periods must be Q<1-4>-<yyyy> or FY<yyyy>, got "${value}"`);
    return parsed.label;
  });
  const docTypes = optionalList(request.docTypes, 'doc_types', (value) => {
    const known = DOC_TYPES.find((type) => type.toLowerCase() === String(value).trim().toLowerCase());
    if (!known)
      throw badUserInput(`doc_types: "${value}" is not a document type; use one of ${DOC_TYPES.join(', ')}`, {
        field: 'doc_types',
        accepted: DOC_TYPES,
      });
    return known;
  });
  const sections = optionalList(request.sections, 'sections', (value) => {
    const text = String(value).replace(/\s+/g, ' ').trim().toLowerCase();
    if (!text || text.length > MAX_SECTION_CHARS)
      throw badUserInput(`sections must be non-empty and at most ${MAX_SECTION_CHARS} characters each`);
    return text;
  });
  const publishedFrom = parseDate(request.publishedFrom, 'published_from');
  const publishedToDay = parseDate(request.publishedTo, 'published_to');
  // A bare date as the end of a range includes that whole day.
  const publishedTo =
    publishedToDay && /^\d{4}-\d{2}-\d{2}$/.test(String(request.publishedTo).trim())
      ? new Date(publishedToDay.getTime() + 86_400_000)
      : publishedToDay;
  if (publishedFrom && publishedTo && publishedFrom >= publishedTo)
    throw badUserInput('published_from must be before published_to');
  const items =
    sections
      ?.map((section) => ITEM_LABEL.exec(section))
      .filter((match) => match !== null)
      .map((match) => `item ${match[1]}`) ?? [];
  const phrases = sections?.filter((section) => !ITEM_LABEL.test(section)) ?? [];
  return {
    companyIds,
    periods,
    docTypes,
    sectionItems: items.length > 0 ? items : null,
    sectionPhrases: phrases.length > 0 ? phrases : null,
    publishedFrom,
    publishedTo,
  };
}

function validate(request: SearchRequest) {
  const query = typeof request.query === 'string' ? request.query.trim() : '';
  if (!query) throw badUserInput('query must not be empty');
  if (query.includes('\u0000')) throw badUserInput('query must not contain NUL characters');
  if (query.length > MAX_QUERY_CHARS) throw badUserInput(`query must be at most ${MAX_QUERY_CHARS} characters`);
  const topK = request.topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K)
    throw badUserInput(`top_k must be a whole number from 1 to ${MAX_TOP_K}, got ${topK}`);
  const companyIds = request.companyIds ?? null;
  if (companyIds && companyIds.length === 0)
    throw badUserInput('company_ids must not be empty; leave it out to search every company');
  if (companyIds && companyIds.length > MAX_COMPANY_FILTER)
    throw badUserInput(`company_ids may name at most ${MAX_COMPANY_FILTER} companies`);
  const filter = filterOf(request, companyIds ? [...new Set(companyIds)] : null);
  return { query, topK, filter, mode: request.mode ?? 'HYBRID' };
}

// Distinct query terms looked at; each costs one index look-up.
const MAX_QUERY_TERMS = 32;
/**
 * A global query reads at most this many postings per term of the query's own words, the highest-impact first; the
 * chunks found are scored on every term. The metric wording a query adds scores those chunks but brings none of its
 * own: it named up to 24 more terms' best chunks, most of them about the metric in general rather than the question,
 * and doubled the candidates to score without improving the ranking (docs/evaluation.md).
 */
const POSTINGS_PER_TERM = 400;
/** Weight of the words a query's metrics add (see query-expansion) relative to the query's own words. */
const EXPANSION_WEIGHT = 0.4;
const MAX_EXPANSION_TERMS = 24;
/** BM25-ranked chunks that the phrase boost looks at. */
const PHRASE_RERANK = 100;
/** Weight of the phrase boost relative to BM25. */
const PHRASE_WEIGHT = 0.5;

/** Chunk texts read by the legs, kept for the steps after fusion. */
type TextCache = Map<number, { context: string | null; content: string; documentId: number }>;

/**
 * Full-text leg: BM25 over the chunks' terms (content and context line), plus a boost for chunks that keep the
 * question's neighbouring words together. The filing wording of the metrics the question names joins the query at
 * EXPANSION_WEIGHT. Collection statistics come from the tables ingestion maintains. A global query scores, on every
 * term, the chunks that are among the best few hundred of one of the query's own words by impact (a bounded read of
 * the impact index); a filtered query scores every chunk of the filter that has a query term.
 */
async function textLeg(
  backend: SearchBackend,
  query: string,
  filter: ChunkFilter,
  limit: number,
  texts: TextCache,
): Promise<RankedId[]> {
  const manager = backend.dataSource.manager;
  const terms = queryTerms(query, MAX_QUERY_TERMS);
  if (terms.length === 0) return [];
  const asked = new Set(terms);
  const expansion = queryTerms(expansionOf(query), MAX_QUERY_TERMS)
    .filter((term) => !asked.has(term))
    .slice(0, MAX_EXPANSION_TERMS);
  const weight = new Map([
    ...terms.map((term) => [term, 1] as const),
    ...expansion.map((term) => [term, EXPANSION_WEIGHT] as const),
  ]);
  const allTerms = [...terms, ...expansion];
  // A query scores only when one of its own words is indexed: metric wording alone does not make a match.
  const { chunksPerTerm: frequencies, termIds, stats } = await termStatistics(manager, allTerms);
  const present = allTerms.filter((term) => frequencies.has(term));
  if (!terms.some((term) => frequencies.has(term)) || stats.chunks === 0) return [];
  const idf = new Map(
    present.map((term) => [term, inverseDocumentFrequency(stats.chunks, frequencies.get(term) as number)]),
  );
  const filtered = filter.companyIds !== null || restrictsDocuments(filter);
  const postings: Posting[] = filtered
    ? await postingsWithin(manager, present, filter)
    : await postingsOfTopChunks(manager, {
        candidateTerms: present.filter((term) => asked.has(term)),
        scoredTerms: present,
        termIds,
        perTerm: POSTINGS_PER_TERM,
      });

  const scores = new Map<number, number>();
  const ownTermsOf = new Map<number, Set<string>>();
  for (const posting of postings) {
    const score =
      (weight.get(posting.term) as number) *
      (idf.get(posting.term) as number) *
      termImpact(posting.frequency, posting.chunk_terms, stats.averageLength);
    scores.set(posting.chunk_id, (scores.get(posting.chunk_id) ?? 0) + score);
    if (!asked.has(posting.term)) continue;
    const own = ownTermsOf.get(posting.chunk_id);
    if (own) own.add(posting.term);
    else ownTermsOf.set(posting.chunk_id, new Set([posting.term]));
  }
  const ranked = [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
  const head = ranked.slice(0, Math.max(PHRASE_RERANK, limit));
  // The phrase boost looks at the query's own words only, in their order. A chunk without both words of some
  // neighbouring pair gets none, so only the others are read and tokenized.
  const ordered = terms.filter((term) => idf.has(term));
  const mayHavePhrase = (id: number) => {
    const has = ownTermsOf.get(id);
    return (
      has !== undefined && ordered.some((term, i) => i + 1 < ordered.length && has.has(term) && has.has(ordered[i + 1]))
    );
  };
  const phraseCandidates = ordered.length > 1 ? head.filter((entry) => mayHavePhrase(entry.id)) : [];
  if (phraseCandidates.length > 0) {
    for (const [id, text] of await chunkTexts(
      manager,
      phraseCandidates.map((entry) => entry.id),
    ))
      texts.set(id, text);
    for (const entry of phraseCandidates) {
      const text = texts.get(entry.id);
      if (text) entry.score += PHRASE_WEIGHT * proximityBonus(ordered, idf, searchableText(text.context, text.content));
    }
    head.sort((a, b) => b.score - a.score || a.id - b.id);
  }
  return head.slice(0, limit);
}

/**
 * Vector leg: nearest chunks by cosine distance through the model's HNSW index, within the filter. `everyChunk` says
 * that the list holds every chunk of the filter that has a vector: a company filter is compared exactly (see
 * nearestChunks), so a list shorter than asked for is the whole population; an HNSW scan may stop short of the limit.
 */
async function vectorLeg(
  backend: SearchBackend,
  query: string,
  filter: ChunkFilter,
  limit: number,
): Promise<{ ranked: RankedId[]; everyChunk: boolean }> {
  const embedder = await backend.models.current();
  // No model yet (an empty corpus), or a query with no known term (only stop words or symbols): nothing is near it.
  if (!embedder) return { ranked: [], everyChunk: false };
  const embedding = await embedder.embedQuery(query);
  if (!embedding.some((value) => value !== 0)) return { ranked: [], everyChunk: false };
  const ranked = await nearestChunks(backend.dataSource.manager, {
    vector: toVectorLiteral(embedding),
    model: embedder.model,
    dimensions: embedder.dimensions,
    filter,
    limit,
    iterativeScan: backend.iterativeScan,
  });
  return { ranked, everyChunk: filter.companyIds !== null && ranked.length < limit };
}

/**
 * The two legs fused. Where both rank every chunk the filter allows — the vector leg returned all of them and the
 * text leg none beyond them — and `fuseScores` permits, their scores are fused (see minMaxFusion; a chunk the text
 * leg does not return has none of the query's words, BM25 0); elsewhere the lists are cut at the candidate count and
 * their ranks are fused. Over six passages, rank fusion with k = 60 is close to a weighted sum of ranks and lets a
 * vector leg that puts the text leg's clear first fourth move it down, however far ahead its BM25 score was.
 */
function fuseLegs(text: RankedId[], vector: { ranked: RankedId[]; everyChunk: boolean }, fuseScores: boolean) {
  const vectorIds = new Set(vector.ranked.map((entry) => entry.id));
  if (fuseScores && vector.everyChunk && text.every((entry) => vectorIds.has(entry.id))) {
    return minMaxFusion([text, vector.ranked], POPULATION_WEIGHTS, [0, -1]);
  }
  return reciprocalRankFusion([text.map((r) => r.id), vector.ranked.map((r) => r.id)], RRF_K, HYBRID_WEIGHTS);
}

/** Companies a query names (by name, ticker or brand, as the analyst reads questions); empty when a filter says which. */
async function namedCompanies(backend: SearchBackend, query: string, filter: ChunkFilter): Promise<number[]> {
  if (filter.companyIds !== null) return [];
  const directory = await companyDirectory(backend.dataSource);
  return findCompanies(query, directory)
    .map((mention) => mention.company.id)
    .slice(0, MAX_COMPANY_FILTER);
}

/** Fused candidates looked at per result (and at least), so near-duplicates and a document's extra chunks can be passed over. */
const POOL_PER_RESULT = 3;
const MIN_POOL = 50;

/**
 * Hybrid (or single-leg) search over document chunks, best first, near-duplicates collapsed, spread over documents.
 * A query without a company filter that names companies ("PepsiCo's capex in FY2022") searches their documents first;
 * other companies' passages fill the list only when theirs run out.
 */
export async function search(backend: SearchBackend, request: SearchRequest): Promise<SearchHit[]> {
  const { query, topK, filter, mode } = validate(request);
  if (mode === 'VECTOR' && !backend.vectorAvailable) {
    throw new AppError(
      'BAD_USER_INPUT',
      'Vector search is unavailable: the database has no pgvector extension; use mode TEXT or HYBRID',
    );
  }
  const lookFor = withoutInstructions(query);
  const named = await namedCompanies(backend, query, filter);
  if (named.length === 0) return rankedHits(backend, lookFor, filter, topK, mode, true);
  // Their passages and the other companies' after them come from two fusions: both fuse ranks, so the scores shown
  // compare (a small company's population would score on another scale than the global list after it).
  const theirs = await rankedHits(backend, lookFor, { ...filter, companyIds: named }, topK, mode, false);
  if (theirs.length >= topK) return theirs;
  const shown = new Set(theirs.map((hit) => hit.chunkId));
  const others = (await rankedHits(backend, lookFor, filter, topK, mode, false)).filter(
    (hit) => !shown.has(hit.chunkId),
  );
  return [...theirs, ...others].slice(0, topK);
}

/** Each leg's candidates, fused, then chosen for diversity; the hits with their rows. */
async function rankedHits(
  backend: SearchBackend,
  query: string,
  filter: ChunkFilter,
  topK: number,
  mode: SearchMode,
  fuseScores: boolean,
): Promise<SearchHit[]> {
  // Each leg brings more candidates than asked for, so fusion can promote what only one leg found.
  const candidates = Math.max(topK * 4, 50);
  const runText = mode !== 'VECTOR';
  const runVector = mode !== 'TEXT' && backend.vectorAvailable;
  const texts: TextCache = new Map();
  const [text, vector] = await Promise.all([
    runText ? textLeg(backend, query, filter, candidates, texts) : Promise.resolve([]),
    runVector ? vectorLeg(backend, query, filter, candidates) : Promise.resolve({ ranked: [], everyChunk: false }),
  ]);

  const fused = fuseLegs(text, vector, fuseScores);
  const legScore = new Map((mode === 'TEXT' ? text : vector.ranked).map((r) => [r.id, r.score]));
  // Near-duplicates and a document's extra chunks are passed over, so look further down than topK.
  const pool = fused.slice(0, Math.max(topK * POOL_PER_RESULT, MIN_POOL));
  if (pool.length === 0) return [];
  const missing = pool.map((entry) => entry.id).filter((id) => !texts.has(id));
  if (missing.length > 0)
    for (const [id, row] of await chunkTexts(backend.dataSource.manager, missing)) texts.set(id, row);
  const chosen = diversify(
    pool
      .filter((entry) => texts.has(entry.id))
      .map((entry) => ({
        id: entry.id,
        documentId: (texts.get(entry.id) as { documentId: number }).documentId,
        content: (texts.get(entry.id) as { content: string }).content,
      })),
    topK,
  );
  const byId = new Map(pool.map((entry) => [entry.id, entry]));
  const rows = await hitRows(backend.dataSource.manager, chosen);
  return chosen
    .filter((id) => rows.has(id))
    .map((id) => {
      const entry = byId.get(id) as (typeof pool)[number];
      return {
        ...(rows.get(id) as NonNullable<ReturnType<typeof rows.get>>),
        score: mode === 'HYBRID' ? entry.score : (legScore.get(id) as number),
        textRank: entry.ranks[0],
        vectorRank: entry.ranks[1],
      };
    });
}
