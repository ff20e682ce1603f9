/** Input caps, read by the services that enforce them and by the REST JSON Schemas that document them. */
export const CAPS = {
  companies: { defaultPageSize: 20, maxPageSize: 100, maxOffset: 1_000_000 },
  /** Periods of one statement or ratio history (GraphQL `statements(last)`, REST `limit`). */
  history: { defaultPeriods: 8, maxPeriods: 40 },
  search: { defaultTopK: 10, maxTopK: 50, maxQueryChars: 2_000, maxCompanyFilter: 100, maxListFilter: 20, maxSectionChars: 100 },
  compare: {
    minCompanies: 2,
    maxCompanies: 5,
    maxMetrics: 20,
    /** Measures that compare accepts (camelCase, as in GraphQL; REST takes them in snake_case). */
    metrics: [
      'revenue', 'revenueChange', 'grossProfit', 'operatingIncome', 'operatingIncomeChange', 'netIncome', 'netIncomeChange', 'ebitda', 'epsDiluted',
      'researchAndDevelopment', 'cashAndEquivalents', 'totalAssets', 'totalLiabilities', 'totalEquity', 'totalDebt', 'operatingCashFlow',
      'operatingCashFlowChange', 'capitalExpenditure', 'freeCashFlow', 'freeCashFlowChange', 'dividendsPaid', 'shareRepurchases', 'grossMargin',
      'grossMarginChange', 'operatingMargin', 'operatingMarginChange', 'netMargin', 'netMarginChange', 'returnOnEquity', 'freeCashFlowMargin',
      'currentRatio', 'debtToEquity', 'interestCoverage', 'netDebtToEbitda',
    ],
  },
  ingestDocument: { docTypes: ['10-K', '10-Q', '8-K', '20-F', '6-K', 'annual-report', 'earnings-call', 'press-release', 'presentation', 'note', 'other'] },
  chat: { maxMessages: 40, maxMessageChars: 4_000, maxConversationChars: 20_000, maxCompanies: 5 },
  summarize: { summaryTypes: ['overview', 'profitability', 'balance_sheet', 'cash_flow', 'risks'] },
} as const;
