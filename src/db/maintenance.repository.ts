import type { EntityManager } from 'typeorm';

/** SQL of the embedded database's maintenance (see maintenance.ts): what the catalog says of each table, and the statements. */

export interface TableState {
  name: string;
  /** Rows and pages as of the last VACUUM, ANALYZE or CREATE INDEX (-1 rows: never). */
  reltuples: number;
  relpages: number;
  /** Pages now. */
  pages: number;
  modifiedSinceAnalyze: number;
  insertedSinceVacuum: number;
  dead: number;
}

/**
 * The public schema's tables, with their recorded size and the change counters since the database started. A backend
 * reports its changes to the counters at most once a second, so a bulk write of the last second would otherwise show
 * only after the ANALYZE that follows it, as changes since that ANALYZE: the counters are flushed first.
 */
export async function tableStates(manager: EntityManager): Promise<TableState[]> {
  await manager.query('SELECT pg_stat_force_next_flush()');
  const rows: TableState[] = await manager.query(
    `SELECT c.relname AS name, c.reltuples::float8 AS reltuples, c.relpages AS relpages,
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
            coalesce(s.n_mod_since_analyze, 0)::float8 AS "modifiedSinceAnalyze",
            coalesce(s.n_ins_since_vacuum, 0)::float8 AS "insertedSinceVacuum", coalesce(s.n_dead_tup, 0)::float8 AS dead
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
      WHERE n.nspname = 'public' AND c.relkind = 'r'
      ORDER BY c.relname`,
  );
  return rows.map((row) => ({
    ...row,
    reltuples: Number(row.reltuples),
    modifiedSinceAnalyze: Number(row.modifiedSinceAnalyze),
    insertedSinceVacuum: Number(row.insertedSinceVacuum),
    dead: Number(row.dead),
  }));
}

/** VACUUM (with ANALYZE unless `analyze` is false) or ANALYZE alone, of one table; outside any transaction. */
export async function vacuumOrAnalyze(
  manager: EntityManager,
  table: string,
  { vacuum, analyze }: { vacuum: boolean; analyze: boolean },
): Promise<void> {
  // Names come from the catalog, quoted as identifiers; VACUUM and ANALYZE take no bind parameters.
  const quoted = `"${table.replace(/"/g, '""')}"`;
  if (vacuum) await manager.query(`VACUUM${analyze ? ' (ANALYZE)' : ''} ${quoted}`);
  else if (analyze) await manager.query(`ANALYZE ${quoted}`);
}
