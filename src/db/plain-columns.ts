import type { EntityMetadata } from 'typeorm';

type ColumnMetadata = EntityMetadata['columns'][number];

/** A column's value as the plain row shows it: dates as YYYY-MM-DD text, numerics as float8, the rest as stored. */
function plainValue(column: ColumnMetadata, alias: string): string {
  const source = `${alias}."${column.databaseName}"`;
  return column.type === 'date' ? `to_char(${source}, 'YYYY-MM-DD')` : column.type === 'numeric' ? `${source}::float8` : source;
}

// Built once per entity and alias: the lists do not change while the process runs, and a read asks for one each time.
const columnLists = new WeakMap<EntityMetadata, Map<string, string>>();

/**
 * The column list that reads an entity's rows as plain objects with the entity's property names, in the shape
 * TypeORM's hydration gives them: `date` columns as YYYY-MM-DD strings, `numeric` columns as numbers (PostgreSQL's
 * float8 conversion rounds exactly like Number() on the numeric's text). Reading rows this way skips hydration,
 * which the profile of a nested page showed costing more than the SQL itself (issue 18).
 * Built from the metadata, so a new column on the entity is read with no change here.
 */
export function plainColumnList(metadata: EntityMetadata, alias: string): string {
  let byAlias = columnLists.get(metadata);
  if (!byAlias) columnLists.set(metadata, (byAlias = new Map()));
  let list = byAlias.get(alias);
  if (list === undefined) {
    list = metadata.columns.map((column) => `${plainValue(column, alias)} AS "${column.propertyName}"`).join(', ');
    byAlias.set(alias, list);
  }
  return list;
}

/**
 * The same plain row as one JSON object (`json_build_object`), of the named properties only or of every column: for
 * statements that return a whole tree as one JSON value. Numerics go into the JSON as their own decimal text, which
 * JSON.parse rounds to the same double as the float8 path (both round the exact decimal to nearest), without the
 * cast's cost. Property names not among the entity's columns are refused, so nothing but metadata reaches the SQL.
 */
export function plainJsonObject(metadata: EntityMetadata, alias: string, properties: ReadonlySet<string> | 'all'): string {
  const columns = properties === 'all' ? metadata.columns : metadata.columns.filter((column) => properties.has(column.propertyName));
  if (properties !== 'all' && columns.length !== properties.size) {
    const known = new Set(metadata.columns.map((column) => column.propertyName));
    throw new Error(`not columns of ${metadata.name}: ${[...properties].filter((name) => !known.has(name)).join(', ')}`);
  }
  const value = (column: ColumnMetadata) => (column.type === 'numeric' ? `${alias}."${column.databaseName}"` : plainValue(column, alias));
  return `json_build_object(${columns.map((column) => `'${column.propertyName}', ${value(column)}`).join(', ')})`;
}
