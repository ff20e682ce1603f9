/**
 * The screener's SQL: the companies that pass a screen's company filters and its conditions on statement fields and
 * stored ratios, each with the period screened and the values asked of it. Column names come from the entities'
 * metadata (a name not on the entity is refused before any SQL is written), operators from a fixed list, and every
 * value, ratio keys included, is a parameter.
 */
import type { EntityManager } from 'typeorm';
import { Company } from './company.entity';
import { STATEMENT_ENTITIES } from '../statements/statement.repository';
import type { StatementKind } from '../statements/statement-kind';
import type { PeriodType } from '../statements/fiscal-period';

/** A value a screen reads of each company's screened period: a statement's line item or a stored ratio. */
export type ScreenRead = { statement: StatementKind; property: string } | { ratio: string };

export interface ScreenReadCondition {
  read: ScreenRead;
  op: '>' | '>=' | '<' | '<=' | '=' | '!=' | 'between';
  values: number[];
}

/** Which period of each company is screened: one label, or its newest of a type that has an income statement. */
export type ScreenedPeriod = { label: string } | { newest: PeriodType };

export interface ScreenCandidateQuery {
  /** Null screens companies without reading a period (the caller computes it, e.g. trailing twelve months). */
  period: ScreenedPeriod | null;
  /** Any of these sectors (any case); every sector when empty. */
  sectors: readonly string[];
  /** Any of these currencies (ISO 4217, upper case); every currency when empty. */
  currencies: readonly string[];
  /** Conditions on the screened period's values; ignored without a period. */
  conditions: readonly ScreenReadCondition[];
  /** The values each candidate carries, in this order; none without a period. */
  reads: readonly ScreenRead[];
}

export interface ScreenCandidate {
  id: number;
  name: string;
  ticker: string;
  sector: string;
  currency: string;
  /** The screened period's label; null when the query named no period. */
  period: string | null;
  /** The values of `reads`, in their order (null where the period does not report it). */
  values: Array<number | null>;
}

const ALIAS: Record<StatementKind, string> = { income: 'i', balance: 'b', cashFlow: 'f' };
const OPERATORS = new Set(['>', '>=', '<', '<=', '=', '!=']);

/** The stored periods a screen reads: one label, or each company's newest of a type (marked when stored). */
function periodCondition(period: ScreenedPeriod, param: (value: unknown) => string): string {
  if ('label' in period) return `r.period = ${param(period.label)}`;
  const labels =
    period.newest === 'ANNUAL' ? `r.period >= 'FY' AND r.period < 'FZ'` : `r.period >= 'Q' AND r.period < 'R'`;
  return `r.newest AND ${labels}`;
}

/** A read as stored: a statement column of its table's alias (its own type), or a key of the stored ratios (float8). */
function storedSql(manager: EntityManager, read: ScreenRead, param: (value: unknown) => string): string {
  if ('ratio' in read) return `(r.ratios ->> ${param(read.ratio)})::float8`;
  const column = manager
    .getRepository(STATEMENT_ENTITIES[read.statement])
    .metadata.findColumnWithPropertyName(read.property);
  if (!column) throw new Error(`No column "${read.property}" on the ${read.statement} statement`);
  return `${ALIAS[read.statement]}.${column.databaseName}`;
}

/** A read as the answer takes it: a number (numeric columns read as float8, as everywhere else). */
const readSql = (manager: EntityManager, read: ScreenRead, param: (value: unknown) => string) =>
  'ratio' in read ? storedSql(manager, read, param) : `${storedSql(manager, read, param)}::float8`;

// Conditions compare the stored column itself, so the planner estimates them from the column's statistics.
function conditionSql(manager: EntityManager, condition: ScreenReadCondition, param: (value: unknown) => string) {
  const target = storedSql(manager, condition.read, param);
  if (condition.op === 'between')
    return `${target} BETWEEN ${param(condition.values[0])} AND ${param(condition.values[1])}`;
  if (!OPERATORS.has(condition.op)) throw new Error(`No operator "${condition.op}"`);
  return `${target} ${condition.op} ${param(condition.values[0])}`;
}

/**
 * Companies passing the company filters and the conditions, each with its screened period and the values read of it.
 * A screened period is a row of the stored ratios (one per period with an income statement); its statements are
 * joined on the period's key, so a condition on one leaves out companies without it, as a missing value never meets a
 * condition. Without a period, every company passing the company filters, with no values.
 */
export async function findScreenCandidates(
  manager: EntityManager,
  query: ScreenCandidateQuery,
): Promise<ScreenCandidate[]> {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const companies = manager.getRepository(Company).metadata.tableName;
  const where: string[] = [];
  if (query.sectors.length > 0)
    where.push(`lower(c.sector) = ANY(${param(query.sectors.map((sector) => sector.toLowerCase()))}::text[])`);
  if (query.currencies.length > 0) where.push(`c.currency = ANY(${param(query.currencies)}::text[])`);
  let from = `${companies} AS c`;
  let period = 'NULL::text';
  const selected: string[] = [];
  if (query.period) {
    from = `statement_ratios AS r JOIN ${companies} AS c ON c.id = r.company_id`;
    period = 'r.period';
    where.push(periodCondition(query.period, param));
    const reads = [...query.reads, ...query.conditions.map((condition) => condition.read)];
    for (const kind of new Set(reads.flatMap((read) => ('statement' in read ? [read.statement] : [])))) {
      const table = manager.getRepository(STATEMENT_ENTITIES[kind]).metadata.tableName;
      const alias = ALIAS[kind];
      from += ` LEFT JOIN ${table} AS ${alias} ON ${alias}.company_id = r.company_id AND ${alias}.period = r.period`;
    }
    selected.push(...query.reads.map((read, index) => `${readSql(manager, read, param)} AS v${index}`));
    where.push(...query.conditions.map((condition) => conditionSql(manager, condition, param)));
  }
  // No order: the caller sorts every candidate by the screen's own order.
  const rows: Array<Omit<ScreenCandidate, 'values'> & Record<string, unknown>> = await manager.query(
    `SELECT c.id, c.name, c.ticker, c.sector, c.currency, ${period} AS period${selected.map((column) => `, ${column}`).join('')}
       FROM ${from} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`,
    values,
  );
  const readCount = query.period ? query.reads.length : 0;
  return rows.map(({ id, name, ticker, sector, currency, period: label, ...read }) => ({
    id,
    name,
    ticker,
    sector,
    currency,
    period: label,
    values: Array.from({ length: readCount }, (_, index) => read[`v${index}`] as number | null),
  }));
}
