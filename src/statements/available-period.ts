import { parseExactPeriod } from './fiscal-period';
import type { StatementKind, StatementPeriodRow } from './statement.repository';
import type { FinancialPeriod } from './statement.types';

/** A period a company has data for, and which of its statements exist. */
export interface AvailablePeriod extends FinancialPeriod {
  statements: Set<StatementKind>;
}

/** The period a row names, with its dates (null for a label the tables' CHECK constraint rules out). */
export function financialPeriodOf(row: Omit<StatementPeriodRow, 'kinds'>): FinancialPeriod | null {
  const parsed = parseExactPeriod(row.period);
  if (!parsed) return null;
  return {
    companyId: row.companyId,
    period: parsed.label,
    type: parsed.type,
    fiscalYear: parsed.fiscalYear,
    fiscalQuarter: parsed.fiscalQuarter,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
  };
}

/** The period of a row of a company's periods, with the statements it has. */
export function availablePeriodOf(row: StatementPeriodRow): AvailablePeriod | null {
  const period = financialPeriodOf(row);
  return period ? { ...period, statements: new Set(row.kinds) } : null;
}
