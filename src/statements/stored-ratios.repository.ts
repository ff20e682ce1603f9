/**
 * Store of the ratios of every stored period (`statement_ratios`) and of the queue of companies whose statements
 * changed since their ratios were computed (`ratio_refresh_queue`, filled by triggers on the statement tables).
 */
import type { EntityManager } from 'typeorm';

export interface StoredRatiosRow {
  companyId: number;
  period: string;
  /** Ratio key → value; a ratio that is undefined for the period (null) is left out. */
  ratios: Record<string, number>;
  /** The company's newest fiscal year, or its newest quarter. */
  newest: boolean;
}

/** Rows a write sends at once: a row is about a kilobyte of JSON. */
const WRITE_BATCH = 2_000;

/** Whether any company waits for its ratios to be computed. */
export async function hasQueuedRatioRefresh(manager: EntityManager): Promise<boolean> {
  const [row] = await manager.query('SELECT EXISTS (SELECT 1 FROM ratio_refresh_queue) AS queued');
  return row.queued === true;
}

/**
 * Takes up to `limit` companies off the queue, skipping those another transaction is taking; they return to it if
 * the caller's transaction rolls back. A write that queues one again meanwhile waits for that transaction to end.
 */
export async function takeQueuedRatioRefresh(manager: EntityManager, limit: number): Promise<number[]> {
  // Read through SELECT: TypeORM answers a bare DELETE … RETURNING with [rows, count].
  const rows: Array<{ company_id: number }> = await manager.query(
    `WITH taken AS (
       DELETE FROM ratio_refresh_queue WHERE company_id IN (
         SELECT company_id FROM ratio_refresh_queue ORDER BY company_id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING company_id)
     SELECT company_id FROM taken`,
    [limit],
  );
  return rows.map((row) => row.company_id);
}

/** Takes the given companies off the queue (their ratios are being computed in the caller's transaction). */
export async function dequeueRatioRefresh(manager: EntityManager, companyIds: readonly number[]): Promise<void> {
  await manager.query('DELETE FROM ratio_refresh_queue WHERE company_id = ANY($1::int[])', [companyIds]);
}

/** Replaces every stored ratio of the given companies with `rows` (a company without rows keeps none). */
export async function replaceStoredRatios(
  manager: EntityManager,
  companyIds: readonly number[],
  rows: readonly StoredRatiosRow[],
): Promise<void> {
  await manager.query('DELETE FROM statement_ratios WHERE company_id = ANY($1::int[])', [companyIds]);
  for (let start = 0; start < rows.length; start += WRITE_BATCH) {
    const batch = rows.slice(start, start + WRITE_BATCH);
    // Only companies that still exist: one deleted since it was queued has nothing to keep.
    await manager.query(
      `INSERT INTO statement_ratios (company_id, period, ratios, newest)
       SELECT r.company_id, r.period, r.ratios, r.newest
         FROM jsonb_to_recordset($1::jsonb) AS r(company_id int, period text, ratios jsonb, newest boolean)
        WHERE EXISTS (SELECT 1 FROM companies c WHERE c.id = r.company_id)
       ON CONFLICT (company_id, period) DO UPDATE SET ratios = EXCLUDED.ratios, newest = EXCLUDED.newest`,
      [
        JSON.stringify(
          batch.map((row) => ({
            company_id: row.companyId,
            period: row.period,
            ratios: row.ratios,
            newest: row.newest,
          })),
        ),
      ],
    );
  }
}
