/**
 * Store of the ratios of every stored period (`statement_ratios`, each an array in the order of the stored layout),
 * of that layout (`stored_ratio_layout`), and of the queue of companies whose statements changed since their ratios
 * were computed (`ratio_refresh_queue`, filled by triggers on the statement tables).
 */
import type { EntityManager } from 'typeorm';

export interface StoredRatiosRow {
  companyId: number;
  period: string;
  /** The values in the layout's order; null where a ratio is undefined for the period. */
  ratios: Array<number | null>;
  /** The company's newest fiscal year, or its newest quarter. */
  newest: boolean;
}

/** Rows a write sends at once: a row is a few hundred bytes. */
const WRITE_BATCH = 2_000;

/** The ratio keys, in the order the stored arrays hold them; null before any is stored. */
export async function findRatioLayout(manager: EntityManager): Promise<string[] | null> {
  const [row] = await manager.query('SELECT keys FROM stored_ratio_layout');
  return row ? row.keys : null;
}

/** Records a new layout and queues every company, whose stored arrays are in the old one until computed again. */
export async function replaceRatioLayout(manager: EntityManager, keys: readonly string[]): Promise<void> {
  await manager.query(
    `INSERT INTO stored_ratio_layout (one, keys) VALUES (true, $1::text[])
     ON CONFLICT (one) DO UPDATE SET keys = EXCLUDED.keys`,
    [keys],
  );
  await manager.query('INSERT INTO ratio_refresh_queue (company_id) SELECT id FROM companies ON CONFLICT DO NOTHING');
}

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
    // Only companies that still exist: one deleted since it was queued has nothing to keep. Each array is sent in
    // its text form ({0.25,NULL,…}; a number's shortest form reads back as the same double).
    await manager.query(
      `INSERT INTO statement_ratios (company_id, period, ratios, newest)
       SELECT r.company_id, r.period, r.ratios::float8[], r.newest
         FROM unnest($1::int[], $2::text[], $3::text[], $4::boolean[]) AS r(company_id, period, ratios, newest)
        WHERE EXISTS (SELECT 1 FROM companies c WHERE c.id = r.company_id)
       ON CONFLICT (company_id, period) DO UPDATE SET ratios = EXCLUDED.ratios, newest = EXCLUDED.newest`,
      [
        batch.map((row) => row.companyId),
        batch.map((row) => row.period),
        batch.map((row) => `{${row.ratios.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`),
        batch.map((row) => row.newest),
      ],
    );
  }
}
