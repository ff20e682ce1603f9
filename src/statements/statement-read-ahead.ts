import type DataLoader from 'dataloader';
import type { ResolveTree } from 'graphql-parse-resolve-info';
import type { EntityManager } from 'typeorm';
import type { ReadAhead } from '../db/read-ahead';
import { comparedStatements } from './data-quality';
import { parsePeriodRequest } from './fiscal-period';
import { KIND_FIELDS, TYPE_NAMES } from './history-prefetch';
import {
  filedValuesAtPeriods,
  statementsAtPeriods,
  type FiledValuesAtPeriodsRead,
  type StatementKey,
  type StatementKind,
  type StatementsAtPeriodsRead,
} from './statement.repository';
import type { StatementLoaders } from './statement.loaders';

/** Periods by statement kind. */
type PeriodsByKind = Map<StatementKind, Set<string>>;

/** Statement periods to read, by kind, and those whose filed values the filings-agree check needs. */
export interface PlannedStatements {
  statements: PeriodsByKind;
  filed: PeriodsByKind;
}

/**
 * The statements at exact periods that a selection of one company asks for (`company { incomeStatement(period:
 * "FY2024") { … } }`), with those its data-quality checks compare it with when `dataQuality` is selected: what the
 * company's own query can read, so that the most used read costs one round trip instead of three. `fields` are the
 * selected fields of the Company type, as graphql-parse-resolve-info gives them. "latest" and "ttm" are left to the
 * resolvers, which work them out from the company's periods.
 */
export function plannedStatementReads(fields: ResolveTree[]): PlannedStatements {
  const planned: PlannedStatements = { statements: new Map(), filed: new Map() };
  const add = (kind: StatementKind, period: string, to: PeriodsByKind = planned.statements) =>
    to.set(kind, (to.get(kind) ?? new Set()).add(period));
  for (const field of fields) {
    const kind = KIND_FIELDS[field.name];
    if (!kind) continue;
    let request: ReturnType<typeof parsePeriodRequest>;
    try {
      request = parsePeriodRequest(field.args.period as string | null | undefined);
    } catch {
      continue; // a malformed period is the resolver's error to give
    }
    if (request.kind !== 'exact') continue;
    const period = request.period.label;
    add(kind, period);
    const selected = Object.values(field.fieldsByTypeName[TYPE_NAMES[kind]] ?? {});
    if (selected.some((child) => child.name === 'dataQuality')) {
      for (const [comparedKind, comparedPeriod] of comparedStatements(kind, period)) add(comparedKind, comparedPeriod);
      add(kind, period, planned.filed);
    }
  }
  return planned;
}

/**
 * The planned statements (and filed values) as a read-ahead of the company's query: what it reads lands in the
 * request's statement loaders (a period without a statement as null, one without filed values as none), where the
 * resolvers find it as if they had loaded it themselves.
 */
export function statementReadAhead(
  manager: EntityManager,
  loaders: StatementLoaders,
  planned: PlannedStatements,
): ReadAhead<{ id: number }> {
  let statements: StatementsAtPeriodsRead;
  let filed: FiledValuesAtPeriodsRead | null = null;
  return {
    expression: (param) => {
      statements = statementsAtPeriods(manager, 'c.id', planned.statements, param);
      if (planned.filed.size === 0) return statements.expression;
      filed = filedValuesAtPeriods('c.id', planned.filed, param);
      return `json_build_array(${statements.expression}, ${filed.expression})`;
    },
    receive: (company, value) => {
      const [statementsValue, filedValue] = filed ? (value as [unknown, unknown]) : [value, null];
      const rows = statements.read(statementsValue);
      for (const [kind, periods] of planned.statements) {
        const byPeriod = new Map((rows.get(kind) ?? []).map((row) => [row.period, row]));
        const loader = loaders[kind] as unknown as DataLoader<StatementKey, Record<string, unknown> | null, string>;
        for (const period of periods) loader.prime({ companyId: company.id, period }, byPeriod.get(period) ?? null);
      }
      if (!filed) return;
      const values = filed.read(filedValue);
      for (const [kind, periods] of planned.filed) {
        const shown = values.get(kind) ?? [];
        for (const period of periods)
          loaders.filed[kind].prime(
            { companyId: company.id, period },
            shown.filter((value) => value.period === period).map(({ period: _period, ...value }) => value),
          );
      }
    },
  };
}
