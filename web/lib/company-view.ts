/**
 * What a company page shows for one range: five fiscal years, eight quarters, or the trailing twelve months next to
 * the quarters they sum. Every statement of every period, the ratio definitions and the data-quality checks, read in
 * one GraphQL request; the peers come from the company directory this server keeps.
 */
import { errorFor } from '@financial-insights/sdk';
import * as service from './service';
import type { Company } from './service';
import type {
  Balance,
  CashFlow,
  Definition,
  Income,
  PeriodRow,
  Profile,
  Provenance,
  QualitySummary,
  RatioValues,
} from './company-query';

export const VIEWS = { annual: 'Annual', quarterly: 'Quarterly', ttm: 'Trailing twelve months' } as const;
export type View = keyof typeof VIEWS;
export const isView = (value: string): value is View => value in VIEWS;

export interface Column {
  period: string;
  periodStart: string | null;
  periodEnd: string | null;
  income: Income | null;
  balance: Balance | null;
  cashFlow: CashFlow | null;
  ratios: RatioValues | null;
}
export type Part = 'income' | 'balance' | 'cashFlow' | 'ratios';

export interface CompanyView {
  company: Profile;
  view: View;
  /** Newest first, so the newest figures sit next to the labels (the TTM column first on the TTM range). */
  columns: Column[];
  definitions: Definition[];
  quality: QualitySummary[];
  /** Other companies of the same sector, by name (at most eight). */
  peers: Company[];
}

const RANGE: Record<View, { last: number; type: 'ANNUAL' | 'QUARTER' }> = {
  annual: { last: 5, type: 'ANNUAL' },
  quarterly: { last: 8, type: 'QUARTER' },
  ttm: { last: 4, type: 'QUARTER' },
};

const columnOf = (row: PeriodRow): Column => ({
  period: row.period,
  periodStart: row.periodStart,
  periodEnd: row.periodEnd,
  income: row.incomeStatement,
  balance: row.balanceSheet,
  cashFlow: row.cashFlow,
  ratios: row.ratios,
});

export async function loadCompanyView(ticker: string, view: View, visitor: string | null = null): Promise<CompanyView> {
  const { last, type } = RANGE[view];
  const [data, directory] = await Promise.all([
    service.companyPageData(ticker, last, type, view === 'ttm', visitor),
    service.allCompanies(),
  ]);
  const found = data.company;
  if (!found) throw errorFor('NOT_FOUND', `No company with ticker ${ticker.toUpperCase()}`, 404);
  const { statements, dataQuality, ttmIncome, ttmCashFlow, ttmRatios, ...company } = found;
  const columns = statements.map(columnOf);
  if (view === 'ttm' && columns.length > 0) {
    // The TTM balance sheet is the newest quarter's: the page shows it under that quarter, not as a TTM column.
    columns.unshift({
      period: 'TTM',
      periodStart: columns[columns.length - 1].periodStart,
      periodEnd: columns[0].periodEnd,
      income: ttmIncome ?? null,
      balance: null,
      cashFlow: ttmCashFlow ?? null,
      ratios: ttmRatios ?? null,
    });
  }
  const peers = directory
    .filter((c) => c.sector === company.sector && c.id !== company.id)
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, 8);
  return { company, view, columns, definitions: data.ratioDefinitions, quality: dataQuality, peers };
}

/** The figure of a field across the columns (null where not reported). */
export function seriesOf<P extends Part>(columns: Column[], part: P, field: string): Array<number | null> {
  return columns.map((c) => {
    const value = (c[part] as Record<string, unknown> | null)?.[field];
    return typeof value === 'number' ? value : null;
  });
}

/** Statement-level data-quality flags of the columns shown: the checks that failed, by period. */
export function failedChecks(
  columns: Column[],
): Array<{ period: string; statement: string; check: string; detail: string | null }> {
  const flags: Array<{ period: string; statement: string; check: string; detail: string | null }> = [];
  for (const c of columns) {
    for (const [statement, part] of [
      ['Income statement', c.income],
      ['Balance sheet', c.balance],
      ['Cash flow', c.cashFlow],
    ] as const) {
      for (const check of part?.dataQuality ?? [])
        if (!check.passed)
          flags.push({ period: c.period, statement, check: check.check, detail: check.detail || null });
    }
  }
  return flags;
}

/** Where the imported values of the newest period came from (SEC filings); empty for demo data. */
export function provenanceOf(columns: Column[]): Array<Provenance & { statement: string; period: string }> {
  const newest = columns.find((c) => c.period !== 'TTM');
  if (!newest) return [];
  return (
    [
      ['Income statement', newest.income],
      ['Balance sheet', newest.balance],
      ['Cash flow', newest.cashFlow],
    ] as const
  ).flatMap(([statement, part]) => (part?.provenance ?? []).map((p) => ({ ...p, statement, period: newest.period })));
}
