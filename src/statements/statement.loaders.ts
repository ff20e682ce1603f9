import DataLoader from 'dataloader';
import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import { compareNewestFirst, parseExactPeriod, type PeriodType } from './fiscal-period';
import type { FinancialPeriod } from './statement.types';
import { provenanceLoader, type ValueSource } from './provenance';

export type StatementKind = 'income' | 'balance' | 'cashFlow';

/** A period a company has data for, and which of its statements exist. */
export interface AvailablePeriod extends FinancialPeriod {
  statements: Set<StatementKind>;
}

export interface StatementKey {
  companyId: number;
  period: string;
}

export interface StatementLoaders {
  periods: DataLoader<number, AvailablePeriod[]>;
  income: DataLoader<StatementKey, IncomeStatement | null, string>;
  balance: DataLoader<StatementKey, BalanceSheet | null, string>;
  cashFlow: DataLoader<StatementKey, CashFlowStatement | null, string>;
  provenance: Record<StatementKind, DataLoader<StatementKey, ValueSource[], string>>;
}

const keyOf = ({ companyId, period }: StatementKey) => `${companyId}|${period}`;

const TABLES: Record<StatementKind, string> = {
  income: 'income_statements',
  balance: 'balance_sheets',
  cashFlow: 'cash_flow_statements',
};

/** Loads statements of one kind for many (company, period) keys in one query and maps rows back by key. */
function statementLoader<T extends ObjectLiteral & StatementKey>(dataSource: DataSource, entity: EntityTarget<T>) {
  return new DataLoader<StatementKey, T | null, string>(
    async (keys) => {
      const rows = await dataSource
        .getRepository(entity)
        .createQueryBuilder('s')
        .where('(s.company_id, s.period) IN (SELECT * FROM unnest(CAST(:companyIds AS int[]), CAST(:periods AS text[])))', {
          companyIds: keys.map((key) => key.companyId),
          periods: keys.map((key) => key.period),
        })
        .getMany();
      const byKey = new Map(rows.map((row) => [keyOf(row), row]));
      return keys.map((key) => byKey.get(keyOf(key)) ?? null);
    },
    { cacheKeyFn: keyOf },
  );
}

/** The periods of many companies in one query, newest first, each with the statements it has. */
function periodsLoader(dataSource: DataSource) {
  return new DataLoader<number, AvailablePeriod[]>(async (companyIds) => {
    const union = (Object.entries(TABLES) as Array<[StatementKind, string]>)
      .map(
        ([kind, table]) =>
          `SELECT company_id, period, period_start, period_end, '${kind}' AS kind FROM ${table} WHERE company_id = ANY($1)`,
      )
      .join(' UNION ALL ');
    const rows: Array<{ company_id: number; period: string; period_start: string; period_end: string; kind: StatementKind }> =
      await dataSource.query(
        `SELECT company_id, period, to_char(period_start, 'YYYY-MM-DD') AS period_start,
                to_char(period_end, 'YYYY-MM-DD') AS period_end, kind FROM (${union}) AS s`,
        [companyIds],
      );
    const byCompany = new Map<number, Map<string, AvailablePeriod>>(companyIds.map((id) => [id, new Map()]));
    for (const row of rows) {
      const periods = byCompany.get(row.company_id) as Map<string, AvailablePeriod>;
      let available = periods.get(row.period);
      if (!available) {
        const parsed = parseExactPeriod(row.period);
        if (!parsed) continue; // the table's CHECK constraint makes this unreachable
        available = {
          companyId: row.company_id,
          period: parsed.label,
          type: parsed.type,
          fiscalYear: parsed.fiscalYear,
          fiscalQuarter: parsed.fiscalQuarter,
          periodStart: row.period_start,
          periodEnd: row.period_end,
          statements: new Set(),
        };
        periods.set(row.period, available);
      }
      available.statements.add(row.kind);
    }
    return companyIds.map((id) => [...(byCompany.get(id) as Map<string, AvailablePeriod>).values()].sort(compareNewestFirst));
  });
}

/** Per-request loaders: nested statement fields of a whole page resolve in a constant number of queries. */
export function createStatementLoaders(dataSource: DataSource): StatementLoaders {
  return {
    periods: periodsLoader(dataSource),
    income: statementLoader(dataSource, IncomeStatement),
    balance: statementLoader(dataSource, BalanceSheet),
    cashFlow: statementLoader(dataSource, CashFlowStatement),
    provenance: {
      income: provenanceLoader(dataSource, 'income'),
      balance: provenanceLoader(dataSource, 'balance'),
      cashFlow: provenanceLoader(dataSource, 'cashFlow'),
    },
  };
}

/** The newest period of a type for which the company has a statement of `kind` (or any statement when omitted). */
export function newestPeriod(periods: AvailablePeriod[], type: PeriodType, kind?: StatementKind): AvailablePeriod | null {
  return periods.find((period) => period.type === type && (!kind || period.statements.has(kind))) ?? null;
}
