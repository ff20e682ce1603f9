import DataLoader from 'dataloader';
import type { EntityManager } from 'typeorm';
import type { IncomeStatement } from './income-statement.entity';
import type { BalanceSheet } from './balance-sheet.entity';
import type { CashFlowStatement } from './cash-flow-statement.entity';
import { compareNewestFirst, type PeriodType } from './fiscal-period';
import type { ValueSource } from './value-source.type';
import type { FiledValue } from './data-quality';
import { HistoryPrefetch } from './history-prefetch';
import { availablePeriodOf, type AvailablePeriod } from './available-period';

export type { AvailablePeriod } from './available-period';
import {
  findFiledValues,
  findStatementPeriods,
  findStatements,
  findValueSources,
  type StatementKey,
  type StatementKind,
  type StatementOf,
  type StatementPeriodRow,
} from './statement.repository';

export type { StatementKey, StatementKind } from './statement.repository';

export interface PeriodsOfType {
  companyId: number;
  type: PeriodType;
}

export interface StatementLoaders {
  periods: DataLoader<number, AvailablePeriod[]>;
  periodsOfType: DataLoader<PeriodsOfType, AvailablePeriod[], string>;
  income: DataLoader<StatementKey, IncomeStatement | null, string>;
  balance: DataLoader<StatementKey, BalanceSheet | null, string>;
  cashFlow: DataLoader<StatementKey, CashFlowStatement | null, string>;
  provenance: Record<StatementKind, DataLoader<StatementKey, ValueSource[], string>>;
  /** What stored filings show for statements XBRL facts made (for the filings-agree check). */
  filed: Record<StatementKind, DataLoader<StatementKey, FiledValue[], string>>;
  /** Histories a page of companies read ahead in one statement (see history-prefetch). */
  prefetched: HistoryPrefetch;
}

const keyOf = ({ companyId, period }: StatementKey) => `${companyId}|${period}`;

/** Loads statements of one kind for many (company, period) keys in one query and maps rows back by key. */
function statementLoader<K extends StatementKind>(manager: EntityManager, kind: K) {
  return new DataLoader<StatementKey, StatementOf<K> | null, string>(
    async (keys) => {
      const byKey = new Map((await findStatements(manager, kind, keys)).map((row) => [keyOf(row), row]));
      return keys.map((key) => byKey.get(keyOf(key)) ?? null);
    },
    { cacheKeyFn: keyOf },
  );
}

/** The periods of each company, newest first, from the rows of one query. */
function periodsByCompany(companyIds: readonly number[], rows: StatementPeriodRow[]): AvailablePeriod[][] {
  const byCompany = new Map<number, AvailablePeriod[]>(companyIds.map((id) => [id, []]));
  for (const row of rows) {
    const period = availablePeriodOf(row);
    if (period) byCompany.get(row.companyId)?.push(period);
  }
  return companyIds.map((id) => (byCompany.get(id) as AvailablePeriod[]).sort(compareNewestFirst));
}

/** The periods of many companies in one query, newest first, each with the statements it has. */
function periodsLoader(manager: EntityManager) {
  return new DataLoader<number, AvailablePeriod[]>(async (companyIds) =>
    periodsByCompany(companyIds, await findStatementPeriods(manager, companyIds)),
  );
}

/**
 * The periods of one type of many companies, newest first: what a page of fiscal years or "latest" needs, without
 * reading the other type's rows (a page of 20 companies' last four fiscal years read 1,446 rows for 80 otherwise).
 */
function periodsOfTypeLoader(manager: EntityManager) {
  return new DataLoader<PeriodsOfType, AvailablePeriod[], string>(
    async (keys) => {
      const types = new Set(keys.map((key) => key.type));
      const companyIds = [...new Set(keys.map((key) => key.companyId))];
      // One query: of one type when the whole batch wants one (the usual case), else of both.
      const lists = periodsByCompany(
        companyIds,
        await findStatementPeriods(manager, companyIds, types.size === 1 ? keys[0].type : null),
      );
      const byCompany = new Map(companyIds.map((id, i) => [id, lists[i]]));
      return keys.map(({ companyId, type }) =>
        (byCompany.get(companyId) as AvailablePeriod[]).filter((period) => period.type === type),
      );
    },
    { cacheKeyFn: ({ companyId, type }) => `${companyId}|${type}` },
  );
}

/** Rows of many (company, period) keys fetched in one query, grouped back by key: a page costs one query per kind. */
function groupedLoader<T>(fetch: (keys: readonly StatementKey[]) => Promise<Array<T & StatementKey>>) {
  return new DataLoader<StatementKey, T[], string>(
    async (keys) => {
      const byKey = new Map<string, T[]>();
      for (const { companyId, period, ...row } of await fetch(keys)) {
        const key = keyOf({ companyId, period });
        byKey.set(key, [...(byKey.get(key) ?? []), row as unknown as T]);
      }
      return keys.map((key) => byKey.get(keyOf(key)) ?? []);
    },
    { cacheKeyFn: keyOf },
  );
}

/** One grouped loader per statement kind. */
function perKind<T>(
  fetch: (kind: StatementKind, keys: readonly StatementKey[]) => Promise<Array<T & StatementKey>>,
): Record<StatementKind, DataLoader<StatementKey, T[], string>> {
  return {
    income: groupedLoader<T>((keys) => fetch('income', keys)),
    balance: groupedLoader<T>((keys) => fetch('balance', keys)),
    cashFlow: groupedLoader<T>((keys) => fetch('cashFlow', keys)),
  };
}

/** Per-request loaders: nested statement fields of a whole page resolve in a constant number of queries. */
export function createStatementLoaders(manager: EntityManager): StatementLoaders {
  return {
    periods: periodsLoader(manager),
    periodsOfType: periodsOfTypeLoader(manager),
    income: statementLoader(manager, 'income'),
    balance: statementLoader(manager, 'balance'),
    cashFlow: statementLoader(manager, 'cashFlow'),
    provenance: perKind<ValueSource>((kind, keys) => findValueSources(manager, kind, keys)),
    filed: perKind<FiledValue>((kind, keys) => findFiledValues(manager, kind, keys)),
    prefetched: new HistoryPrefetch(),
  };
}

/** The newest period of a type for which the company has a statement of `kind` (or any statement when omitted). */
export function newestPeriod(
  periods: AvailablePeriod[],
  type: PeriodType,
  kind?: StatementKind,
): AvailablePeriod | null {
  return periods.find((period) => period.type === type && (!kind || period.statements.has(kind))) ?? null;
}
