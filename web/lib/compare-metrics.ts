/** Measures the service can compare (README, "Compare metrics"), with the default set it uses when none is chosen. */
export const COMPARE_METRICS = [
  'revenue', 'revenue_change', 'gross_profit', 'operating_income', 'operating_income_change', 'net_income', 'net_income_change', 'ebitda',
  'eps_diluted', 'research_and_development', 'cash_and_equivalents', 'total_assets', 'total_liabilities', 'total_equity', 'total_debt',
  'operating_cash_flow', 'operating_cash_flow_change', 'capital_expenditure', 'free_cash_flow', 'free_cash_flow_change', 'dividends_paid',
  'share_repurchases', 'gross_margin', 'gross_margin_change', 'operating_margin', 'operating_margin_change', 'net_margin', 'net_margin_change',
  'return_on_equity', 'free_cash_flow_margin', 'current_ratio', 'debt_to_equity', 'interest_coverage', 'net_debt_to_ebitda',
] as const;

export const DEFAULT_COMPARE_METRICS = ['revenue', 'revenue_change', 'net_income', 'net_margin', 'operating_margin', 'free_cash_flow', 'debt_to_equity', 'current_ratio', 'return_on_equity'];

export const metricLabel = (metric: string) => metric.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
