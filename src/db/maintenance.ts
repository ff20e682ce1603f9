import type { DataSource } from 'typeorm';
import type { Logger } from '../shared/logger';
import { giveWayToRequests } from './give-way';
import { tableStates, vacuumOrAnalyze, type TableState } from './maintenance.repository';

/**
 * What autovacuum does on a PostgreSQL server, done by hand on the embedded database, where it never runs: PGlite is
 * PostgreSQL in single-user mode, with no autovacuum launcher. Without it the planner works from the statistics of
 * the moment each index was created (often an empty table), and the rows a refit deletes stay dead, their space
 * never reused, so `chunk_embeddings` grows by one model's vectors at every refit.
 *
 * Called where bulk writes end (after a refit of the search model, a demo seed, a CLI load). The rules are
 * autovacuum's, so a table is maintained when it has changed enough, not every time; the counters they read
 * (`pg_stat_user_tables`) start from zero at every start of the embedded database, so a table is also analyzed when
 * its size moved by a tenth (and 8 pages) since the planner last recorded it (`pg_class.relpages`, which survives
 * restarts), and vacuumed when it grew by a fifth.
 */

/** autovacuum_analyze_threshold and _scale_factor. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
/** autovacuum_vacuum_threshold and _scale_factor. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
/**
 * autovacuum_vacuum_insert_threshold (and the scale factor above): a table that only grows is vacuumed too, which
 * marks its pages all-visible, so index-only scans (the postings' impact index) need not read the table.
 */
const INSERT_THRESHOLD = 1000;
/** A table whose size moved by this many pages plus this fraction since its last statistics is analyzed again. */
const PAGES_THRESHOLD = 8;
const PAGES_MOVED = 0.1;

/**
 * Vacuumed but never analyzed. Every query of `chunk_embeddings` names one model, and a model that was not there when
 * the statistics were taken (the one a refit is writing) looks rare to the planner, which then reads the
 * (model, company) key instead of the primary key to find a chunk's vector: the refit's look-up of chunks still
 * without one then scans a large corpus once per statement. Without column statistics the planner keeps to the keys.
 */
const NOT_ANALYZED = new Set(['chunk_embeddings']);

export interface MaintenanceReport {
  vacuumed: string[];
  analyzed: string[];
  ms: number;
}

/** Which of the public schema's tables are due, and for what, by autovacuum's rules (see above). */
export function dueMaintenance(
  tables: TableState[],
  vacuumAnyway: ReadonlySet<string> = new Set(),
): Array<{ name: string; vacuum: boolean }> {
  const due: Array<{ name: string; vacuum: boolean }> = [];
  for (const table of tables) {
    if (table.pages === 0 && table.relpages === 0) continue;
    const rows = Math.max(table.reltuples, 0);
    const grown = table.pages - table.relpages;
    const vacuum =
      vacuumAnyway.has(table.name) ||
      table.dead > VACUUM_THRESHOLD + VACUUM_SCALE * rows ||
      table.insertedSinceVacuum > INSERT_THRESHOLD + VACUUM_SCALE * rows ||
      grown > PAGES_THRESHOLD + VACUUM_SCALE * table.relpages;
    const analyze =
      table.reltuples < 0 ||
      table.modifiedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * rows ||
      Math.abs(grown) > PAGES_THRESHOLD + PAGES_MOVED * table.relpages;
    if (vacuum || (analyze && !NOT_ANALYZED.has(table.name))) due.push({ name: table.name, vacuum });
  }
  return due;
}

/**
 * Vacuums and analyzes the embedded database's tables that are due (see above), one statement per table, giving
 * way to requests before each; `vacuum` names tables to vacuum whatever their counters say (a refit's deleted model).
 * On a PostgreSQL server it does nothing: its autovacuum does this, without holding a connection of the pool.
 */
export async function maintainEmbeddedTables(
  database: { kind: 'embedded' | 'external'; dataSource: DataSource },
  logger: Logger,
  { vacuum = [] }: { vacuum?: string[] } = {},
): Promise<MaintenanceReport> {
  const started = Date.now();
  const report: MaintenanceReport = { vacuumed: [], analyzed: [], ms: 0 };
  if (database.kind !== 'embedded') return report;
  const manager = database.dataSource.manager;
  const tables = await tableStates(manager);
  for (const table of dueMaintenance(tables, new Set(vacuum))) {
    await giveWayToRequests(manager);
    const tableStarted = Date.now();
    await vacuumOrAnalyze(manager, table.name, { vacuum: table.vacuum, analyze: !NOT_ANALYZED.has(table.name) });
    (table.vacuum ? report.vacuumed : report.analyzed).push(table.name);
    logger.debug(table.vacuum ? 'vacuumed and analyzed a table' : 'analyzed a table', {
      table: table.name,
      ms: Date.now() - tableStarted,
    });
  }
  report.ms = Date.now() - started;
  if (report.vacuumed.length + report.analyzed.length > 0)
    logger.info('maintained the embedded database', { ...report });
  return report;
}
