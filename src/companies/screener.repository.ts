/**
 * The screener's SQL: the companies that pass a screen's company filters and its conditions on statement fields, each
 * with the period screened. Column names come from the entities' metadata (a name not on the entity is refused
 * before any SQL is written), operators from a fixed list, and every value is a parameter.
 */
import type { EntityManager } from 'typeorm';
import { Company } from './company.entity';
import { STATEMENT_ENTITIES } from '../statements/statement.repository';
import type { StatementKind } from '../statements/statement-kind';
import type { PeriodType } from '../statements/fiscal-period';

export interface StatementCondition {
  statement: StatementKind;
  /** The entity property (camelCase) of a line item. */
  property: string;
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
  /** Conditions on the screened period's statements; ignored without a period. */
  conditions: readonly StatementCondition[];
}

export interface ScreenCandidate {
  id: number;
  name: string;
  ticker: string;
  sector: string;
  currency: string;
  /** The screened period's label; null when the query named no period. */
  period: string | null;
}

const ALIAS: Record<StatementKind, string> = { income: 'i', balance: 'b', cashFlow: 'f' };
const OPERATORS = new Set(['>', '>=', '<', '<=', '=', '!=']);

/**
 * The newest period of a type per company, as a lateral subquery on the (company_id, period) index: fiscal-year labels
 * are an index range that sorts by itself; quarter labels sort by year first, from the columns that hold them.
 */
function periodSource(manager: EntityManager, period: ScreenedPeriod, param: (value: unknown) => string): string {
  const income = manager.getRepository(STATEMENT_ENTITIES.income).metadata.tableName;
  if ('label' in period)
    return `(SELECT s.period FROM ${income} AS s WHERE s.company_id = c.id AND s.period = ${param(period.label)})`;
  const newest =
    period.newest === 'ANNUAL'
      ? `s.period >= 'FY' AND s.period < 'FZ' ORDER BY s.period DESC`
      : `s.period >= 'Q' AND s.period < 'R' ORDER BY s.fiscal_year DESC, s.fiscal_quarter DESC`;
  return `(SELECT s.period FROM ${income} AS s WHERE s.company_id = c.id AND ${newest} LIMIT 1)`;
}

function conditionSql(
  manager: EntityManager,
  condition: StatementCondition,
  param: (value: unknown) => string,
): string {
  const column = manager
    .getRepository(STATEMENT_ENTITIES[condition.statement])
    .metadata.findColumnWithPropertyName(condition.property);
  if (!column) throw new Error(`No column "${condition.property}" on the ${condition.statement} statement`);
  const target = `${ALIAS[condition.statement]}.${column.databaseName}`;
  if (condition.op === 'between')
    return `${target} BETWEEN ${param(condition.values[0])} AND ${param(condition.values[1])}`;
  if (!OPERATORS.has(condition.op)) throw new Error(`No operator "${condition.op}"`);
  return `${target} ${condition.op} ${param(condition.values[0])}`;
}

/** Companies passing the company filters and the statement conditions, each with its screened period, by id. */
export function findScreenCandidates(manager: EntityManager, query: ScreenCandidateQuery): Promise<ScreenCandidate[]> {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const companies = manager.getRepository(Company).metadata.tableName;
  const where: string[] = [];
  if (query.sectors.length > 0)
    where.push(`lower(c.sector) = ANY(${param(query.sectors.map((sector) => sector.toLowerCase()))}::text[])`);
  if (query.currencies.length > 0) where.push(`c.currency = ANY(${param(query.currencies)}::text[])`);
  const joins: string[] = [];
  let period = 'NULL::text';
  if (query.period) {
    joins.push(`CROSS JOIN LATERAL ${periodSource(manager, query.period, param)} AS p(period)`);
    period = 'p.period';
    const kinds = new Set(query.conditions.map((condition) => condition.statement));
    for (const kind of kinds) {
      const table = manager.getRepository(STATEMENT_ENTITIES[kind]).metadata.tableName;
      joins.push(
        `JOIN ${table} AS ${ALIAS[kind]} ON ${ALIAS[kind]}.company_id = c.id AND ${ALIAS[kind]}.period = p.period`,
      );
    }
    where.push(...query.conditions.map((condition) => conditionSql(manager, condition, param)));
  }
  return manager.query(
    `SELECT c.id, c.name, c.ticker, c.sector, c.currency, ${period} AS period FROM ${companies} AS c ${joins.join(' ')}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.id`,
    values,
  );
}
