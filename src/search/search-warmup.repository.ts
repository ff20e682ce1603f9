import type { EntityManager } from 'typeorm';
import type { Logger } from '../shared/logger';

/**
 * The embedded database starts with an empty page cache (its shared buffers) at every start of the service, and a
 * global text query reads one term vector per candidate chunk, a few thousand random pages: the first queries after
 * a start took about twice as long as later ones. So start-up reads the relations the text leg reads per candidate
 * or per term into the cache, in page order, a bounded share of the cache and a bounded time. The rest (chunk texts,
 * the vector index) is left to the queries: too large, and read a few pages a query. A PostgreSQL server keeps its
 * cache when the service restarts, so this is for the embedded database only.
 */
const WARMED: ReadonlyArray<{ table: string; key: string }> = [
  { table: 'search_terms', key: 'term' },
  { table: 'chunk_term_vectors', key: 'chunk_id' },
];
/** Share of the shared buffers the warm-up may fill, so the rest of the working set keeps room. */
const BUFFER_SHARE = 0.5;
/** Pages read per statement (8 MB): the budget and the time limit are checked between statements. */
const PAGES_PER_STATEMENT = 1024;
/** The warm-up stops after this long whatever is left: it must not hold up start-up on a slow disk. */
const MAX_MS = 2_000;

export interface WarmupReport {
  pages: number;
  ms: number;
  complete: boolean;
}

async function pagesOf(manager: EntityManager, relation: string): Promise<number> {
  const [{ pages }]: Array<{ pages: number }> = await manager.query(
    `SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS pages`,
    [relation],
  );
  return pages;
}

/**
 * Reads the text leg's term statistics and term vectors (their keys first) into the page cache; see above. A failure
 * is logged, never thrown: the cache only makes the first queries faster.
 */
export async function warmSearchIndex(manager: EntityManager, logger: Logger): Promise<WarmupReport | null> {
  try {
    return await readIntoCache(manager, logger);
  } catch (error) {
    logger.warn('reading the search index into the page cache failed', { error: (error as Error).message });
    return null;
  }
}

async function readIntoCache(manager: EntityManager, logger: Logger): Promise<WarmupReport> {
  const started = Date.now();
  const [{ buffers }]: Array<{ buffers: number }> = await manager.query(
    `SELECT setting::int AS buffers FROM pg_settings WHERE name = 'shared_buffers'`,
  );
  let budget = Math.floor(buffers * BUFFER_SHARE);
  let pages = 0;
  let complete = true;
  const withinLimits = (wanted: number) => wanted <= budget && Date.now() - started < MAX_MS;
  for (const { table, key } of WARMED) {
    const indexPages = await pagesOf(manager, `${table}_pkey`);
    if (!withinLimits(indexPages)) {
      complete = false;
      break;
    }
    // An index-only scan of the whole key reads every page of the index (an index scan never uses a small ring of
    // buffers, as a sequential scan of a large table does).
    await manager.transaction(async (inner) => {
      await inner.query('SET LOCAL enable_seqscan = off');
      await inner.query('SET LOCAL enable_bitmapscan = off');
      await inner.query(`SELECT count(${key}) FROM ${table} WHERE ${key} IS NOT NULL`);
    });
    budget -= indexPages;
    pages += indexPages;
    const tablePages = await pagesOf(manager, table);
    // A scan of a range of row positions reads those pages into the cache (again no ring).
    for (let first = 0; first < tablePages; first += PAGES_PER_STATEMENT) {
      const count = Math.min(PAGES_PER_STATEMENT, tablePages - first);
      if (!withinLimits(count)) {
        complete = false;
        break;
      }
      await manager.query(`SELECT count(*) FROM ${table} WHERE ctid >= $1::tid AND ctid < $2::tid`, [
        `(${first},0)`,
        `(${first + count},0)`,
      ]);
      budget -= count;
      pages += count;
    }
    if (!complete) break;
  }
  const report = { pages, ms: Date.now() - started, complete };
  logger.info('read the search index into the page cache', { ...report });
  return report;
}
