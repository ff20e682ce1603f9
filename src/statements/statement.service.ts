import {
  parsePeriodRequest,
  previousPeriod,
  samePeriodLastYear,
  parseExactPeriod,
  type FiscalPeriod,
} from './fiscal-period';
import { POINT_PERIOD_FORMS } from '../operations/period-forms';
import { AppError } from '../shared/errors';
import { trailingBalance, trailingFlows } from './trailing';
import { newestPeriod, type StatementKind, type StatementLoaders } from './statement.loaders';
import { computeRatios } from './ratios';
import type { IncomeStatement } from './income-statement.entity';
import type { BalanceSheet } from './balance-sheet.entity';
import type { CashFlowStatement } from './cash-flow-statement.entity';
import type { Ratios } from './statement.types';

interface StatementByKind {
  income: IncomeStatement;
  balance: BalanceSheet;
  cashFlow: CashFlowStatement;
}

/**
 * Turns a `period` argument into the exact period to read: the label itself, or for "latest"/"latest-fy"/omitted
 * the newest period of that type for which the company has a statement of `kind`. Null when there is none.
 */
export async function resolvePeriod(
  loaders: StatementLoaders,
  companyId: number,
  periodArgument: string | null | undefined,
  kind?: StatementKind,
): Promise<FiscalPeriod | null> {
  const request = parsePeriodRequest(periodArgument);
  if (request.kind === 'ttm')
    throw new AppError('BAD_USER_INPUT', `"ttm" is accepted by statements and ratios only; use ${POINT_PERIOD_FORMS}`);
  if (request.kind === 'exact') return request.period;
  const newest = newestPeriod(await loaders.periodsOfType.load({ companyId, type: request.type }), request.type, kind);
  return newest ? parseExactPeriod(newest.period) : null;
}

/** One statement of a company for a `period` argument, or null when the company has none for it. */
export async function loadStatement<K extends StatementKind>(
  loaders: StatementLoaders,
  kind: K,
  companyId: number,
  periodArgument: string | null | undefined,
): Promise<StatementByKind[K] | null> {
  if (parsePeriodRequest(periodArgument).kind === 'ttm') {
    return (
      kind === 'balance'
        ? trailingBalance(loaders, companyId)
        : trailingFlows(loaders, kind as 'income' | 'cashFlow', companyId)
    ) as Promise<StatementByKind[K] | null>;
  }
  const period = await resolvePeriod(loaders, companyId, periodArgument, kind);
  if (!period) return null;
  const loader = loaders[kind] as unknown as {
    load(key: { companyId: number; period: string }): Promise<StatementByKind[K] | null>;
  };
  return loader.load({ companyId, period: period.label });
}

/** The ratios of a period, from its statements, the previous period's balance sheet and last year's income statement. */
export async function loadRatios(
  loaders: StatementLoaders,
  companyId: number,
  periodArgument: string | null | undefined,
): Promise<Ratios | null> {
  if (parsePeriodRequest(periodArgument).kind === 'ttm') return trailingRatios(loaders, companyId);
  const period = await resolvePeriod(loaders, companyId, periodArgument, 'income');
  if (!period) return null;
  const at = (p: FiscalPeriod) => ({ companyId, period: p.label });
  const [income, balance, cashFlow, previousBalance, priorYearIncome] = await Promise.all([
    loaders.income.load(at(period)),
    loaders.balance.load(at(period)),
    loaders.cashFlow.load(at(period)),
    loaders.balance.load(at(previousPeriod(period))),
    loaders.income.load(at(samePeriodLastYear(period))),
  ]);
  const anchor = income ?? balance ?? cashFlow;
  if (!anchor) return null;
  return Object.assign(
    {
      companyId,
      period: period.label,
      type: period.type,
      fiscalYear: period.fiscalYear,
      fiscalQuarter: period.fiscalQuarter,
      periodStart: anchor.periodStart,
      periodEnd: anchor.periodEnd,
    },
    computeRatios({ periodType: period.type, income, balance, cashFlow, previousBalance, priorYearIncome }),
  ) as Ratios;
}

/**
 * Ratios of the trailing twelve months: flows of the last four quarters (so nothing is annualized), balances of the
 * newest quarter, averages with the balance sheet a year earlier, growth against the twelve months before.
 */
async function trailingRatios(loaders: StatementLoaders, companyId: number): Promise<Ratios | null> {
  const [income, cashFlow, balance] = await Promise.all([
    trailingFlows(loaders, 'income', companyId),
    trailingFlows(loaders, 'cashFlow', companyId).catch(() => null),
    trailingBalance(loaders, companyId),
  ]);
  if (!income) return null;
  const newest = parseExactPeriod(`Q${income.fiscalQuarter}-${income.fiscalYear}`) as FiscalPeriod;
  const yearEarlier = samePeriodLastYear(newest);
  const [previousBalance, priorYearIncome] = await Promise.all([
    loaders.balance.load({ companyId, period: yearEarlier.label }),
    trailingFlows(loaders, 'income', companyId, yearEarlier).catch(() => null),
  ]);
  return Object.assign(
    {
      companyId,
      period: income.period,
      type: 'TTM',
      fiscalYear: income.fiscalYear,
      fiscalQuarter: income.fiscalQuarter,
      periodStart: income.periodStart,
      periodEnd: income.periodEnd,
    },
    computeRatios({ periodType: 'ANNUAL', income, balance, cashFlow, previousBalance, priorYearIncome }),
  ) as Ratios;
}
