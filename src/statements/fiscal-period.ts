import { badUserInput } from '../shared/errors';
import { PERIOD_FORMS, PERIOD_FORM_NAMES } from '../operations/period-forms';

export { PERIOD_FORMS };

/**
 * Fiscal periods. `FY<year>` is the fiscal year named by the calendar year in which it ends; `Q<n>-<year>` is
 * the n-th quarter of that fiscal year. So for a company whose year ends in September, Q1-2025 runs
 * October–December 2024.
 */
export type PeriodType = 'QUARTER' | 'ANNUAL';

export interface FiscalPeriod {
  /** Canonical label, e.g. "Q2-2024" or "FY2024". */
  label: string;
  type: PeriodType;
  fiscalYear: number;
  /** 1–4 for quarters, null for a fiscal year. */
  fiscalQuarter: number | null;
}

/** What a caller asked for: one exact period, the newest one of a type that has data, or the trailing twelve months. */
export type PeriodRequest =
  { kind: 'exact'; period: FiscalPeriod } | { kind: 'latest'; type: PeriodType } | { kind: 'ttm' };

/** The label of trailing-twelve-months statements and ratios (never stored). */
export const TTM_LABEL = 'TTM';

export const MIN_FISCAL_YEAR = 1900;
export const MAX_FISCAL_YEAR = 2200;

const QUARTER_PATTERN = /^Q([1-4])-(\d{4})$/;
const ANNUAL_PATTERN = /^FY(\d{4})$/;

export function quarter(fiscalYear: number, fiscalQuarter: number): FiscalPeriod {
  return { label: `Q${fiscalQuarter}-${fiscalYear}`, type: 'QUARTER', fiscalYear, fiscalQuarter };
}

export function fiscalYear(year: number): FiscalPeriod {
  return { label: `FY${year}`, type: 'ANNUAL', fiscalYear: year, fiscalQuarter: null };
}

function checkYear(year: number, input: string): number {
  if (year < MIN_FISCAL_YEAR || year > MAX_FISCAL_YEAR) {
    throw badUserInput(
      `Invalid period "${input}": the year must be between ${MIN_FISCAL_YEAR} and ${MAX_FISCAL_YEAR}`,
      { field: 'period', accepted: PERIOD_FORM_NAMES },
    );
  }
  return year;
}

/** Parses an exact period label, case-insensitively; returns null when it is not one. */
export function parseExactPeriod(input: string): FiscalPeriod | null {
  const normalized = input.trim().toUpperCase();
  const quarterMatch = QUARTER_PATTERN.exec(normalized);
  if (quarterMatch) return quarter(checkYear(Number(quarterMatch[2]), input), Number(quarterMatch[1]));
  const annualMatch = ANNUAL_PATTERN.exec(normalized);
  if (annualMatch) return fiscalYear(checkYear(Number(annualMatch[1]), input));
  return null;
}

/**
 * Parses the `period` argument of the statement and ratio fields. Omitted, empty or "latest" means the newest
 * quarter with data; "latest-fy" the newest fiscal year; "ttm" the trailing twelve months. Anything else is a BAD_USER_INPUT error naming the forms.
 */
export function parsePeriodRequest(input: string | null | undefined): PeriodRequest {
  if (input === null || input === undefined || input.trim() === '') return { kind: 'latest', type: 'QUARTER' };
  const normalized = input.trim().toLowerCase();
  if (normalized === 'latest') return { kind: 'latest', type: 'QUARTER' };
  if (normalized === 'latest-fy') return { kind: 'latest', type: 'ANNUAL' };
  if (normalized === 'ttm') return { kind: 'ttm' };
  const period = parseExactPeriod(input);
  if (!period)
    throw badUserInput(`Invalid period "${input}": use ${PERIOD_FORMS}`, {
      field: 'period',
      accepted: PERIOD_FORM_NAMES,
    });
  return { kind: 'exact', period };
}

/** The period just before: the previous quarter, or the previous fiscal year. */
export function previousPeriod(period: FiscalPeriod): FiscalPeriod {
  if (period.type === 'ANNUAL') return fiscalYear(period.fiscalYear - 1);
  const q = period.fiscalQuarter as number;
  return q === 1 ? quarter(period.fiscalYear - 1, 4) : quarter(period.fiscalYear, q - 1);
}

/** The same period one fiscal year earlier, used for year-over-year growth. */
export function samePeriodLastYear(period: FiscalPeriod): FiscalPeriod {
  return period.type === 'ANNUAL'
    ? fiscalYear(period.fiscalYear - 1)
    : quarter(period.fiscalYear - 1, period.fiscalQuarter as number);
}

type PeriodOrder = Pick<FiscalPeriod, 'fiscalYear' | 'fiscalQuarter'>;

/** Orders periods newest first; a fiscal year sorts before its own fourth quarter. */
export function compareNewestFirst(a: PeriodOrder, b: PeriodOrder): number {
  if (a.fiscalYear !== b.fiscalYear) return b.fiscalYear - a.fiscalYear;
  return (b.fiscalQuarter ?? 5) - (a.fiscalQuarter ?? 5);
}

/**
 * Calendar dates of a fiscal period for a company whose fiscal year ends on the last day of `fiscalYearEndMonth`.
 * Returned as ISO dates (YYYY-MM-DD), inclusive on both ends.
 */
export function periodDates(period: FiscalPeriod, fiscalYearEndMonth: number): { start: string; end: string } {
  // Month index counted from year 0 makes month arithmetic across year boundaries trivial.
  const fiscalYearEndIndex = period.fiscalYear * 12 + (fiscalYearEndMonth - 1);
  const lastMonth =
    period.type === 'ANNUAL' ? fiscalYearEndIndex : fiscalYearEndIndex - 3 * (4 - (period.fiscalQuarter as number));
  const firstMonth = lastMonth - (period.type === 'ANNUAL' ? 11 : 2);
  const toDate = (monthIndex: number, day: number) => {
    const date = new Date(Date.UTC(Math.floor(monthIndex / 12), monthIndex % 12, day));
    return date.toISOString().slice(0, 10);
  };
  return { start: toDate(firstMonth, 1), end: toDate(lastMonth + 1, 0) };
}
