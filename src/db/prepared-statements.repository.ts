import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Pool, PoolClient } from 'pg';

/**
 * Named (prepared) statements for the hot reads: a named statement is planned once per session instead of on every
 * request, and planning is a large share of a short read's server time (docs/benchmarks.md, named statements).
 *
 * PGlite gives every connection one shared session, while `pg` remembers per connection what it has prepared. So on
 * PGlite statements are named only through a pool of one connection (the embedded database's), under a prefix of
 * their own per process (other processes — the benchmark's peers, a tool — may share the session), and a connection
 * opened again first drops the names its predecessor left in the session. Several pooled connections into one PGlite
 * session would each prepare the same names: there, nothing is named.
 *
 * Bounded, since a statement stays prepared for its session's life: a text is named once it has been asked for
 * PREPARE_AFTER times, and at most MAX_NAMED texts a process; the rest run unnamed.
 */
const PREPARE_AFTER = 3;
const MAX_NAMED = 100;
/** How many texts not (yet) named are counted before the counts start again. */
const MAX_COUNTED = 1_000;

class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  constructor(readonly prefix: string) {}

  /** The name to prepare `text` under, or null to run it unnamed. */
  nameOf(text: string): string | null {
    const name = this.names.get(text);
    if (name !== undefined) return name;
    if (this.names.size >= MAX_NAMED) return null;
    const count = (this.counts.get(text) ?? 0) + 1;
    if (count < PREPARE_AFTER) {
      if (this.counts.size >= MAX_COUNTED) this.counts.clear();
      this.counts.set(text, count);
      return null;
    }
    this.counts.delete(text);
    const named = `${this.prefix}${this.names.size + 1}`;
    this.names.set(text, named);
    return named;
  }
}

const namesBySource = new WeakMap<DataSource, StatementNames>();

/** Drops the session's statements under `prefix`: those a closed connection of this process prepared. */
function dropNamesSql(prefix: string): string {
  return `DO $$ DECLARE statement_name text; BEGIN
    FOR statement_name IN SELECT name FROM pg_prepared_statements WHERE starts_with(name, '${prefix}') LOOP
      EXECUTE format('DEALLOCATE %I', statement_name);
    END LOOP; END $$`;
}

export type PreparedStatementsMode = 'server' | 'pglite' | 'off';

/**
 * Lets `queryPrepared` name statements on this data source. Whether the server gives each connection its own session
 * is not in the URL (PGlite may be behind `DATABASE_URL`, as in the benchmark), so the server is asked. Returns how
 * statements will be named: per connection on a server, per process on PGlite with one pooled connection, or not.
 */
export async function usePreparedStatements(
  dataSource: DataSource,
  poolSize: number,
  onDropFailure: (error: unknown) => void,
): Promise<PreparedStatementsMode> {
  const [{ version }]: Array<{ version: string }> = await dataSource.query('SELECT version()');
  if (!version.includes('PGlite')) {
    namesBySource.set(dataSource, new StatementNames('fi_'));
    return 'server';
  }
  if (poolSize !== 1) return 'off';
  const prefix = `fi_${randomBytes(4).toString('hex')}_`;
  // The connection open now has prepared nothing under the new prefix; a later one first drops what an earlier left.
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  pool.on('connect', (client: PoolClient) => {
    // Queued before the query the connection was opened for, so it runs first.
    client.query(dropNamesSql(prefix)).catch((error: unknown) => {
      // Names left in the session would collide with the new connection's: run everything unnamed from now on.
      namesBySource.delete(dataSource);
      onDropFailure(error);
    });
  });
  namesBySource.set(dataSource, new StatementNames(prefix));
  return 'pglite';
}

/**
 * A row count (LIMIT, OFFSET) written into a statement's text instead of passed as a parameter. PostgreSQL cannot
 * cost a plan whose LIMIT is a parameter, so it keeps planning a named statement with one afresh on every execution
 * (a custom plan), which is the planning a name is meant to save. Each distinct
 * count is then its own text, which the naming bounds above keep in check.
 */
export function sqlCount(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new Error(`a row count must be a non-negative integer, got ${count}`);
  return String(count);
}

/** Runs a read like `manager.query`, as a named statement when the data source allows it and the text is asked for often. */
export function queryPrepared<T>(manager: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const name = namesBySource.get(manager.connection)?.nameOf(text);
  if (!name) return manager.query(text, values);
  // TypeORM hands its query to `pg` as it is, and `pg` takes a query config object in place of the text; a new
  // object each time, since `pg` writes the values into it.
  return manager.query({ name, text } as unknown as string, values);
}
