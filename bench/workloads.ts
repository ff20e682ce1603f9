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

/** Three typical screens: ratio filters sorted by a ratio, a statement range with size and sector, a named year a page deep. */
export const SCREENS: Array<{ label: string; query: string }> = [
  {
    label: 'ratio filters, sorted by a ratio',
    query:
      'filter=gross_margin%3E0.5,revenue_growth%3E0.2&sort=-net_margin&fields=gross_margin,revenue_growth,net_margin',
  },
  {
    label: 'statement range and size, one sector',
    query:
      'filter=revenue%3D1B..500B,operating_income%3E0&size=large,mega,mid&sort=-revenue&sector=information%20technology',
  },
  {
    label: 'a named year, a page deep',
    query:
      'period=FY2024&filter=net_margin%3E0&sort=-return_on_equity&fields=return_on_equity,debt_to_equity&limit=10&offset=10',
  },
];
