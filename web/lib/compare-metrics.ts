/**
 * Measures the service can compare (docs/ai.md, "Compare metrics"), by the names a reader knows them by. Typed by
 * the service's own list: a measure added or renamed there breaks the build here until it has a name.
 */
import type { CompareRequest } from '@financial-insights/sdk';

type ServiceMetric = NonNullable<CompareRequest['metrics']>[number];

export const METRIC_NAMES: Record<ServiceMetric, string> = {
  revenue: 'Revenue',
  revenue_change: 'Revenue growth',
  gross_profit: 'Gross profit',
  operating_income: 'Operating income',
  operating_income_change: 'Operating income growth',
  net_income: 'Net income',
  net_income_change: 'Net income growth',
  ebitda: 'EBITDA',
  eps_diluted: 'EPS (diluted)',
  research_and_development: 'Research and development',
  cash_and_equivalents: 'Cash and equivalents',
  total_assets: 'Total assets',
  total_liabilities: 'Total liabilities',
  total_equity: 'Shareholders’ equity',
  total_debt: 'Total debt',
  operating_cash_flow: 'Operating cash flow',
  operating_cash_flow_change: 'Operating cash flow growth',
  capital_expenditure: 'Capital expenditure',
  free_cash_flow: 'Free cash flow',
  free_cash_flow_change: 'Free cash flow growth',
  dividends_paid: 'Dividends paid',
  share_repurchases: 'Share repurchases',
  gross_margin: 'Gross margin',
  gross_margin_change: 'Gross margin change',
  operating_margin: 'Operating margin',
  operating_margin_change: 'Operating margin change',
  net_margin: 'Net margin',
  net_margin_change: 'Net margin change',
  return_on_equity: 'Return on equity (ROE)',
  free_cash_flow_margin: 'Free cash flow margin',
  current_ratio: 'Current ratio',
  debt_to_equity: 'Debt to equity',
  interest_coverage: 'Interest coverage',
  net_debt_to_ebitda: 'Net debt to EBITDA',
};

export type CompareMetric = ServiceMetric;
export const COMPARE_METRICS = Object.keys(METRIC_NAMES) as CompareMetric[];

export const DEFAULT_COMPARE_METRICS: CompareMetric[] = [
  'revenue',
  'revenue_change',
  'net_income',
  'net_margin',
  'operating_margin',
  'free_cash_flow',
  'debt_to_equity',
  'current_ratio',
  'return_on_equity',
];

/** A measure's name: known names, else its identifier in words. */
export const metricLabel = (metric: string) =>
  (METRIC_NAMES as Record<string, string>)[metric] ?? metric.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
