import type { DataSource, EntityManager } from 'typeorm';

/**
 * Named (prepared) statements for the hot reads, on a PostgreSQL server: a named statement is planned once per
 * connection instead of on every request. The nested page's statement took 1.16 ms of the server's CPU unnamed and
 * 0.83 ms named on PostgreSQL 15 (issue 18); PostGraphile prepares its statements the same way.
 *
 * Not on the embedded database: PGlite gives every connection one shared session, so a connection opened again (or a
 * second process on the same database) would find its names already taken.
 *
 * Bounded, since a statement stays prepared on every pooled connection for the connection's life: a text is named
 * once it has been asked for PREPARE_AFTER times, and at most MAX_NAMED texts a process; the rest run unnamed.
 */
const PREPARE_AFTER = 3;
const MAX_NAMED = 100;
/** How many texts not (yet) named are counted before the counts start again. */
const MAX_COUNTED = 1_000;

class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();

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
    const named = `fi_${this.names.size + 1}`;
    this.names.set(text, named);
    return named;
  }
}

const namesBySource = new WeakMap<DataSource, StatementNames>();

/**
 * Lets `queryPrepared` name statements on this data source, unless its server is PGlite (the embedded database, or
 * one served over a socket as the benchmark does): whether a server gives each connection its own session is not
 * in the URL, so the server is asked. Returns whether statements will be named.
 */
export async function usePreparedStatements(dataSource: DataSource): Promise<boolean> {
  const [{ version }]: Array<{ version: string }> = await dataSource.query('SELECT version()');
  if (version.includes('PGlite')) return false;
  namesBySource.set(dataSource, new StatementNames());
  return true;
}

/** Runs a read like `manager.query`, as a named statement when the data source allows it and the text is asked for often. */
export function queryPrepared<T>(manager: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const name = namesBySource.get(manager.connection)?.nameOf(text);
  if (!name) return manager.query(text, values);
  // TypeORM hands its query to `pg` as it is, and `pg` takes a query config object in place of the text; a new
  // object each time, since `pg` writes the values into it.
  return manager.query({ name, text } as unknown as string, values);
}
