/**
 * How us-gaap concepts become statement fields. Each field lists its concepts in order of preference: companies switch
 * tags over time (`SalesRevenueNet` → `Revenues` → `RevenueFromContractWithCustomerExcludingAssessedTax`), and banks
 * and insurers file no `Revenues`-style tag at all, so later entries are fallbacks used only for a period where the
 * earlier ones have no value.
 */

export type StatementKind = 'income' | 'balance' | 'cashFlow';
/** The unit a concept is reported in (companyfacts `units` key). */
export type FactUnit = 'USD' | 'USD/shares' | 'shares';

export interface FieldMapping {
  statement: StatementKind;
  /** camelCase column of our statement entity. */
  field: string;
  concepts: string[];
  unit: FactUnit;
  /**
   * Cash paid out (capital expenditure, dividends, buybacks) is filed as a positive payment; our statements hold it
   * as a negative cash flow, as the demo data and the ratios expect.
   */
  negate?: boolean;
}

export const FIELD_MAPPINGS: FieldMapping[] = [
  // Income statement (durations)
  {
    statement: 'income', field: 'revenue', unit: 'USD',
    concepts: [
      'Revenues', 'RevenueFromContractWithCustomerExcludingAssessedTax', 'SalesRevenueNet', 'RevenueFromContractWithCustomerIncludingAssessedTax',
      'SalesRevenueGoodsNet', 'RevenuesNetOfInterestExpense', 'InterestAndDividendIncomeOperating', 'PremiumsEarnedNet',
    ],
  },
  { statement: 'income', field: 'costOfRevenue', unit: 'USD', concepts: ['CostOfRevenue', 'CostOfGoodsAndServicesSold', 'CostOfGoodsSold', 'CostOfGoodsAndServiceExcludingDepreciationDepletionAndAmortization'] },
  { statement: 'income', field: 'grossProfit', unit: 'USD', concepts: ['GrossProfit'] },
  { statement: 'income', field: 'researchAndDevelopment', unit: 'USD', concepts: ['ResearchAndDevelopmentExpense', 'ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost'] },
  { statement: 'income', field: 'sellingGeneralAndAdministrative', unit: 'USD', concepts: ['SellingGeneralAndAdministrativeExpense', 'GeneralAndAdministrativeExpense'] },
  { statement: 'income', field: 'operatingExpenses', unit: 'USD', concepts: ['OperatingExpenses'] },
  { statement: 'income', field: 'operatingIncome', unit: 'USD', concepts: ['OperatingIncomeLoss'] },
  { statement: 'income', field: 'interestExpense', unit: 'USD', concepts: ['InterestExpense', 'InterestExpenseNonoperating', 'InterestExpenseDebt'] },
  {
    statement: 'income', field: 'incomeBeforeTax', unit: 'USD',
    concepts: ['IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest', 'IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments'],
  },
  { statement: 'income', field: 'incomeTaxExpense', unit: 'USD', concepts: ['IncomeTaxExpenseBenefit'] },
  { statement: 'income', field: 'netIncome', unit: 'USD', concepts: ['NetIncomeLoss', 'ProfitLoss', 'NetIncomeLossAvailableToCommonStockholdersBasic'] },
  { statement: 'income', field: 'epsBasic', unit: 'USD/shares', concepts: ['EarningsPerShareBasic', 'EarningsPerShareBasicAndDiluted'] },
  { statement: 'income', field: 'epsDiluted', unit: 'USD/shares', concepts: ['EarningsPerShareDiluted', 'EarningsPerShareBasicAndDiluted'] },
  { statement: 'income', field: 'sharesBasic', unit: 'shares', concepts: ['WeightedAverageNumberOfSharesOutstandingBasic'] },
  { statement: 'income', field: 'sharesDiluted', unit: 'shares', concepts: ['WeightedAverageNumberOfDilutedSharesOutstanding'] },
  { statement: 'income', field: 'depreciationAndAmortization', unit: 'USD', concepts: ['DepreciationDepletionAndAmortization', 'DepreciationAndAmortization', 'DepreciationAmortizationAndAccretionNet'] },
  // Balance sheet (instants)
  { statement: 'balance', field: 'cashAndEquivalents', unit: 'USD', concepts: ['CashAndCashEquivalentsAtCarryingValue', 'CashAndDueFromBanks'] },
  { statement: 'balance', field: 'shortTermInvestments', unit: 'USD', concepts: ['ShortTermInvestments', 'MarketableSecuritiesCurrent', 'AvailableForSaleSecuritiesDebtSecuritiesCurrent'] },
  { statement: 'balance', field: 'receivables', unit: 'USD', concepts: ['AccountsReceivableNetCurrent'] },
  { statement: 'balance', field: 'inventory', unit: 'USD', concepts: ['InventoryNet'] },
  { statement: 'balance', field: 'totalCurrentAssets', unit: 'USD', concepts: ['AssetsCurrent'] },
  { statement: 'balance', field: 'ppeNet', unit: 'USD', concepts: ['PropertyPlantAndEquipmentNet'] },
  { statement: 'balance', field: 'totalAssets', unit: 'USD', concepts: ['Assets'] },
  { statement: 'balance', field: 'accountsPayable', unit: 'USD', concepts: ['AccountsPayableCurrent'] },
  { statement: 'balance', field: 'shortTermDebt', unit: 'USD', concepts: ['LongTermDebtCurrent', 'DebtCurrent', 'ShortTermBorrowings'] },
  { statement: 'balance', field: 'totalCurrentLiabilities', unit: 'USD', concepts: ['LiabilitiesCurrent'] },
  { statement: 'balance', field: 'longTermDebt', unit: 'USD', concepts: ['LongTermDebtNoncurrent', 'LongTermDebt'] },
  { statement: 'balance', field: 'totalLiabilities', unit: 'USD', concepts: ['Liabilities'] },
  { statement: 'balance', field: 'retainedEarnings', unit: 'USD', concepts: ['RetainedEarningsAccumulatedDeficit'] },
  { statement: 'balance', field: 'totalEquity', unit: 'USD', concepts: ['StockholdersEquity', 'StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'] },
  // Cash flow statement (durations; 10-Qs report them year to date)
  { statement: 'cashFlow', field: 'netIncome', unit: 'USD', concepts: ['ProfitLoss', 'NetIncomeLoss'] },
  { statement: 'cashFlow', field: 'depreciationAndAmortization', unit: 'USD', concepts: ['DepreciationDepletionAndAmortization', 'DepreciationAndAmortization', 'DepreciationAmortizationAndAccretionNet'] },
  { statement: 'cashFlow', field: 'stockBasedCompensation', unit: 'USD', concepts: ['ShareBasedCompensation', 'AllocatedShareBasedCompensationExpense'] },
  { statement: 'cashFlow', field: 'operatingCashFlow', unit: 'USD', concepts: ['NetCashProvidedByUsedInOperatingActivities', 'NetCashProvidedByUsedInOperatingActivitiesContinuingOperations'] },
  { statement: 'cashFlow', field: 'capitalExpenditure', unit: 'USD', negate: true, concepts: ['PaymentsToAcquirePropertyPlantAndEquipment', 'PaymentsToAcquireProductiveAssets'] },
  { statement: 'cashFlow', field: 'investingCashFlow', unit: 'USD', concepts: ['NetCashProvidedByUsedInInvestingActivities', 'NetCashProvidedByUsedInInvestingActivitiesContinuingOperations'] },
  { statement: 'cashFlow', field: 'dividendsPaid', unit: 'USD', negate: true, concepts: ['PaymentsOfDividends', 'PaymentsOfDividendsCommonStock'] },
  { statement: 'cashFlow', field: 'shareRepurchases', unit: 'USD', negate: true, concepts: ['PaymentsForRepurchaseOfCommonStock'] },
  { statement: 'cashFlow', field: 'financingCashFlow', unit: 'USD', concepts: ['NetCashProvidedByUsedInFinancingActivities', 'NetCashProvidedByUsedInFinancingActivitiesContinuingOperations'] },
  {
    statement: 'cashFlow', field: 'netChangeInCash', unit: 'USD',
    concepts: ['CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect', 'CashAndCashEquivalentsPeriodIncreaseDecrease'],
  },
];

export const MAPPED_CONCEPTS = new Set(FIELD_MAPPINGS.flatMap((mapping) => mapping.concepts));

/** Concepts that are amounts of a period (flows), which add up over quarters; shares and per-share figures do not. */
export function isAdditive(mapping: FieldMapping): boolean {
  return mapping.statement !== 'balance' && mapping.unit === 'USD';
}
