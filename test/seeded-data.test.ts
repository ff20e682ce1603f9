import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { parseExactPeriod, previousPeriod } from '../src/statements/fiscal-period';

const INCOME_FLOWS = [
  'revenue',
  'cost_of_revenue',
  'gross_profit',
  'research_and_development',
  'selling_general_and_administrative',
  'operating_expenses',
  'operating_income',
  'interest_expense',
  'income_before_tax',
  'income_tax_expense',
  'net_income',
  'depreciation_and_amortization',
  'ebitda',
];
const CASH_FLOWS = [
  'net_income',
  'depreciation_and_amortization',
  'stock_based_compensation',
  'change_in_working_capital',
  'operating_cash_flow',
  'capital_expenditure',
  'investing_cash_flow',
  'dividends_paid',
  'share_repurchases',
  'financing_cash_flow',
  'net_change_in_cash',
  'free_cash_flow',
];

const sql = <T = Record<string, unknown>>(query: string, parameters?: unknown[]): Promise<T[]> =>
  app().database.dataSource.query(query, parameters);

/** Rows where a fiscal year's flow item differs from the sum of its four quarters. */
async function fiscalYearSumMismatches(
  table: string,
  columns: string[],
): Promise<Array<{ company_id: number; period: string }>> {
  const differs = columns.map((c) => `fy.${c} IS DISTINCT FROM q.${c}`).join(' OR ');
  const sums = columns.map((c) => `sum(${c}) AS ${c}`).join(', ');
  return sql(`
    SELECT fy.company_id, fy.period FROM ${table} fy
    JOIN (SELECT company_id, fiscal_year, count(*) AS quarters, ${sums} FROM ${table}
          WHERE fiscal_quarter IS NOT NULL GROUP BY company_id, fiscal_year) q
      ON q.company_id = fy.company_id AND q.fiscal_year = fy.fiscal_year
    WHERE fy.fiscal_quarter IS NULL AND (q.quarters <> 4 OR ${differs})`);
}

describe('seeded demo data (checked in the database)', () => {
  it('covers at least 40 companies in 8 sectors, with non-December years and all-digit tickers', async () => {
    const [summary] = await sql<
      Record<'companies' | 'sectors' | 'non_december' | 'digit_tickers', number>
    >(`SELECT count(*)::int AS companies, count(DISTINCT sector)::int AS sectors,
      count(*) FILTER (WHERE fiscal_year_end <> 12)::int AS non_december,
      count(*) FILTER (WHERE ticker ~ '^[0-9]+$')::int AS digit_tickers FROM companies`);
    expect(summary.companies).to.be.at.least(40);
    expect(summary.sectors).to.be.at.least(8);
    expect(summary.non_december).to.be.at.least(1);
    expect(summary.digit_tickers).to.be.at.least(2);
  });

  it('gives every company at least 12 quarters and 3 fiscal years of all three statements', async () => {
    for (const table of ['income_statements', 'balance_sheets', 'cash_flow_statements']) {
      const short = await sql(`SELECT c.ticker,
          count(s.id) FILTER (WHERE s.fiscal_quarter IS NOT NULL) AS quarters,
          count(s.id) FILTER (WHERE s.fiscal_quarter IS NULL) AS years
        FROM companies c LEFT JOIN ${table} s ON s.company_id = c.id GROUP BY c.ticker
        HAVING count(s.id) FILTER (WHERE s.fiscal_quarter IS NOT NULL) < 12 OR count(s.id) FILTER (WHERE s.fiscal_quarter IS NULL) < 3`);
      expect(short, table).to.deep.equal([]);
    }
  });

  it('balances every balance sheet: total_assets = total_liabilities + total_equity', async () => {
    const unbalanced = await sql(
      'SELECT company_id, period FROM balance_sheets WHERE total_assets IS DISTINCT FROM total_liabilities + total_equity',
    );
    expect(unbalanced).to.deep.equal([]);
    const [{ checked }] = await sql<{ checked: number }>('SELECT count(*)::int AS checked FROM balance_sheets');
    expect(checked).to.be.above(40 * 15);
  });

  it('makes fiscal-year income and cash-flow items the sum of their four quarters', async () => {
    expect(await fiscalYearSumMismatches('income_statements', INCOME_FLOWS)).to.deep.equal([]);
    expect(await fiscalYearSumMismatches('cash_flow_statements', CASH_FLOWS)).to.deep.equal([]);
  });

  it('gives a fiscal year the balance sheet of its fourth quarter', async () => {
    const differing = await sql(`SELECT fy.company_id, fy.period FROM balance_sheets fy
      JOIN balance_sheets q4 ON q4.company_id = fy.company_id AND q4.fiscal_year = fy.fiscal_year AND q4.fiscal_quarter = 4
      WHERE fy.fiscal_quarter IS NULL AND (fy.total_assets IS DISTINCT FROM q4.total_assets
        OR fy.cash_and_equivalents IS DISTINCT FROM q4.cash_and_equivalents OR fy.period_end <> q4.period_end)`);
    expect(differing).to.deep.equal([]);
  });

  it('carries the income-statement net income into the cash flow statement', async () => {
    const differing = await sql(`SELECT i.company_id, i.period FROM income_statements i
      FULL JOIN cash_flow_statements c ON c.company_id = i.company_id AND c.period = i.period
      WHERE i.net_income IS DISTINCT FROM c.net_income`);
    expect(differing).to.deep.equal([]);
  });

  it('makes net_change_in_cash the change in the cash balance since the previous period', async () => {
    const rows = await sql<{ company_id: number; period: string; cash: number; change: number }>(
      `SELECT b.company_id, b.period, b.cash_and_equivalents::float8 AS cash, c.net_change_in_cash::float8 AS change
      FROM balance_sheets b JOIN cash_flow_statements c ON c.company_id = b.company_id AND c.period = b.period`,
    );
    const cash = new Map(rows.map((row) => [`${row.company_id}|${row.period}`, row.cash]));
    let checked = 0;
    for (const row of rows) {
      const previous = cash.get(`${row.company_id}|${previousPeriod(parseExactPeriod(row.period)!).label}`);
      if (previous === undefined) continue; // the oldest period of a company has no opening balance on file
      expect(row.change, `${row.company_id} ${row.period}`).to.equal(row.cash - previous);
      checked += 1;
    }
    expect(checked).to.be.above(rows.length * 0.9);
  });

  it('keeps margins plausible for each sector', async () => {
    const rows = await sql<{
      sector: string;
      min_gross: number;
      max_gross: number;
      max_operating: number;
      min_revenue: number;
    }>(`SELECT c.sector, min(s.gross_profit / s.revenue)::float8 AS min_gross, max(s.gross_profit / s.revenue)::float8 AS max_gross,
        max(s.operating_income / s.revenue)::float8 AS max_operating, min(s.revenue)::float8 AS min_revenue
      FROM income_statements s JOIN companies c ON c.id = s.company_id GROUP BY c.sector`);
    for (const row of rows) {
      expect(row.min_revenue, row.sector).to.be.above(0);
      expect(row.min_gross, row.sector).to.be.at.least(0.03);
      expect(row.max_gross, row.sector).to.be.at.most(0.97);
      expect(row.max_operating, row.sector).to.be.below(row.max_gross);
    }
  });
});
