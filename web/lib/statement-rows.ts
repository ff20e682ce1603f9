/** The line items each statement table shows, in the order an analyst reads them (REST field names). */
export type Row = readonly [field: string, label: string];

export const INCOME_ROWS: readonly Row[] = [
  ['revenue', 'Revenue'], ['cost_of_revenue', 'Cost of revenue'], ['gross_profit', 'Gross profit'],
  ['research_and_development', 'Research and development'], ['selling_general_and_administrative', 'Selling, general and administrative'],
  ['operating_income', 'Operating income'], ['interest_expense', 'Interest expense'], ['income_before_tax', 'Income before tax'],
  ['income_tax_expense', 'Income tax'], ['net_income', 'Net income'], ['eps_diluted', 'Diluted EPS'], ['ebitda', 'EBITDA'],
];
export const BALANCE_ROWS: readonly Row[] = [
  ['cash_and_equivalents', 'Cash and equivalents'], ['short_term_investments', 'Short-term investments'], ['receivables', 'Receivables'],
  ['inventory', 'Inventory'], ['total_current_assets', 'Total current assets'], ['ppe_net', 'Property, plant and equipment'],
  ['goodwill_and_intangibles', 'Goodwill and intangibles'], ['total_assets', 'Total assets'], ['accounts_payable', 'Accounts payable'],
  ['short_term_debt', 'Short-term debt'], ['total_current_liabilities', 'Total current liabilities'], ['long_term_debt', 'Long-term debt'],
  ['total_debt', 'Total debt'], ['total_liabilities', 'Total liabilities'], ['total_equity', 'Shareholders’ equity'],
];
export const CASH_ROWS: readonly Row[] = [
  ['net_income', 'Net income'], ['depreciation_and_amortization', 'Depreciation and amortization'], ['stock_based_compensation', 'Stock-based compensation'],
  ['change_in_working_capital', 'Change in working capital'], ['operating_cash_flow', 'Operating cash flow'], ['capital_expenditure', 'Capital expenditure'],
  ['investing_cash_flow', 'Investing cash flow'], ['dividends_paid', 'Dividends paid'], ['share_repurchases', 'Share repurchases'],
  ['financing_cash_flow', 'Financing cash flow'], ['free_cash_flow', 'Free cash flow'],
];

/** Per-share figures are not money amounts to scale into millions. */
export const PER_SHARE = new Set(['eps_diluted', 'eps_basic']);

/** camelCase ratio key (as the definitions name it) → the REST field. */
export const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
