/**
 * Everything a company page shows, asked of the service in one GraphQL request. The fields are listed once, typed
 * against the service's schema (the SDK's `Schema` types): the query is written from these lists and the answer's
 * type is picked from the schema by them, so a field renamed in the schema breaks the build, not the page.
 */
import type { Schema } from '@financial-insights/sdk';

type NumericKeys<T> = { [K in keyof T]-?: T[K] extends number | null | undefined ? K : never }[keyof T];

const fields =
  <T>() =>
  <const K extends ReadonlyArray<NumericKeys<T>>>(keys: K) =>
    keys;

export const INCOME_FIELDS = fields<Schema.IncomeStatement>()([
  'revenue',
  'costOfRevenue',
  'grossProfit',
  'researchAndDevelopment',
  'sellingGeneralAndAdministrative',
  'operatingIncome',
  'interestExpense',
  'incomeBeforeTax',
  'incomeTaxExpense',
  'netIncome',
  'epsDiluted',
  'ebitda',
]);
export const BALANCE_FIELDS = fields<Schema.BalanceSheet>()([
  'cashAndEquivalents',
  'shortTermInvestments',
  'receivables',
  'inventory',
  'totalCurrentAssets',
  'ppeNet',
  'goodwillAndIntangibles',
  'totalAssets',
  'accountsPayable',
  'shortTermDebt',
  'totalCurrentLiabilities',
  'longTermDebt',
  'totalDebt',
  'totalLiabilities',
  'totalEquity',
]);
export const CASH_FLOW_FIELDS = fields<Schema.CashFlowStatement>()([
  'netIncome',
  'depreciationAndAmortization',
  'stockBasedCompensation',
  'changeInWorkingCapital',
  'operatingCashFlow',
  'capitalExpenditure',
  'investingCashFlow',
  'dividendsPaid',
  'shareRepurchases',
  'financingCashFlow',
  'freeCashFlow',
]);
/** Every ratio the schema has (the page checks the service's definitions against this list). */
export const RATIO_FIELDS = fields<Schema.Ratios>()([
  'grossMargin',
  'operatingMargin',
  'ebitdaMargin',
  'pretaxMargin',
  'netMargin',
  'effectiveTaxRate',
  'returnOnAssets',
  'returnOnEquity',
  'returnOnInvestedCapital',
  'currentRatio',
  'quickRatio',
  'cashRatio',
  'operatingCashFlowRatio',
  'debtToEquity',
  'debtToAssets',
  'interestCoverage',
  'netDebtToEbitda',
  'assetTurnover',
  'inventoryTurnover',
  'receivablesTurnover',
  'daysSalesOutstanding',
  'daysInventoryOutstanding',
  'daysPayablesOutstanding',
  'cashConversionCycle',
  'freeCashFlowMargin',
  'freeCashFlowConversion',
  'capexToRevenue',
  'payoutRatio',
]);

const PROFILE_FIELDS = [
  'id',
  'name',
  'ticker',
  'sector',
  'industry',
  'exchange',
  'country',
  'currency',
  'description',
  'website',
  'employees',
] as const satisfies ReadonlyArray<keyof Schema.Company>;
const PERIOD_FIELDS = ['period', 'periodStart', 'periodEnd'] as const satisfies ReadonlyArray<
  keyof Schema.FinancialPeriod
>;
const CHECK_FIELDS = ['check', 'passed', 'detail'] as const satisfies ReadonlyArray<keyof Schema.QualityCheck>;
const SOURCE_FIELDS = [
  'field',
  'concept',
  'accession',
  'form',
  'filed',
  'derived',
  'restated',
  'page',
] as const satisfies ReadonlyArray<keyof Schema.ValueSource>;
const SUMMARY_FIELDS = ['check', 'description', 'checked', 'passed'] as const satisfies ReadonlyArray<
  keyof Schema.DataQualitySummary
>;
const DEFINITION_FIELDS = ['key', 'category', 'label', 'formula'] as const satisfies ReadonlyArray<
  keyof Schema.RatioDefinition
>;

type Pick2<T, K extends ReadonlyArray<keyof T>> = Pick<T, K[number]>;
type Audited = {
  dataQuality: Array<Pick2<Schema.QualityCheck, typeof CHECK_FIELDS>>;
  provenance: Array<Pick2<Schema.ValueSource, typeof SOURCE_FIELDS>>;
};

export type Income = Pick2<Schema.IncomeStatement, typeof INCOME_FIELDS> & Audited;
export type Balance = Pick2<Schema.BalanceSheet, typeof BALANCE_FIELDS> & Audited;
export type CashFlow = Pick2<Schema.CashFlowStatement, typeof CASH_FLOW_FIELDS> & Audited;
export type RatioValues = Pick2<Schema.Ratios, typeof RATIO_FIELDS>;
export type Profile = Pick2<Schema.Company, typeof PROFILE_FIELDS>;
export type QualitySummary = Pick2<Schema.DataQualitySummary, typeof SUMMARY_FIELDS>;
export type Definition = Pick2<Schema.RatioDefinition, typeof DEFINITION_FIELDS>;
export type Provenance = Audited['provenance'][number];
export interface PeriodRow extends Pick2<Schema.FinancialPeriod, typeof PERIOD_FIELDS> {
  incomeStatement: Income | null;
  balanceSheet: Balance | null;
  cashFlow: CashFlow | null;
  ratios: RatioValues | null;
}
export interface CompanyPageData {
  ratioDefinitions: Definition[];
  company:
    | (Profile & {
        statements: PeriodRow[];
        dataQuality: QualitySummary[];
        ttmIncome: Income | null;
        ttmCashFlow: CashFlow | null;
        ttmRatios: RatioValues | null;
      })
    | null;
}

const list = (keys: readonly string[]) => keys.join(' ');
const audited = `dataQuality { ${list(CHECK_FIELDS)} } provenance { ${list(SOURCE_FIELDS)} }`;
const income = `{ ${list(INCOME_FIELDS)} ${audited} }`;
const balance = `{ ${list(BALANCE_FIELDS)} ${audited} }`;
const cashFlow = `{ ${list(CASH_FLOW_FIELDS)} ${audited} }`;
const ratios = `{ ${list(RATIO_FIELDS)} }`;

/** The statements of the last `last` periods of a type; with `ttm`, also the trailing twelve months. */
export const COMPANY_PAGE_QUERY = `query CompanyPage($ticker: String!, $last: Int!, $type: PeriodType!, $ttm: Boolean!) {
  ratioDefinitions { ${list(DEFINITION_FIELDS)} }
  company(ticker: $ticker) {
    ${list(PROFILE_FIELDS)}
    statements(last: $last, type: $type) {
      ${list(PERIOD_FIELDS)}
      incomeStatement ${income}
      balanceSheet ${balance}
      cashFlow ${cashFlow}
      ratios ${ratios}
    }
    dataQuality { ${list(SUMMARY_FIELDS)} }
    ttmIncome: incomeStatement(period: "ttm") @include(if: $ttm) ${income}
    ttmCashFlow: cashFlow(period: "ttm") @include(if: $ttm) ${cashFlow}
    ttmRatios: ratios(period: "ttm") @include(if: $ttm) ${ratios}
  }
}`;
