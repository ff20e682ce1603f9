/**
 * Store of the financial statements (income, balance sheet, cash flow) and the sources of their imported values.
 * All statement SQL lives here. Every function takes the EntityManager to run on, so it joins the caller's
 * transaction when there is one (PGlite has a single backend session: a query outside it would wait forever).
 * Statement columns are never listed by hand: writes go through the entities and reads list the entities' columns,
 * so a new line item is a column on its entity (and a migration), nothing here.
 */
import type { EntityManager } from 'typeorm';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import type { ValueSource } from './value-source.type';
import type { FiledValue } from './data-quality';
import type { PeriodType } from './fiscal-period';
import { plainColumnList, plainArrayColumns } from '../db/plain-columns';
import { queryPrepared, sqlCount } from '../db/prepared-statements.repository';

import type { StatementKind } from './statement-kind';

export type { StatementKind } from './statement-kind';

export const STATEMENT_ENTITIES = {
  income: IncomeStatement,
  balance: BalanceSheet,
  cashFlow: CashFlowStatement,
} as const satisfies Record<StatementKind, unknown>;

export type StatementOf<K extends StatementKind> = InstanceType<(typeof STATEMENT_ENTITIES)[K]>;

/** A statement of any kind, as written: the entity's own properties (camelCase), line items spread in. */
export type StatementRow = Record<string, unknown> & { companyId: number; period: string };

export interface StatementKey {
  companyId: number;
  period: string;
}

/** One row per (company, period) that has a statement, with the period's dates (YYYY-MM-DD) and the kinds it has. */
export interface StatementPeriodRow {
  companyId: number;
  period: string;
  periodStart: string;
  periodEnd: string;
  kinds: StatementKind[];
}

/** One imported value's source, as the SEC import writes it: what the API shows, and where it belongs. */
export type ValueSourceRow = ValueSource & {
  statement: StatementKind;
  period: string;
  /** As stored (payments negated into cash outflows); `reportedValue` is as filed. */
  value: number;
};

const INSERT_BATCH = 500;
const SOURCE_BATCH = 500;

const tableOf = (manager: EntityManager, kind: StatementKind) =>
  manager.getRepository(STATEMENT_ENTITIES[kind]).metadata.tableName;

/** The statements of one kind for many (company, period) keys, in one query; keys without a statement have no row. */
export function findStatements<K extends StatementKind>(
  manager: EntityManager,
  kind: K,
  keys: readonly StatementKey[],
): Promise<Array<StatementOf<K>>> {
  // Plain rows shaped like the entity, not hydrated entities: hydration was the dearest part of a nested page.
  const metadata = manager.getRepository(STATEMENT_ENTITIES[kind]).metadata;
  return queryPrepared(
    manager,
    `SELECT ${plainColumnList(metadata, 's')} FROM ${metadata.tableName} AS s
      WHERE (s.company_id, s.period) IN (SELECT * FROM unnest($1::int[], $2::text[]))`,
    [keys.map((key) => key.companyId), keys.map((key) => key.period)],
  );
}

/** Every statement of one kind of the given companies, as plain rows shaped like the entity. */
export function findStatementsOfCompanies<K extends StatementKind>(
  manager: EntityManager,
  kind: K,
  companyIds: readonly number[],
): Promise<Array<StatementOf<K>>> {
  const metadata = manager.getRepository(STATEMENT_ENTITIES[kind]).metadata;
  return manager.query(
    `SELECT ${plainColumnList(metadata, 's')} FROM ${metadata.tableName} AS s WHERE s.company_id = ANY($1::int[])`,
    [companyIds],
  );
}

/** Fiscal-year periods are labelled FY<yyyy>, quarters Q<n>-<yyyy>. */
const PERIOD_LABEL_PATTERN: Record<PeriodType, string> = { ANNUAL: 'FY%', QUARTER: 'Q%' };

/**
 * Every period of the given companies that has a statement, with the kinds it has, in one query; only periods of
 * `type` when one is given (a page of fiscal years needs none of the quarters). The dates are the first statement's,
 * in the order income, balance sheet, cash flow.
 */
export async function findStatementPeriods(
  manager: EntityManager,
  companyIds: readonly number[],
  type: PeriodType | null = null,
): Promise<StatementPeriodRow[]> {
  const union = (Object.keys(STATEMENT_ENTITIES) as StatementKind[])
    .map(
      (
        kind,
        rank,
      ) => `SELECT company_id, period, period_start, period_end, '${kind}' AS kind, ${rank} AS rank FROM ${tableOf(manager, kind)}
       WHERE company_id = ANY($1) AND ($2::text IS NULL OR period LIKE $2)`,
    )
    .join(' UNION ALL ');
  return manager.query(
    `SELECT company_id AS "companyId", period,
            to_char((array_agg(period_start ORDER BY rank))[1], 'YYYY-MM-DD') AS "periodStart",
            to_char((array_agg(period_end ORDER BY rank))[1], 'YYYY-MM-DD') AS "periodEnd",
            array_agg(kind ORDER BY rank) AS kinds
       FROM (${union}) AS s GROUP BY company_id, period`,
    [companyIds, type ? PERIOD_LABEL_PATTERN[type] : null],
  );
}

// Per data source: the entities' columns do not change while the process runs, and every nested page asks for them.
const columnNamesBySource = new WeakMap<EntityManager['connection'], Record<StatementKind, ReadonlySet<string>>>();

/** The column property names of each statement kind, from the entities' metadata. */
export function statementColumnNames(manager: EntityManager): Record<StatementKind, ReadonlySet<string>> {
  let names = columnNamesBySource.get(manager.connection);
  if (!names) {
    const of = (kind: StatementKind) =>
      new Set(manager.getRepository(STATEMENT_ENTITIES[kind]).metadata.columns.map((column) => column.propertyName));
    names = { income: of('income'), balance: of('balance'), cashFlow: of('cashFlow') };
    columnNamesBySource.set(manager.connection, names);
  }
  return names;
}

/** A period of a company's recent history with the statements read with it (null where the company has none). */
export interface RecentPeriodRow extends Omit<StatementPeriodRow, 'kinds'> {
  statements: Partial<Record<StatementKind, Record<string, unknown> | null>>;
}

const STATEMENT_KINDS = Object.keys(STATEMENT_ENTITIES) as StatementKind[];

/** Newest first in SQL, for one type of period: fiscal-year labels order themselves, quarters need the year first. */
const NEWEST_FIRST_SQL: Record<PeriodType, string> = {
  ANNUAL: 's.period DESC',
  QUARTER: 'right(s.period, 4) DESC, s.period DESC',
};

/** A company's recent history as one SQL expression, and what turns its value into the history's periods. */
export interface RecentStatementsRead {
  /** A JSON value computed from the company id expression it was made for. */
  expression: string;
  /** The periods in the expression's value, in no order: the newest `last` of them are the history. */
  read(companyId: number, value: unknown): RecentPeriodRow[];
}

/**
 * The periods of `type` of a company that have a statement, among them its last `last` (a fiscal year before its own
 * Q4), each with the statements of the given kinds as plain objects of the chosen columns, as one SQL expression on
 * `companyId` (an SQL expression), to be read with each company of a page in the page's own statement.
 * It takes no parameters: the pattern and the count are written into the text (see sqlCount). A period's dates are
 * its first statement's, in the order income, balance sheet, cash flow (as findStatementPeriods gives them).
 *
 * Shaped like PostGraphile's read of the same page: per statement table, an array of the company's newest `last` rows
 * of the type (an index range with its own LIMIT), merged here; the caller keeps the newest `last`. That is exact: a
 * period among the newest `last` of all tables is among the newest `last` of every table that has it. Every table is
 * read, selected or not, since a period counts when any of its statements exists.
 */
export function recentStatements(
  manager: EntityManager,
  companyId: string,
  {
    type,
    last,
    kinds,
  }: { type: PeriodType; last: number; kinds: ReadonlyMap<StatementKind, ReadonlySet<string> | 'all'> },
): RecentStatementsRead {
  const selected = new Map(
    [...kinds].map(([kind, columns]) => [
      kind,
      plainArrayColumns(manager.getRepository(STATEMENT_ENTITIES[kind]).metadata, 's', columns),
    ]),
  );
  // The label pattern is the code's own constant, written into the text so that a prepared statement's generic plan
  // still reads an index range (a parameter would leave it to filter every period of the company).
  const pattern = `'${PERIOD_LABEL_PATTERN[type]}'`;
  const limit = sqlCount(last);
  const tables = STATEMENT_KINDS.map((kind) => {
    const columns = selected.get(kind);
    const elements = ['s.period', 's.period_start', 's.period_end', ...(columns ? [columns.expressions] : [])];
    // The rows' order within a table does not matter: the merge below orders the periods.
    return `(SELECT json_agg(json_build_array(${elements.join(', ')})) FROM (SELECT * FROM ${tableOf(manager, kind)} AS s
              WHERE s.company_id = ${companyId} AND s.period LIKE ${pattern} ORDER BY ${NEWEST_FIRST_SQL[type]} LIMIT ${limit}) AS s)`;
  });
  const DATES = 3; // period, start, end: the columns read follow them
  return {
    expression: `json_build_array(${tables.join(', ')})`,
    read(companyId, value) {
      const periods = new Map<string, RecentPeriodRow>();
      STATEMENT_KINDS.forEach((kind, index) => {
        const columns = selected.get(kind);
        for (const values of (value as Array<unknown[][] | null>)[index] ?? []) {
          const label = values[0] as string;
          let period = periods.get(label);
          if (!period) {
            period = {
              companyId,
              period: label,
              periodStart: values[1] as string,
              periodEnd: values[2] as string,
              statements: {},
            };
            periods.set(label, period);
          }
          if (columns) period.statements[kind] = columns.decode(values, DATES);
        }
      });
      for (const period of periods.values()) for (const kind of selected.keys()) period.statements[kind] ??= null;
      return [...periods.values()];
    },
  };
}

/** A company's statements at chosen periods as one SQL expression, and what turns its value into rows by kind. */
export interface StatementsAtPeriodsRead {
  expression: string;
  /** The plain rows (as findStatements reads them) of each kind; a period without a statement has none. */
  read(value: unknown): Map<StatementKind, StatementRow[]>;
}

/**
 * The statements of each kind at the given periods of the company `companyId` (an SQL expression), every column, as
 * one SQL expression: a company read with the statements it is asked for, in one statement. The period lists are
 * bound through `param`, so one text serves every period.
 */
export function statementsAtPeriods(
  manager: EntityManager,
  companyId: string,
  periods: ReadonlyMap<StatementKind, ReadonlySet<string>>,
  param: (value: unknown) => string,
): StatementsAtPeriodsRead {
  const kinds = [...periods.keys()];
  const columns = kinds.map((kind) =>
    plainArrayColumns(manager.getRepository(STATEMENT_ENTITIES[kind]).metadata, 's', 'all'),
  );
  return arraysByKind(
    kinds,
    (
      kind,
      index,
    ) => `(SELECT json_agg(json_build_array(${columns[index].expressions})) FROM ${tableOf(manager, kind)} AS s
        WHERE s.company_id = ${companyId} AND s.period = ANY(${param([...(periods.get(kind) as ReadonlySet<string>)])}::text[]))`,
    (values, index) => columns[index].decode(values, 0) as StatementRow,
  );
}

/**
 * One subquery per statement kind, each a JSON array of rows (`json_agg(json_build_array(…))`), as the elements of
 * one JSON array; and what turns its value back into rows by kind (a subquery that found nothing gives none).
 */
function arraysByKind<T>(
  kinds: StatementKind[],
  subquery: (kind: StatementKind, index: number) => string,
  decode: (values: unknown[], index: number) => T,
): { expression: string; read(value: unknown): Map<StatementKind, T[]> } {
  return {
    expression: `json_build_array(${kinds.map(subquery).join(', ')})`,
    read: (value) =>
      new Map(
        kinds.map((kind, index) => [
          kind,
          ((value as Array<unknown[][] | null>)[index] ?? []).map((values) => decode(values, index)),
        ]),
      ),
  };
}

/** The value sources of one statement kind for many (company, period) keys, in one query, by field. */
export function findValueSources(
  manager: EntityManager,
  kind: StatementKind,
  keys: readonly StatementKey[],
): Promise<Array<ValueSource & StatementKey>> {
  return manager.query(
    `SELECT company_id AS "companyId", period, field, concept, accession, form, to_char(filed, 'YYYY-MM-DD') AS filed, derived, restated,
            reported_value::float8 AS "reportedValue", document_id AS "documentId", page
       FROM statement_value_sources
      WHERE statement = $1 AND (company_id, period) IN (SELECT * FROM unnest($2::int[], $3::text[]))
      ORDER BY field`,
    [kind, keys.map((key) => key.companyId), keys.map((key) => key.period)],
  );
}

/** Inserts statements of one kind, in batches (a statement is ~30 parameters; PostgreSQL allows 65,535 a query). */
export async function insertStatements(
  manager: EntityManager,
  kind: StatementKind,
  rows: readonly StatementRow[],
): Promise<void> {
  const repository = manager.getRepository(STATEMENT_ENTITIES[kind]);
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await repository.insert(rows.slice(start, start + INSERT_BATCH) as never);
  }
}

/** Removes every statement of a company and the sources of its values. */
export async function deleteCompanyStatements(manager: EntityManager, companyId: number): Promise<void> {
  for (const entity of Object.values(STATEMENT_ENTITIES)) await manager.getRepository(entity).delete({ companyId });
  await manager.query('DELETE FROM statement_value_sources WHERE company_id = $1', [companyId]);
}

// A statement read from a stored document has value sources that name the document; any other (XBRL, demo) has not.
const FROM_DOCUMENTS = `EXISTS (SELECT 1 FROM statement_value_sources v
  WHERE v.company_id = s.company_id AND v.statement = $2 AND v.period = s.period AND v.document_id IS NOT NULL)`;

/** The periods of each kind a company has statements of that were not read from its documents (XBRL, demo data). */
export async function findPeriodsNotFromDocuments(
  manager: EntityManager,
  companyId: number,
): Promise<Array<{ statement: StatementKind; period: string }>> {
  const held: Array<{ statement: StatementKind; period: string }> = [];
  for (const kind of Object.keys(STATEMENT_ENTITIES) as StatementKind[]) {
    const rows: Array<{ period: string }> = await manager.query(
      `SELECT s.period FROM ${tableOf(manager, kind)} s WHERE s.company_id = $1 AND NOT ${FROM_DOCUMENTS}`,
      [companyId, kind],
    );
    held.push(...rows.map(({ period }) => ({ statement: kind, period })));
  }
  return held;
}

/** Removes a company's statements that were read from its documents, and their sources. */
export async function deleteStatementsFromDocuments(manager: EntityManager, companyId: number): Promise<void> {
  for (const kind of Object.keys(STATEMENT_ENTITIES) as StatementKind[])
    await manager.query(`DELETE FROM ${tableOf(manager, kind)} s WHERE s.company_id = $1 AND ${FROM_DOCUMENTS}`, [
      companyId,
      kind,
    ]);
  await manager.query('DELETE FROM statement_value_sources WHERE company_id = $1 AND document_id IS NOT NULL', [
    companyId,
  ]);
}

/** Inserts the sources of a company's imported values, in batches. */
export async function insertValueSources(
  manager: EntityManager,
  companyId: number,
  sources: readonly ValueSourceRow[],
): Promise<void> {
  for (let start = 0; start < sources.length; start += SOURCE_BATCH) {
    const batch = sources.slice(start, start + SOURCE_BATCH);
    const column = <C extends keyof ValueSourceRow>(name: C) => batch.map((source) => source[name]);
    await manager.query(
      `INSERT INTO statement_value_sources (company_id, statement, period, field, value, reported_value, concept, accession, form, filed, derived, restated, document_id, page)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::text[], $8::text[], $9::text[], $10::date[], $11::bool[], $12::bool[], $13::int[], $14::int[])`,
      [
        companyId,
        column('statement'),
        column('period'),
        column('field'),
        column('value'),
        column('reportedValue'),
        column('concept'),
        column('accession'),
        column('form'),
        column('filed'),
        column('derived'),
        column('restated'),
        column('documentId'),
        column('page'),
      ],
    );
  }
}

/** What a company's stored filings show for the statements XBRL facts (or demo data) made: replaces the earlier set. */
export async function replaceFiledValues(
  manager: EntityManager,
  companyId: number,
  values: ReadonlyArray<FiledValue & StatementKey & { statement: StatementKind }>,
): Promise<void> {
  await manager.query('DELETE FROM statement_filed_values WHERE company_id = $1', [companyId]);
  for (let start = 0; start < values.length; start += SOURCE_BATCH) {
    const batch = values.slice(start, start + SOURCE_BATCH);
    const column = <C extends keyof (typeof batch)[number]>(name: C) => batch.map((value) => value[name]);
    await manager.query(
      `INSERT INTO statement_filed_values (company_id, statement, period, field, value, document_id, page, label)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::int[], $7::int[], $8::text[])`,
      [
        companyId,
        column('statement'),
        column('period'),
        column('field'),
        column('value'),
        column('documentId'),
        column('page'),
        batch.map((value) => value.label.slice(0, 300)),
      ],
    );
  }
}

/** What stored filings show for a company's statements at chosen periods, as one SQL expression (see statementsAtPeriods). */
export interface FiledValuesAtPeriodsRead {
  expression: string;
  /** The filed values of each kind, with their periods, ordered by field as findFiledValues orders them. */
  read(value: unknown): Map<StatementKind, Array<FiledValue & { period: string }>>;
}

export function filedValuesAtPeriods(
  companyId: string,
  periods: ReadonlyMap<StatementKind, ReadonlySet<string>>,
  param: (value: unknown) => string,
): FiledValuesAtPeriodsRead {
  return arraysByKind(
    [...periods.keys()],
    (kind) => `(SELECT json_agg(json_build_array(f.period, f.field, f.value::float8, f.document_id, f.page, f.label)
        ORDER BY f.field) FROM statement_filed_values AS f
        WHERE f.company_id = ${companyId} AND f.statement = ${param(kind)}
          AND f.period = ANY(${param([...(periods.get(kind) as ReadonlySet<string>)])}::text[]))`,
    ([period, field, amount, documentId, page, label]) => ({
      period: period as string,
      field: field as string,
      value: amount as number,
      documentId: documentId as number,
      page: page as number | null,
      label: label as string,
    }),
  );
}

/** What stored filings show for statements of one kind, for many (company, period) keys, in one query. */
export function findFiledValues(
  manager: EntityManager,
  kind: StatementKind,
  keys: readonly StatementKey[],
): Promise<Array<FiledValue & StatementKey>> {
  return manager.query(
    `SELECT company_id AS "companyId", period, field, value::float8 AS value, document_id AS "documentId", page, label
       FROM statement_filed_values
      WHERE statement = $1 AND (company_id, period) IN (SELECT * FROM unnest($2::int[], $3::text[]))
      ORDER BY field`,
    [kind, keys.map((key) => key.companyId), keys.map((key) => key.period)],
  );
}
