import type { EntityMetadata } from 'typeorm';

type ColumnMetadata = EntityMetadata['columns'][number];

/** A column's value as the plain row shows it: dates as YYYY-MM-DD text, numerics as float8, the rest as stored. */
function plainValue(column: ColumnMetadata, alias: string): string {
  const source = `${alias}."${column.databaseName}"`;
  return column.type === 'date'
    ? `to_char(${source}, 'YYYY-MM-DD')`
    : column.type === 'numeric'
      ? `${source}::float8`
      : source;
}

// Built once per entity and alias: the lists do not change while the process runs, and a read asks for one each time.
const columnLists = new WeakMap<EntityMetadata, Map<string, string>>();

/**
 * The column list that reads an entity's rows as plain objects with the entity's property names, in the shape
 * TypeORM's hydration gives them: `date` columns as YYYY-MM-DD strings, `numeric` columns as numbers (PostgreSQL's
 * float8 conversion rounds exactly like Number() on the numeric's text). Reading rows this way skips hydration,
 * which costs more CPU than the SQL itself on a nested page.
 * Built from the metadata, so a new column on the entity is read with no change here.
 */
export function plainColumnList(metadata: EntityMetadata, alias: string, properties?: ReadonlySet<string>): string {
  let byKey = columnLists.get(metadata);
  if (!byKey) columnLists.set(metadata, (byKey = new Map()));
  // Primary columns are always read: the rest of a row is found by them.
  const columns = properties
    ? metadata.columns.filter((column) => column.isPrimary || properties.has(column.propertyName))
    : metadata.columns;
  const key = `${alias}:${properties ? columns.map((column) => column.propertyName).join(',') : '*'}`;
  let list = byKey.get(key);
  if (list === undefined) {
    list = columns.map((column) => `${plainValue(column, alias)} AS "${column.propertyName}"`).join(', ');
    // Bounded by the subsets a process is asked for; a list is a few hundred bytes.
    if (byKey.size < 1_000) byKey.set(key, list);
  }
  return list;
}

/** An entity's chosen columns as the elements of a JSON array, and the function that names those elements. */
export interface PlainArrayColumns {
  /** The columns as expressions, comma-separated, in the order `decode` reads them. */
  expressions: string;
  /** The plain row (as `plainColumnList` reads it) from the array's elements, starting at `offset`. */
  decode(values: readonly unknown[], offset: number): Record<string, unknown>;
}

/**
 * The same plain row as elements of a JSON array (`json_build_array(…)`), of the named properties only or of every
 * column: for statements that return many rows of several tables in one row, the way PostGraphile reads a nested
 * page, but as JSON, which the driver parses natively (a text array is parsed character by character in
 * JavaScript). Every column goes in as it is stored, with no conversion for the database to run: numerics as their
 * own decimal text, which JSON.parse rounds to the same double as the float8 path (both round the exact decimal to
 * nearest), and dates as YYYY-MM-DD (JSON always writes dates in ISO 8601, whatever the session's DateStyle).
 * Property names not among the entity's columns are refused, so nothing but metadata reaches the SQL.
 */
export function plainArrayColumns(
  metadata: EntityMetadata,
  alias: string,
  properties: ReadonlySet<string> | 'all',
): PlainArrayColumns {
  const columns =
    properties === 'all' ? metadata.columns : metadata.columns.filter((column) => properties.has(column.propertyName));
  if (properties !== 'all' && columns.length !== properties.size) {
    const known = new Set(metadata.columns.map((column) => column.propertyName));
    throw new Error(
      `not columns of ${metadata.name}: ${[...properties].filter((name) => !known.has(name)).join(', ')}`,
    );
  }
  const names = columns.map((column) => column.propertyName);
  return {
    expressions: columns.map((column) => `${alias}."${column.databaseName}"`).join(', '),
    decode(values, offset) {
      const row: Record<string, unknown> = {};
      for (let index = 0; index < names.length; index++) row[names[index]] = values[offset + index];
      return row;
    },
  };
}
