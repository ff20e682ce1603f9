import { AppError } from '../shared/errors';
import { STATEMENT_KEY_COLUMNS } from './statement-fields';
import { previousPeriod, parseExactPeriod, TTM_LABEL, type FiscalPeriod } from './fiscal-period';
import { newestPeriod, type StatementLoaders } from './statement.loaders';
import type { IncomeStatement } from './income-statement.entity';
import type { BalanceSheet } from './balance-sheet.entity';
import type { CashFlowStatement } from './cash-flow-statement.entity';

/**
 * Trailing twelve months (TTM): the last four quarters summed for flows (income and cash flow), the newest quarter's
 * balance sheet for balances. Per-share earnings are the sum of the quarters' (the usual TTM EPS); share counts are
 * the mean of the quarters'. A field missing in any of the four quarters is null; a missing quarter makes the whole
 * TTM statement unavailable, with the reason.
 */

const AVERAGED = new Set(['sharesBasic', 'sharesDiluted']);

/** The four quarters ending with `newest`, oldest first. */
export function trailingQuarters(newest: FiscalPeriod): FiscalPeriod[] {
  const quarters = [newest];
  while (quarters.length < 4) quarters.unshift(previousPeriod(quarters[0]));
  return quarters;
}

/** Sums four quarters' statements into one for the twelve months they span. */
export function sumQuarters<T extends Record<string, unknown>>(quarters: T[]): T {
  const newest = quarters[quarters.length - 1];
  const summed: Record<string, unknown> = { ...newest, id: 0, period: TTM_LABEL, periodStart: quarters[0].periodStart };
  for (const field of Object.keys(newest)) {
    if (STATEMENT_KEY_COLUMNS.has(field)) continue;
    const values = quarters.map((q) => q[field]);
    if (values.some((value) => typeof value !== 'number')) {
      summed[field] = null;
      continue;
    }
    const total = (values as number[]).reduce((sum, value) => sum + value, 0);
    summed[field] = AVERAGED.has(field) ? total / quarters.length : total;
  }
  return summed as T;
}

type FlowKind = 'income' | 'cashFlow';
type FlowStatement<K extends FlowKind> = K extends 'income' ? IncomeStatement : CashFlowStatement;

/**
 * The TTM income or cash-flow statement ending at `newest` (by default the newest quarter that has one); null when
 * the company has no quarter at all; NOT_FOUND naming the missing quarters when one of the four is missing.
 */
export async function trailingFlows<K extends FlowKind>(
  loaders: StatementLoaders,
  kind: K,
  companyId: number,
  newest?: FiscalPeriod,
): Promise<FlowStatement<K> | null> {
  const end =
    newest ??
    parseExactPeriod(
      newestPeriod(await loaders.periodsOfType.load({ companyId, type: 'QUARTER' }), 'QUARTER', kind)?.period ?? '',
    );
  if (!end) return null;
  const quarters = trailingQuarters(end);
  const loader = loaders[kind] as unknown as {
    load(key: { companyId: number; period: string }): Promise<FlowStatement<K> | null>;
  };
  const statements = await Promise.all(quarters.map((q) => loader.load({ companyId, period: q.label })));
  const missing = quarters.filter((_, i) => statements[i] === null).map((q) => q.label);
  if (missing.length > 0) {
    const noun = kind === 'income' ? 'income statement' : 'cash flow statement';
    throw new AppError(
      'NOT_FOUND',
      `No trailing twelve months ending ${end.label}: ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no ${noun}`,
      { missingQuarters: missing },
    );
  }
  return sumQuarters(statements as unknown as Array<Record<string, unknown>>) as unknown as FlowStatement<K>;
}

/** The balance sheet of TTM figures: the newest quarter's, as it is. */
export async function trailingBalance(loaders: StatementLoaders, companyId: number): Promise<BalanceSheet | null> {
  const newest = newestPeriod(await loaders.periodsOfType.load({ companyId, type: 'QUARTER' }), 'QUARTER', 'balance');
  return newest ? loaders.balance.load({ companyId, period: newest.period }) : null;
}
