/**
 * Whether a higher value of each ratio is better for the company, so a trend reads as better or worse, not only up
 * or down. `neither` where a change is not good or bad in itself (payout, capital spending).
 */
import type { RATIO_FIELDS } from './company-query';

export type Direction = 'higher' | 'lower' | 'neither';

export const BETTER_WHEN: Record<(typeof RATIO_FIELDS)[number], Direction> = {
  grossMargin: 'higher',
  operatingMargin: 'higher',
  ebitdaMargin: 'higher',
  pretaxMargin: 'higher',
  netMargin: 'higher',
  effectiveTaxRate: 'lower',
  returnOnAssets: 'higher',
  returnOnEquity: 'higher',
  returnOnInvestedCapital: 'higher',
  currentRatio: 'higher',
  quickRatio: 'higher',
  cashRatio: 'higher',
  operatingCashFlowRatio: 'higher',
  debtToEquity: 'lower',
  debtToAssets: 'lower',
  interestCoverage: 'higher',
  netDebtToEbitda: 'lower',
  assetTurnover: 'higher',
  inventoryTurnover: 'higher',
  receivablesTurnover: 'higher',
  daysSalesOutstanding: 'lower',
  daysInventoryOutstanding: 'lower',
  daysPayablesOutstanding: 'higher',
  cashConversionCycle: 'lower',
  freeCashFlowMargin: 'higher',
  freeCashFlowConversion: 'higher',
  capexToRevenue: 'neither',
  payoutRatio: 'neither',
};

export const directionOf = (key: string): Direction => BETTER_WHEN[key as keyof typeof BETTER_WHEN] ?? 'neither';

export interface TrendMark {
  shape: 'up' | 'down' | 'unchanged';
  verdict: 'better' | 'worse' | 'neutral';
}

/**
 * The trend from the second shown column to the first (newest) one, on the values as shown: equal shown values are
 * "unchanged" even when the unrounded ones differ. Null when either is not reported.
 */
export function trendOf(key: string, shown: Array<{ value: number | null; text: string }>): TrendMark | null {
  const [now, before] = shown;
  if (!now || !before || now.value === null || before.value === null) return null;
  if (now.text === before.text) return { shape: 'unchanged', verdict: 'neutral' };
  const shape = now.value > before.value ? 'up' : 'down';
  const direction = directionOf(key);
  if (direction === 'neither') return { shape, verdict: 'neutral' };
  return { shape, verdict: (shape === 'up') === (direction === 'higher') ? 'better' : 'worse' };
}
