/**
 * The screener's SQL: the companies that pass a screen's company filters and its conditions on statement fields and
 * stored ratios, each with the period screened and the values asked of it. Column names come from the entities'
 * metadata (a name not on the entity is refused before any SQL is written), operators from a fixed list, and every
 * value, ratio positions included, is a parameter.
 */
import type { EntityManager } from 'typeorm';
import { Company } from './company.entity';
import { STATEMENT_ENTITIES } from '../statements/statement.repository';
import type { StatementKind } from '../statements/statement-kind';
import type { PeriodType } from '../statements/fiscal-period';
import { storedRatioPosition } from '../statements/stored-ratios';

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
  /**
   * Ranges of annual revenue (a quarter's times four; from inclusive, up to exclusive), any of which the screened
   * period must fall in; every revenue when empty. Ignored without a period.
   */
  revenueRanges: ReadonlyArray<{ min: number; max: number }>;
  /**
   * Only the candidates ranked within the first `within` by a value, missing values last either way (ties share a
   * rank, so every company of a tie comes): what a page of a screen sorted by that value needs. Every candidate when
   * absent; ignored without a period.
   */
  rankedBy?: { value: ScreenRead | 'annualRevenue'; descending: boolean; within: number };
}

/** The candidates of a screen, and how many companies pass it in all. */
export interface ScreenCandidates {
  candidates: ScreenCandidate[];
  total: number;
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

/** A read as stored: a statement column of its table's alias (its own type), or a stored ratio (float8). */
function storedSql(manager: EntityManager, read: ScreenRead, param: (value: unknown) => string): string {
  if ('ratio' in read) return `r.ratios[${param(storedRatioPosition(read.ratio))}]`;
  const column = manager
    .getRepository(STATEMENT_ENTITIES[read.statement])
    .metadata.findColumnWithPropertyName(read.property);
  if (!column) throw new Error(`No column "${read.property}" on the ${read.statement} statement`);
  return `${ALIAS[read.statement]}.${column.databaseName}`;
}

const ANNUAL_REVENUE = `(i.revenue::float8 * CASE WHEN r.period LIKE 'Q%' THEN 4 ELSE 1 END)`;

function revenueRangeSql(range: { min: number; max: number }, param: (value: unknown) => string): string {
  const bounds = [
    ...(Number.isFinite(range.min) ? [`${ANNUAL_REVENUE} >= ${param(range.min)}`] : [`i.revenue IS NOT NULL`]),
    ...(Number.isFinite(range.max) ? [`${ANNUAL_REVENUE} < ${param(range.max)}`] : []),
  ];
  return `(${bounds.join(' AND ')})`;
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
 * Companies passing the company filters and the conditions, each with its screened period and the values read of it,
 * and their number. A screened period is a row of the stored ratios (one per period with an income statement); its
 * statements are joined on the period's key, so a condition on one leaves out companies without it, as a missing
 * value never meets a condition. Without a period, every company passing the company filters, with no values.
 */
export async function findScreenCandidates(
  manager: EntityManager,
  query: ScreenCandidateQuery,
): Promise<ScreenCandidates> {
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
  let ranked: ScreenCandidateQuery['rankedBy'] = undefined;
  if (query.period) {
    from = `statement_ratios AS r JOIN ${companies} AS c ON c.id = r.company_id`;
    period = 'r.period';
    where.push(periodCondition(query.period, param));
    const reads = [
      ...query.reads,
      ...query.conditions.map((condition) => condition.read),
      // Annual revenue reads the income statement.
      ...(query.revenueRanges.length > 0 || query.rankedBy?.value === 'annualRevenue'
        ? [{ statement: 'income' as const, property: 'revenue' }]
        : []),
    ];
    for (const kind of new Set(reads.flatMap((read) => ('statement' in read ? [read.statement] : [])))) {
      const table = manager.getRepository(STATEMENT_ENTITIES[kind]).metadata.tableName;
      const alias = ALIAS[kind];
      from += ` LEFT JOIN ${table} AS ${alias} ON ${alias}.company_id = r.company_id AND ${alias}.period = r.period`;
    }
    selected.push(...query.reads.map((read, index) => `${readSql(manager, read, param)} AS v${index}`));
    where.push(...query.conditions.map((condition) => conditionSql(manager, condition, param)));
    if (query.revenueRanges.length > 0)
      where.push(`(${query.revenueRanges.map((range) => revenueRangeSql(range, param)).join(' OR ')})`);
    ranked = query.rankedBy;
  }
  const columns = `c.id, c.name, c.ticker, c.sector, c.currency, ${period} AS period${selected.map((column) => `, ${column}`).join('')}`;
  const filtered = `FROM ${from} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
  let sql = `SELECT ${columns} ${filtered}`;
  if (ranked) {
    const value = ranked.value === 'annualRevenue' ? ANNUAL_REVENUE : readSql(manager, ranked.value, param);
    const order = `${value} ${ranked.descending ? 'DESC' : 'ASC'} NULLS LAST`;
    sql = `SELECT * FROM (SELECT ${columns}, count(*) OVER () AS total, rank() OVER (ORDER BY ${order}) AS sort_rank
             ${filtered}) AS screened WHERE sort_rank <= ${param(ranked.within)}`;
  }
  // No order: the caller sorts the candidates by the screen's own order.
  const rows: Array<Omit<ScreenCandidate, 'values'> & Record<string, unknown>> = await manager.query(sql, values);
  const readCount = query.period ? query.reads.length : 0;
  const candidates = rows.map(({ id, name, ticker, sector, currency, period: label, ...read }) => ({
    id,
    name,
    ticker,
    sector,
    currency,
    period: label,
    values: Array.from({ length: readCount }, (_, index) => read[`v${index}`] as number | null),
  }));
  // Every row carries the count of all; no row means none passed (the first rank always exists).
  return { candidates, total: ranked ? Number(rows[0]?.total ?? 0) : rows.length };
}
