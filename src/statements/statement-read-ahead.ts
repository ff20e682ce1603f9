import type DataLoader from 'dataloader';
import type { ResolveTree } from 'graphql-parse-resolve-info';
import type { EntityManager } from 'typeorm';
import type { ReadAhead } from '../db/read-ahead';
import { comparedStatements } from './data-quality';
import { parsePeriodRequest } from './fiscal-period';
import { KIND_FIELDS, TYPE_NAMES } from './history-prefetch';
import {
  statementsAtPeriods,
  type StatementKey,
  type StatementKind,
  type StatementsAtPeriodsRead,
} from './statement.repository';
import type { StatementLoaders } from './statement.loaders';

/** Statement periods to read, by kind. */
export type PlannedStatements = Map<StatementKind, Set<string>>;

/**
 * The statements at exact periods that a selection of one company asks for (`company { incomeStatement(period:
 * "FY2024") { … } }`), with those its data-quality checks compare it with when `dataQuality` is selected: what the
 * company's own query can read, so that the most used read costs one round trip instead of three. `fields` are the
 * selected fields of the Company type, as graphql-parse-resolve-info gives them. "latest" and "ttm" are left to the
 * resolvers, which work them out from the company's periods.
 */
export function plannedStatementReads(fields: ResolveTree[]): PlannedStatements {
  const planned: PlannedStatements = new Map();
  const add = (kind: StatementKind, period: string) => planned.set(kind, (planned.get(kind) ?? new Set()).add(period));
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
    if (selected.some((child) => child.name === 'dataQuality'))
      for (const [comparedKind, comparedPeriod] of comparedStatements(kind, period)) add(comparedKind, comparedPeriod);
  }
  return planned;
}

/**
 * The planned statements as a read-ahead of the company's query: what it reads lands in the request's statement
 * loaders (a period without a statement as null), where the resolvers find it as if they had loaded it themselves.
 */
export function statementReadAhead(
  manager: EntityManager,
  loaders: StatementLoaders,
  planned: PlannedStatements,
): ReadAhead<{ id: number }> {
  let read: StatementsAtPeriodsRead;
  return {
    expression: (param) => {
      read = statementsAtPeriods(manager, 'c.id', planned, param);
      return read.expression;
    },
    receive: (company, value) => {
      const rows = read.read(value);
      for (const [kind, periods] of planned) {
        const byPeriod = new Map((rows.get(kind) ?? []).map((row) => [row.period, row]));
        const loader = loaders[kind] as unknown as DataLoader<StatementKey, Record<string, unknown> | null, string>;
        for (const period of periods) loader.prime({ companyId: company.id, period }, byPeriod.get(period) ?? null);
      }
    },
  };
}
