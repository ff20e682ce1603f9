/** The line items each statement table shows, in the order an analyst reads them (the schema's field names). */
import type { BALANCE_FIELDS, CASH_FLOW_FIELDS, INCOME_FIELDS } from './company-query';

export type Row<F extends string = string> = readonly [field: F, label: string];

export const INCOME_ROWS: ReadonlyArray<Row<(typeof INCOME_FIELDS)[number]>> = [
  ['revenue', 'Revenue'],
  ['costOfRevenue', 'Cost of revenue'],
  ['grossProfit', 'Gross profit'],
  ['researchAndDevelopment', 'Research and development'],
  ['sellingGeneralAndAdministrative', 'Selling, general and administrative'],
  ['operatingIncome', 'Operating income'],
  ['interestExpense', 'Interest expense'],
  ['incomeBeforeTax', 'Income before tax'],
  ['incomeTaxExpense', 'Income tax'],
  ['netIncome', 'Net income'],
  ['epsDiluted', 'EPS (diluted)'],
  ['ebitda', 'EBITDA'],
];
export const BALANCE_ROWS: ReadonlyArray<Row<(typeof BALANCE_FIELDS)[number]>> = [
  ['cashAndEquivalents', 'Cash and equivalents'],
  ['shortTermInvestments', 'Short-term investments'],
  ['receivables', 'Receivables'],
  ['inventory', 'Inventory'],
  ['totalCurrentAssets', 'Total current assets'],
  ['ppeNet', 'Property, plant and equipment'],
  ['goodwillAndIntangibles', 'Goodwill and intangibles'],
  ['totalAssets', 'Total assets'],
  ['accountsPayable', 'Accounts payable'],
  ['shortTermDebt', 'Short-term debt'],
  ['totalCurrentLiabilities', 'Total current liabilities'],
  ['longTermDebt', 'Long-term debt'],
  ['totalDebt', 'Total debt'],
  ['totalLiabilities', 'Total liabilities'],
  ['totalEquity', 'Shareholders’ equity'],
];
export const CASH_ROWS: ReadonlyArray<Row<(typeof CASH_FLOW_FIELDS)[number]>> = [
  ['netIncome', 'Net income'],
  ['depreciationAndAmortization', 'Depreciation and amortization'],
  ['stockBasedCompensation', 'Stock-based compensation'],
  ['changeInWorkingCapital', 'Change in working capital'],
  ['operatingCashFlow', 'Operating cash flow'],
  ['capitalExpenditure', 'Capital expenditure'],
  ['investingCashFlow', 'Investing cash flow'],
  ['dividendsPaid', 'Dividends paid'],
  ['shareRepurchases', 'Share repurchases'],
  ['financingCashFlow', 'Financing cash flow'],
  ['freeCashFlow', 'Free cash flow'],
];

/** Per-share figures are not money amounts to scale into millions. */
export const PER_SHARE = new Set<string>(['epsDiluted', 'epsBasic']);

/** camelCase field → the REST (and CSV) name: netIncome → net_income. */
export const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
