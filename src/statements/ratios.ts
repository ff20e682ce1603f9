/**
 * Financial ratios, computed from stored statements on request (the screener's stored copy is computed by these same
 * definitions, see stored-ratios). Every ratio is a fraction (0.25, not 25%) or a multiple/day count as its formula
 * says, and null — never NaN, Infinity or a made-up 0 — when an input is missing or a denominator is zero.
 *
 * Conventions, chosen so quarterly and annual figures compare:
 * - "avg X" is the mean of X at the end of this period and at the end of the previous period (previous quarter for
 *   a quarter, previous fiscal year for a year); without the opening balance the ratio is null.
 * - Ratios of a flow (income, cash flow) to a balance annualize the flow: ×4 for a quarter, ×1 for a fiscal year.
 * - Day counts use 365 days a year (91.25 a quarter); cash-flow outflows are stored negative, so formulas take
 *   their absolute value where a size is meant.
 * - total_debt is the stored total (short-term borrowings or commercial paper + current portion of long-term debt +
 *   non-current long-term debt), else short_term_debt + long_term_debt; null, not 0, when no debt line is reported.
 * - A ratio whose sign would mislead is null: coverage with a negative operating income or interest expense, returns
 *   and leverage on negative equity or capital.
 */
import type { IncomeStatement } from './income-statement.entity';
import type { BalanceSheet } from './balance-sheet.entity';
import type { CashFlowStatement } from './cash-flow-statement.entity';
import type { PeriodType } from './fiscal-period';

type Amounts<T> = { [K in keyof T]?: T[K] };

export interface RatioInputs {
  periodType: PeriodType;
  income: Amounts<IncomeStatement> | null;
  balance: Amounts<BalanceSheet> | null;
  cashFlow: Amounts<CashFlowStatement> | null;
  /** Balance sheet at the end of the previous period (opening balances). */
  previousBalance: Amounts<BalanceSheet> | null;
  /** Income statement of the same period one fiscal year earlier. */
  priorYearIncome: Amounts<IncomeStatement> | null;
}

export type RatioCategory = 'margins' | 'returns' | 'liquidity' | 'leverage' | 'efficiency' | 'cash_quality' | 'growth';

export interface RatioDefinition {
  /** camelCase name of the GraphQL field; REST uses its snake_case form. */
  key: string;
  category: RatioCategory;
  label: string;
  formula: string;
  compute(inputs: RatioInputs): number | null;
}

type Maybe = number | null | undefined;

/** Division that is null for a missing input or a zero denominator. */
export function divide(numerator: Maybe, denominator: Maybe): number | null {
  if (numerator === null || numerator === undefined || denominator === null || denominator === undefined) return null;
  if (denominator === 0) return null;
  const result = numerator / denominator;
  return Number.isFinite(result) ? result : null;
}

function sum(...values: Maybe[]): number | null {
  if (values.some((value) => value === null || value === undefined)) return null;
  return (values as number[]).reduce((total, value) => total + value, 0);
}

/** Adds values, reading a missing one as 0, but is null when all are missing (e.g. a company with no debt lines). */
function total(...values: Maybe[]): number | null {
  const present = values.filter((value): value is number => value !== null && value !== undefined);
  return present.length === 0 ? null : present.reduce((acc, value) => acc + value, 0);
}

function abs(value: Maybe): number | null {
  return value === null || value === undefined ? null : Math.abs(value);
}

function average(inputs: RatioInputs, pick: (balance: Amounts<BalanceSheet>) => Maybe): number | null {
  if (!inputs.balance || !inputs.previousBalance) return null;
  const closing = pick(inputs.balance);
  const opening = pick(inputs.previousBalance);
  const both = sum(closing, opening);
  return both === null ? null : both / 2;
}

function annualized(inputs: RatioInputs, flow: Maybe): number | null {
  if (flow === null || flow === undefined) return null;
  return inputs.periodType === 'QUARTER' ? flow * 4 : flow;
}

const DAYS_PER_YEAR = 365;
/** Total debt as stored, else its two lines; null when no debt line is reported (never a made-up 0). */
const totalDebt = (balance: Amounts<BalanceSheet> | null) =>
  balance ? (balance.totalDebt ?? total(balance.shortTermDebt, balance.longTermDebt)) : null;

/** A ratio whose denominator must be positive to mean anything (equity, interest expense): null otherwise. */
function dividePositive(numerator: Maybe, denominator: Maybe): number | null {
  return denominator === null || denominator === undefined || denominator <= 0 ? null : divide(numerator, denominator);
}

/** Year-over-year change; relative to |prior| so a move from a loss to a profit reads as growth. */
function growth(current: Maybe, prior: Maybe): number | null {
  if (current === null || current === undefined) return null;
  return divide(sum(current, prior === null || prior === undefined ? null : -prior), abs(prior));
}

const income = (i: RatioInputs) => i.income ?? {};
const balance = (i: RatioInputs) => i.balance ?? {};
const cashFlow = (i: RatioInputs) => i.cashFlow ?? {};

function effectiveTaxRate(i: RatioInputs): number | null {
  const rate = divide(income(i).incomeTaxExpense, income(i).incomeBeforeTax);
  // A tax rate is meaningless on a pre-tax loss.
  return rate === null || (income(i).incomeBeforeTax as number) <= 0 ? null : rate;
}

function investedCapital(b: Amounts<BalanceSheet>): number | null {
  const debt = totalDebt(b);
  return sum(
    b.totalEquity,
    debt,
    b.cashAndEquivalents === null || b.cashAndEquivalents === undefined ? null : -b.cashAndEquivalents,
  );
}

function receivablesTurnover(i: RatioInputs) {
  return divide(
    annualized(i, income(i).revenue),
    average(i, (b) => b.receivables),
  );
}
function inventoryTurnover(i: RatioInputs) {
  return divide(
    annualized(i, income(i).costOfRevenue),
    average(i, (b) => b.inventory),
  );
}
function payablesTurnover(i: RatioInputs) {
  return divide(
    annualized(i, income(i).costOfRevenue),
    average(i, (b) => b.accountsPayable),
  );
}

export const RATIO_DEFINITIONS: RatioDefinition[] = [
  // Margins
  {
    key: 'grossMargin',
    category: 'margins',
    label: 'Gross margin',
    formula: 'gross_profit / revenue',
    compute: (i) => divide(income(i).grossProfit, income(i).revenue),
  },
  {
    key: 'operatingMargin',
    category: 'margins',
    label: 'Operating margin',
    formula: 'operating_income / revenue',
    compute: (i) => divide(income(i).operatingIncome, income(i).revenue),
  },
  {
    key: 'ebitdaMargin',
    category: 'margins',
    label: 'EBITDA margin',
    formula: 'ebitda / revenue',
    compute: (i) => divide(income(i).ebitda, income(i).revenue),
  },
  {
    key: 'pretaxMargin',
    category: 'margins',
    label: 'Pre-tax margin',
    formula: 'income_before_tax / revenue',
    compute: (i) => divide(income(i).incomeBeforeTax, income(i).revenue),
  },
  {
    key: 'netMargin',
    category: 'margins',
    label: 'Net margin',
    formula: 'net_income / revenue',
    compute: (i) => divide(income(i).netIncome, income(i).revenue),
  },
  {
    key: 'effectiveTaxRate',
    category: 'margins',
    label: 'Effective tax rate',
    formula: 'income_tax_expense / income_before_tax (null when income_before_tax <= 0)',
    compute: effectiveTaxRate,
  },
  // Returns
  {
    key: 'returnOnAssets',
    category: 'returns',
    label: 'Return on assets (ROA)',
    formula: 'annualized net_income / avg total_assets',
    compute: (i) =>
      divide(
        annualized(i, income(i).netIncome),
        average(i, (b) => b.totalAssets),
      ),
  },
  {
    key: 'returnOnEquity',
    category: 'returns',
    label: 'Return on equity (ROE)',
    formula: 'annualized net_income / avg total_equity (null when avg total_equity <= 0)',
    compute: (i) =>
      dividePositive(
        annualized(i, income(i).netIncome),
        average(i, (b) => b.totalEquity),
      ),
  },
  {
    key: 'returnOnInvestedCapital',
    category: 'returns',
    label: 'Return on invested capital (ROIC)',
    formula:
      'annualized operating_income × (1 − effective_tax_rate) / avg (total_equity + total_debt − cash_and_equivalents) (null when that capital <= 0)',
    compute: (i) => {
      const taxRate = effectiveTaxRate(i);
      const operatingIncome = income(i).operatingIncome;
      const nopat =
        taxRate === null || operatingIncome === null || operatingIncome === undefined
          ? null
          : operatingIncome * (1 - taxRate);
      return dividePositive(annualized(i, nopat), average(i, investedCapital));
    },
  },
  // Liquidity
  {
    key: 'currentRatio',
    category: 'liquidity',
    label: 'Current ratio',
    formula: 'total_current_assets / total_current_liabilities',
    compute: (i) => divide(balance(i).totalCurrentAssets, balance(i).totalCurrentLiabilities),
  },
  {
    key: 'quickRatio',
    category: 'liquidity',
    label: 'Quick ratio',
    formula:
      '(cash_and_equivalents + short_term_investments + receivables) / total_current_liabilities (null unless every input is reported)',
    compute: (i) =>
      divide(
        sum(balance(i).cashAndEquivalents, balance(i).shortTermInvestments, balance(i).receivables),
        balance(i).totalCurrentLiabilities,
      ),
  },
  {
    key: 'cashRatio',
    category: 'liquidity',
    label: 'Cash ratio',
    formula:
      '(cash_and_equivalents + short_term_investments) / total_current_liabilities (null unless every input is reported)',
    compute: (i) =>
      divide(sum(balance(i).cashAndEquivalents, balance(i).shortTermInvestments), balance(i).totalCurrentLiabilities),
  },
  {
    key: 'operatingCashFlowRatio',
    category: 'liquidity',
    label: 'Operating cash flow ratio',
    formula: 'annualized operating_cash_flow / total_current_liabilities',
    compute: (i) => divide(annualized(i, cashFlow(i).operatingCashFlow), balance(i).totalCurrentLiabilities),
  },
  // Leverage
  {
    key: 'debtToEquity',
    category: 'leverage',
    label: 'Debt to equity',
    formula: 'total_debt / total_equity (null when total_equity <= 0)',
    compute: (i) => dividePositive(totalDebt(i.balance), balance(i).totalEquity),
  },
  {
    key: 'debtToAssets',
    category: 'leverage',
    label: 'Debt to assets',
    formula: 'total_debt / total_assets',
    compute: (i) => divide(totalDebt(i.balance), balance(i).totalAssets),
  },
  {
    key: 'interestCoverage',
    category: 'leverage',
    label: 'Interest coverage',
    formula: 'operating_income / interest_expense (null when interest_expense <= 0 or operating_income < 0)',
    compute: (i) => {
      // A negative coverage ("-216x") reads as a number but means "no coverage at all"; so does a negative expense.
      const operatingIncome = income(i).operatingIncome;
      return operatingIncome === null || operatingIncome === undefined || operatingIncome < 0
        ? null
        : dividePositive(operatingIncome, income(i).interestExpense);
    },
  },
  {
    key: 'netDebtToEbitda',
    category: 'leverage',
    label: 'Net debt to EBITDA',
    formula: '(total_debt − cash_and_equivalents − short_term_investments) / annualized ebitda (null when ebitda <= 0)',
    compute: (i) => {
      const debt = totalDebt(i.balance);
      const cash = total(balance(i).cashAndEquivalents, balance(i).shortTermInvestments);
      const netDebt = debt === null || cash === null ? null : debt - cash;
      const ebitda = annualized(i, income(i).ebitda);
      // Leverage against negative EBITDA has no meaning.
      return ebitda === null || ebitda <= 0 ? null : divide(netDebt, ebitda);
    },
  },
  // Efficiency
  {
    key: 'assetTurnover',
    category: 'efficiency',
    label: 'Asset turnover',
    formula: 'annualized revenue / avg total_assets',
    compute: (i) =>
      divide(
        annualized(i, income(i).revenue),
        average(i, (b) => b.totalAssets),
      ),
  },
  {
    key: 'inventoryTurnover',
    category: 'efficiency',
    label: 'Inventory turnover',
    formula: 'annualized cost_of_revenue / avg inventory',
    compute: inventoryTurnover,
  },
  {
    key: 'receivablesTurnover',
    category: 'efficiency',
    label: 'Receivables turnover',
    formula: 'annualized revenue / avg receivables',
    compute: receivablesTurnover,
  },
  {
    key: 'daysSalesOutstanding',
    category: 'efficiency',
    label: 'Days sales outstanding (DSO)',
    formula: '365 / receivables_turnover',
    compute: (i) => divide(DAYS_PER_YEAR, receivablesTurnover(i)),
  },
  {
    key: 'daysInventoryOutstanding',
    category: 'efficiency',
    label: 'Days inventory outstanding (DIO)',
    formula: '365 / inventory_turnover',
    compute: (i) => divide(DAYS_PER_YEAR, inventoryTurnover(i)),
  },
  {
    key: 'daysPayablesOutstanding',
    category: 'efficiency',
    label: 'Days payables outstanding (DPO)',
    formula: '365 × avg accounts_payable / annualized cost_of_revenue',
    compute: (i) => divide(DAYS_PER_YEAR, payablesTurnover(i)),
  },
  {
    key: 'cashConversionCycle',
    category: 'efficiency',
    label: 'Cash conversion cycle (days)',
    formula: 'DSO + DIO − DPO',
    compute: (i) => {
      const dso = divide(DAYS_PER_YEAR, receivablesTurnover(i));
      const dio = divide(DAYS_PER_YEAR, inventoryTurnover(i));
      const dpo = divide(DAYS_PER_YEAR, payablesTurnover(i));
      return dso === null || dio === null || dpo === null ? null : dso + dio - dpo;
    },
  },
  // Cash quality
  {
    key: 'freeCashFlowMargin',
    category: 'cash_quality',
    label: 'Free cash flow margin',
    formula: 'free_cash_flow / revenue',
    compute: (i) => divide(cashFlow(i).freeCashFlow, income(i).revenue),
  },
  {
    key: 'freeCashFlowConversion',
    category: 'cash_quality',
    label: 'Free cash flow conversion',
    formula: 'free_cash_flow / net_income (null when net_income <= 0)',
    compute: (i) => ((income(i).netIncome ?? 0) <= 0 ? null : divide(cashFlow(i).freeCashFlow, income(i).netIncome)),
  },
  {
    key: 'capexToRevenue',
    category: 'cash_quality',
    label: 'Capital expenditure to revenue',
    formula: '|capital_expenditure| / revenue',
    compute: (i) => divide(abs(cashFlow(i).capitalExpenditure), income(i).revenue),
  },
  {
    key: 'payoutRatio',
    category: 'cash_quality',
    label: 'Dividend payout ratio',
    formula: '|dividends_paid| / net_income (null when net_income <= 0)',
    compute: (i) =>
      (income(i).netIncome ?? 0) <= 0 ? null : divide(abs(cashFlow(i).dividendsPaid), income(i).netIncome),
  },
  // Growth
  {
    key: 'revenueGrowth',
    category: 'growth',
    label: 'Revenue growth (year over year)',
    formula: '(revenue − revenue one year earlier) / |revenue one year earlier|',
    compute: (i) => growth(income(i).revenue, i.priorYearIncome?.revenue),
  },
  {
    key: 'netIncomeGrowth',
    category: 'growth',
    label: 'Net income growth (year over year)',
    formula: '(net_income − net_income one year earlier) / |net_income one year earlier|',
    compute: (i) => growth(income(i).netIncome, i.priorYearIncome?.netIncome),
  },
  {
    key: 'epsGrowth',
    category: 'growth',
    label: 'Diluted EPS growth (year over year)',
    formula: '(eps_diluted − eps_diluted one year earlier) / |eps_diluted one year earlier|',
    compute: (i) => growth(income(i).epsDiluted, i.priorYearIncome?.epsDiluted),
  },
];

/** Every ratio for one period, keyed by its camelCase name. */
export function computeRatios(inputs: RatioInputs): Record<string, number | null> {
  return Object.fromEntries(RATIO_DEFINITIONS.map((definition) => [definition.key, definition.compute(inputs)]));
}
