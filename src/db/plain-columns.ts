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

/** How a column's text comes back to the plain row's value: numbers for numeric and integer columns, text otherwise. */
function textDecoder(column: ColumnMetadata): (text: string) => unknown {
  const type = column.type;
  if (type === 'numeric' || type === 'integer' || type === 'int' || type === Number) return Number;
  if (type === 'date' || type === 'varchar' || type === 'text' || type === String) return (text) => text;
  throw new Error(`no text reading for column ${column.propertyName} of type ${String(type)}`);
}

/** An entity's chosen columns as the elements of a text array, and the function that turns those elements back. */
export interface PlainTextColumns {
  /** The columns as text expressions, comma-separated, in the order `decode` reads them. */
  expressions: string;
  /** The plain row (as `plainColumnList` reads it) from the array's elements, starting at `offset`. */
  decode(values: ReadonlyArray<string | null>, offset: number): Record<string, unknown>;
}

/**
 * The same plain row as elements of a text array (`array[…]`), of the named properties only or of every column: for
 * statements that return many rows of several tables in one row, the way PostGraphile reads a nested page (issue 18).
 * Text costs the database less than JSON, and numbers come back through Number() from their exact decimal text,
 * which rounds to the same double as the float8 path. Property names not among the entity's columns are refused, so
 * nothing but metadata reaches the SQL.
 */
export function plainTextColumns(metadata: EntityMetadata, alias: string, properties: ReadonlySet<string> | 'all'): PlainTextColumns {
  const columns = properties === 'all' ? metadata.columns : metadata.columns.filter((column) => properties.has(column.propertyName));
  if (properties !== 'all' && columns.length !== properties.size) {
    const known = new Set(metadata.columns.map((column) => column.propertyName));
    throw new Error(`not columns of ${metadata.name}: ${[...properties].filter((name) => !known.has(name)).join(', ')}`);
  }
  const readers = columns.map((column) => ({ name: column.propertyName, decode: textDecoder(column) }));
  const asText = (column: ColumnMetadata) => (column.type === 'date' ? plainValue(column, alias) : `${alias}."${column.databaseName}"::text`);
  return {
    expressions: columns.map(asText).join(', '),
    decode(values, offset) {
      const row: Record<string, unknown> = {};
      readers.forEach(({ name, decode }, index) => {
        const text = values[offset + index];
        row[name] = text === null ? null : decode(text);
      });
      return row;
    },
  };
}
