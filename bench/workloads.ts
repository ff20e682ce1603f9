/** The requests the benchmarks time, written once so the bench, the profile and the peer answer the same page. */

/** The nested page: companies × their last four fiscal years × three statements (5 + 4 + 3 fields). */
export function nestedPageQuery(pageSize: number): string {
  return `{
  companies(limit: ${pageSize}) {
    items {
      id
      ticker
      statements(type: ANNUAL, last: 4) {
        period
        incomeStatement { revenue grossProfit operatingIncome netIncome epsDiluted }
        balanceSheet { totalAssets totalLiabilities totalEquity cashAndEquivalents }
        cashFlow { operatingCashFlow capitalExpenditure freeCashFlow }
      }
    }
  }
}`;
}
