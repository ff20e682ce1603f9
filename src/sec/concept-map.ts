/**
 * How us-gaap and ifrs-full concepts become statement fields. Each field lists the concepts that mean the same thing:
 * companies switch tags over time (`SalesRevenueNet` → `Revenues` → `RevenueFromContractWithCustomerExcludingAssessedTax`),
 * and banks and insurers file no `Revenues`-style tag at all. For each fiscal year one concept is used for the year
 * and all its quarters — the one that covers most of that year's periods, the listed order breaking ties — so a
 * year's flows and its quarters' flows always come from the same concept.
 *
 * Fields whose name starts with `_` are inputs of derived fields (see derived-fields.ts) and are not stored.
 */
import type { StatementKind } from '../statements/statement-kind';

export type { StatementKind } from '../statements/statement-kind';
export type Taxonomy = 'us-gaap' | 'ifrs-full';
/** money: the reporting currency (companyfacts `units` key USD, TWD…); per share: "<currency>/shares". */
export type FactUnit = 'money' | 'moneyPerShare' | 'shares';

export interface FieldMapping {
  statement: StatementKind;
  /** camelCase column of our statement entity, or an `_input` of a derived field. */
  field: string;
  concepts: string[];
  unit: FactUnit;
  /**
   * Cash paid out (capital expenditure, dividends, buybacks) is filed as a positive payment; our statements hold it
   * as a negative cash flow, as the demo data and the ratios expect.
   */
  negate?: boolean;
}

const money = (statement: StatementKind, field: string, concepts: string[], negate?: boolean): FieldMapping => ({
  statement,
  field,
  concepts,
  unit: 'money',
  ...(negate ? { negate } : {}),
});

const DEPRECIATION = [
  'DepreciationDepletionAndAmortization',
  'DepreciationAndAmortization',
  'DepreciationAmortizationAndAccretionNet',
];

export const US_GAAP_MAPPINGS: FieldMapping[] = [
  // Income statement (durations)
  money('income', 'revenue', [
    'Revenues',
    'RevenueFromContractWithCustomerExcludingAssessedTax',
    'SalesRevenueNet',
    'RevenueFromContractWithCustomerIncludingAssessedTax',
    'SalesRevenueGoodsNet',
    'RevenuesNetOfInterestExpense',
    'InterestAndDividendIncomeOperating',
    'PremiumsEarnedNet',
  ]),
  money('income', 'costOfRevenue', [
    'CostOfRevenue',
    'CostOfGoodsAndServicesSold',
    'CostOfGoodsSold',
    'CostOfGoodsAndServiceExcludingDepreciationDepletionAndAmortization',
  ]),
  money('income', 'grossProfit', ['GrossProfit']),
  money('income', 'researchAndDevelopment', [
    'ResearchAndDevelopmentExpense',
    'ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost',
  ]),
  money('income', 'sellingGeneralAndAdministrative', [
    'SellingGeneralAndAdministrativeExpense',
    'GeneralAndAdministrativeExpense',
  ]),
  money('income', 'operatingExpenses', ['OperatingExpenses']),
  money('income', 'operatingIncome', ['OperatingIncomeLoss']),
  money('income', 'interestExpense', ['InterestExpense', 'InterestExpenseNonoperating', 'InterestExpenseDebt']),
  money('income', 'incomeBeforeTax', [
    'IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
    'IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
  ]),
  money('income', 'incomeTaxExpense', ['IncomeTaxExpenseBenefit']),
  // Attributable to the parent's shareholders; ProfitLoss (which includes non-controlling interests) only for a
  // company that files nothing else.
  money('income', 'netIncome', ['NetIncomeLoss', 'ProfitLoss', 'NetIncomeLossAvailableToCommonStockholdersBasic']),
  {
    statement: 'income',
    field: 'epsBasic',
    unit: 'moneyPerShare',
    concepts: ['EarningsPerShareBasic', 'EarningsPerShareBasicAndDiluted'],
  },
  {
    statement: 'income',
    field: 'epsDiluted',
    unit: 'moneyPerShare',
    concepts: ['EarningsPerShareDiluted', 'EarningsPerShareBasicAndDiluted'],
  },
  {
    statement: 'income',
    field: 'sharesBasic',
    unit: 'shares',
    concepts: ['WeightedAverageNumberOfSharesOutstandingBasic'],
  },
  {
    statement: 'income',
    field: 'sharesDiluted',
    unit: 'shares',
    concepts: ['WeightedAverageNumberOfDilutedSharesOutstanding'],
  },
  money('income', 'depreciationAndAmortization', DEPRECIATION),
  // Balance sheet (instants)
  money('balance', 'cashAndEquivalents', ['CashAndCashEquivalentsAtCarryingValue', 'CashAndDueFromBanks']),
  // Cash, cash equivalents and restricted cash together (the total the cash-flow statement rolls forward).
  money('balance', '_cashAndRestrictedCash', ['CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents']),
  // Restricted cash lines, when the total above is not reported.
  money('balance', '_restrictedCashCurrent', [
    'RestrictedCashCurrent',
    'RestrictedCashAndCashEquivalentsAtCarryingValue',
  ]),
  money('balance', '_restrictedCashNoncurrent', [
    'RestrictedCashNoncurrent',
    'RestrictedCashAndCashEquivalentsNoncurrent',
  ]),
  money('balance', 'shortTermInvestments', [
    'ShortTermInvestments',
    'MarketableSecuritiesCurrent',
    'AvailableForSaleSecuritiesDebtSecuritiesCurrent',
  ]),
  money('balance', 'receivables', ['AccountsReceivableNetCurrent']),
  money('balance', 'inventory', ['InventoryNet']),
  money('balance', 'totalCurrentAssets', ['AssetsCurrent']),
  money('balance', 'ppeNet', ['PropertyPlantAndEquipmentNet']),
  money('balance', 'totalAssets', ['Assets']),
  money('balance', 'accountsPayable', ['AccountsPayableCurrent']),
  // Debt lines. ShortTermBorrowings includes commercial paper (its us-gaap definition), so commercial paper is only
  // added when short-term borrowings are not reported; DebtCurrent is all current debt, used only without the lines.
  money('balance', 'shortTermBorrowings', ['ShortTermBorrowings', 'OtherShortTermBorrowings']),
  money('balance', 'commercialPaper', ['CommercialPaper']),
  money('balance', 'currentPortionOfLongTermDebt', [
    'LongTermDebtCurrent',
    'LongTermDebtAndCapitalLeaseObligationsCurrent',
  ]),
  money('balance', '_debtCurrent', ['DebtCurrent']),
  money('balance', 'totalCurrentLiabilities', ['LiabilitiesCurrent']),
  money('balance', 'longTermDebt', ['LongTermDebtNoncurrent', 'LongTermDebtAndCapitalLeaseObligations']),
  // Long-term debt including its current portion: the non-current part is this minus the current portion.
  money('balance', '_longTermDebtIncludingCurrent', ['LongTermDebt']),
  money('balance', 'totalLiabilities', ['Liabilities']),
  money('balance', 'retainedEarnings', ['RetainedEarningsAccumulatedDeficit']),
  money('balance', 'totalEquity', ['StockholdersEquity']),
  money('balance', 'nonControllingInterest', ['MinorityInterest']),
  money('balance', '_equityIncludingNonControllingInterest', [
    'StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest',
  ]),
  // Temporary (mezzanine) equity: one total, or the parent's part plus redeemable non-controlling interests.
  money('balance', '_temporaryEquityTotal', [
    'TemporaryEquityCarryingAmountIncludingPortionAttributableToNoncontrollingInterests',
  ]),
  money('balance', '_temporaryEquityOfParent', [
    'TemporaryEquityCarryingAmountAttributableToParent',
    'TemporaryEquityValueExcludingAdditionalPaidInCapital',
  ]),
  money('balance', '_redeemableNonControllingInterest', [
    'RedeemableNoncontrollingInterestEquityCarryingAmount',
    'RedeemableNoncontrollingInterestEquityCommonCarryingAmount',
  ]),
  // The equity component of convertible notes, presented as temporary equity while the notes are currently
  // convertible (ASC 480-10-S99); used as such only where it is exactly what the filer's own total needs.
  money('balance', '_convertibleDebtEquityComponent', ['DebtInstrumentConvertibleCarryingAmountOfTheEquityComponent']),
  money('balance', 'totalLiabilitiesAndEquity', ['LiabilitiesAndStockholdersEquity']),
  // Cash flow statement (durations; 10-Qs report them year to date). Net income here includes non-controlling
  // interests, as the statement starts from it.
  money('cashFlow', 'netIncome', ['ProfitLoss', 'NetIncomeLoss']),
  money('cashFlow', 'depreciationAndAmortization', DEPRECIATION),
  money('cashFlow', 'stockBasedCompensation', ['ShareBasedCompensation', 'AllocatedShareBasedCompensationExpense']),
  money('cashFlow', 'operatingCashFlow', [
    'NetCashProvidedByUsedInOperatingActivities',
    'NetCashProvidedByUsedInOperatingActivitiesContinuingOperations',
  ]),
  money(
    'cashFlow',
    'capitalExpenditure',
    ['PaymentsToAcquirePropertyPlantAndEquipment', 'PaymentsToAcquireProductiveAssets'],
    true,
  ),
  money('cashFlow', 'investingCashFlow', [
    'NetCashProvidedByUsedInInvestingActivities',
    'NetCashProvidedByUsedInInvestingActivitiesContinuingOperations',
  ]),
  money('cashFlow', 'dividendsPaid', ['PaymentsOfDividends', 'PaymentsOfDividendsCommonStock'], true),
  money('cashFlow', 'shareRepurchases', ['PaymentsForRepurchaseOfCommonStock'], true),
  money('cashFlow', 'financingCashFlow', [
    'NetCashProvidedByUsedInFinancingActivities',
    'NetCashProvidedByUsedInFinancingActivitiesContinuingOperations',
  ]),
  money('cashFlow', 'netChangeInCash', [
    'CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect',
    'CashAndCashEquivalentsPeriodIncreaseDecrease',
  ]),
];

/** IFRS (ifrs-full) filers: 20-F annual reports, 6-K interim reports, amounts in the reporting currency. */
export const IFRS_MAPPINGS: FieldMapping[] = [
  money('income', 'revenue', ['Revenue', 'RevenueFromContractsWithCustomers']),
  money('income', 'costOfRevenue', ['CostOfSales']),
  money('income', 'grossProfit', ['GrossProfit']),
  money('income', 'researchAndDevelopment', ['ResearchAndDevelopmentExpense']),
  money('income', 'sellingGeneralAndAdministrative', [
    'SellingGeneralAndAdministrativeExpense',
    'AdministrativeExpense',
    'GeneralAndAdministrativeExpense',
  ]),
  money('income', 'operatingExpenses', ['OperatingExpenseExcludingCostOfSales']),
  money('income', 'operatingIncome', ['ProfitLossFromOperatingActivities']),
  money('income', 'interestExpense', ['InterestExpense', 'FinanceCosts']),
  money('income', 'incomeBeforeTax', ['ProfitLossBeforeTax']),
  money('income', 'incomeTaxExpense', ['IncomeTaxExpenseContinuingOperations']),
  money('income', 'netIncome', ['ProfitLossAttributableToOwnersOfParent', 'ProfitLoss']),
  { statement: 'income', field: 'epsBasic', unit: 'moneyPerShare', concepts: ['BasicEarningsLossPerShare'] },
  { statement: 'income', field: 'epsDiluted', unit: 'moneyPerShare', concepts: ['DilutedEarningsLossPerShare'] },
  { statement: 'income', field: 'sharesBasic', unit: 'shares', concepts: ['WeightedAverageShares'] },
  { statement: 'income', field: 'sharesDiluted', unit: 'shares', concepts: ['AdjustedWeightedAverageShares'] },
  money('income', 'depreciationAndAmortization', [
    'DepreciationAndAmortisationExpense',
    'AdjustmentsForDepreciationAndAmortisationExpense',
  ]),
  money('balance', 'cashAndEquivalents', ['CashAndCashEquivalents']),
  money('balance', 'restrictedCash', ['CurrentRestrictedCashAndCashEquivalents', 'RestrictedCashAndCashEquivalents']),
  money('balance', 'receivables', ['CurrentTradeReceivables', 'TradeAndOtherCurrentReceivables']),
  money('balance', 'inventory', ['Inventories']),
  money('balance', 'totalCurrentAssets', ['CurrentAssets']),
  money('balance', 'ppeNet', ['PropertyPlantAndEquipment']),
  money('balance', 'goodwillAndIntangibles', ['IntangibleAssetsAndGoodwill']),
  money('balance', 'totalAssets', ['Assets']),
  money('balance', 'accountsPayable', ['TradeAndOtherCurrentPayablesToTradeSuppliers', 'TradeAndOtherCurrentPayables']),
  money('balance', 'shortTermBorrowings', ['ShorttermBorrowings']),
  money('balance', 'currentPortionOfLongTermDebt', ['CurrentPortionOfLongtermBorrowings']),
  money('balance', 'totalCurrentLiabilities', ['CurrentLiabilities']),
  money('balance', 'longTermDebt', ['NoncurrentPortionOfNoncurrentBondsIssued', 'LongtermBorrowings']),
  money('balance', 'totalLiabilities', ['Liabilities']),
  money('balance', 'retainedEarnings', ['RetainedEarnings']),
  money('balance', 'totalEquity', ['EquityAttributableToOwnersOfParent']),
  money('balance', 'nonControllingInterest', ['NoncontrollingInterests']),
  money('balance', '_equityIncludingNonControllingInterest', ['Equity']),
  money('balance', 'totalLiabilitiesAndEquity', ['EquityAndLiabilities']),
  money('cashFlow', 'netIncome', ['ProfitLoss']),
  money('cashFlow', 'depreciationAndAmortization', [
    'AdjustmentsForDepreciationAndAmortisationExpense',
    'DepreciationExpense',
  ]),
  money('cashFlow', 'stockBasedCompensation', ['AdjustmentsForSharebasedPayments']),
  money('cashFlow', 'operatingCashFlow', ['CashFlowsFromUsedInOperatingActivities', 'CashFlowsFromUsedInOperations']),
  money(
    'cashFlow',
    'capitalExpenditure',
    ['PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities', 'PurchaseOfPropertyPlantAndEquipment'],
    true,
  ),
  money('cashFlow', 'investingCashFlow', ['CashFlowsFromUsedInInvestingActivities']),
  money('cashFlow', 'dividendsPaid', ['DividendsPaidClassifiedAsFinancingActivities', 'DividendsPaid'], true),
  money('cashFlow', 'shareRepurchases', ['PaymentsToAcquireOrRedeemEntitysShares'], true),
  money('cashFlow', 'financingCashFlow', ['CashFlowsFromUsedInFinancingActivities']),
  money('cashFlow', 'netChangeInCash', ['IncreaseDecreaseInCashAndCashEquivalents']),
];

export const MAPPINGS_BY_TAXONOMY: Record<Taxonomy, FieldMapping[]> = {
  'us-gaap': US_GAAP_MAPPINGS,
  'ifrs-full': IFRS_MAPPINGS,
};

export const MAPPED_CONCEPTS = new Set([...US_GAAP_MAPPINGS, ...IFRS_MAPPINGS].flatMap((mapping) => mapping.concepts));

/** Concepts that are amounts of a period (flows), which add up over quarters; shares and per-share figures do not. */
export function isAdditive(mapping: FieldMapping): boolean {
  return mapping.statement !== 'balance' && mapping.unit === 'money';
}

/** A stored column (not an `_input` of a derived field). */
export function isStoredField(field: string): boolean {
  return !field.startsWith('_');
}
