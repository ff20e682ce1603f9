/**
 * What a company page shows for one range: five fiscal years, eight quarters, or the trailing twelve months next to
 * the quarters they sum. Every statement of every period, the ratio definitions and the data-quality checks.
 */
import * as service from './service';
import type { Company, CompanyProfile, DataQualityCheck, RatioDefinition, Statement } from './service';

export const VIEWS = { annual: 'Annual', quarterly: 'Quarterly', ttm: 'Trailing twelve months' } as const;
export type View = keyof typeof VIEWS;
export const isView = (value: string): value is View => value in VIEWS;

export interface Column { period: string; periodStart: string | null; periodEnd: string | null; income: Statement | null; balance: Statement | null; cashFlow: Statement | null; ratios: Statement | null }

export interface CompanyView {
  company: CompanyProfile;
  view: View;
  /** Oldest first, so tables and charts read left to right in time. */
  columns: Column[];
  definitions: RatioDefinition[];
  quality: DataQualityCheck[];
  /** Other companies of the same sector, by name (at most eight). */
  peers: Company[];
}

async function column(companyId: number, period: string): Promise<Column> {
  const [income, balance, cashFlow, ratios] = await Promise.all(
    (['income', 'balance', 'cashFlow', 'ratios'] as const).map((kind) => service.statement(companyId, kind, period)),
  );
  const any = income ?? balance ?? cashFlow ?? ratios;
  return { period: any?.period ?? period.toUpperCase(), periodStart: (any?.period_start as string) ?? null, periodEnd: (any?.period_end as string) ?? null, income, balance, cashFlow, ratios };
}

export async function loadCompanyView(ticker: string, view: View): Promise<CompanyView> {
  const company = await service.companyByTicker(ticker);
  const wanted = view === 'annual' ? 5 : view === 'quarterly' ? 8 : 4;
  const [periodList, definitions, quality, sector] = await Promise.all([
    service.periods(company.id, view === 'annual' ? 'annual' : 'quarter'),
    service.ratioDefinitions(),
    service.dataQuality(company.id),
    service.listCompanies({ sector: company.sector, limit: 9, offset: 0 }),
  ]);
  const peers = sector.items.filter((c) => c.id !== company.id).slice(0, 8);
  const chosen = periodList.slice(0, wanted).map((p) => p.period).reverse();
  const columns = await Promise.all(chosen.map((period) => column(company.id, period)));
  if (view === 'ttm') columns.push(await column(company.id, 'ttm'));
  return { company, view, columns, definitions, quality, peers };
}

/** The figure of a field across the columns (null where not reported). */
export function seriesOf(columns: Column[], part: 'income' | 'balance' | 'cashFlow' | 'ratios', field: string): Array<number | null> {
  return columns.map((c) => {
    const value = c[part]?.[field];
    return typeof value === 'number' ? value : null;
  });
}

/** Statement-level data-quality flags of the columns shown: the checks that failed, by period. */
export function failedChecks(columns: Column[]): Array<{ period: string; statement: string; check: string; detail: string | null }> {
  const flags: Array<{ period: string; statement: string; check: string; detail: string | null }> = [];
  for (const c of columns) {
    for (const [statement, part] of [['Income statement', c.income], ['Balance sheet', c.balance], ['Cash flow', c.cashFlow]] as const) {
      const checks = (part?.data_quality as Array<{ check: string; passed: boolean; detail: string | null }> | undefined) ?? [];
      for (const check of checks) if (!check.passed) flags.push({ period: c.period, statement, check: check.check, detail: check.detail });
    }
  }
  return flags;
}

export interface Provenance { field: string; concept: string | null; accession: string | null; form: string | null; filed: string | null; derived: boolean; restated: boolean }

/** Where the imported values of the newest column came from (SEC filings); empty for demo data. */
export function provenanceOf(columns: Column[]): Array<Provenance & { statement: string; period: string }> {
  const last = columns[columns.length - 1];
  if (!last) return [];
  return ([['Income statement', last.income], ['Balance sheet', last.balance], ['Cash flow', last.cashFlow]] as const).flatMap(([statement, part]) =>
    ((part?.provenance as Provenance[] | null | undefined) ?? []).map((p) => ({ ...p, statement, period: last.period })));
}
