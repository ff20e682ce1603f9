import type { MigrationInterface, QueryRunner } from 'typeorm';

const PERIOD_COLUMNS = `
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  period varchar(10) NOT NULL CHECK (period ~ '^(Q[1-4]-[0-9]{4}|FY[0-9]{4})$'),
  fiscal_year integer NOT NULL,
  fiscal_quarter integer CHECK (fiscal_quarter BETWEEN 1 AND 4),
  period_start date NOT NULL,
  period_end date NOT NULL CHECK (period_end >= period_start),
  currency varchar(3) NOT NULL`;

function amounts(columns: string[]): string {
  return columns.map((column) => `,\n  ${column} numeric`).join('');
}

const INCOME_COLUMNS = [
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
  'eps_basic',
  'eps_diluted',
  'shares_basic',
  'shares_diluted',
  'depreciation_and_amortization',
  'ebitda',
];
const BALANCE_COLUMNS = [
  'cash_and_equivalents',
  'short_term_investments',
  'receivables',
  'inventory',
  'total_current_assets',
  'ppe_net',
  'goodwill_and_intangibles',
  'total_assets',
  'accounts_payable',
  'short_term_debt',
  'total_current_liabilities',
  'long_term_debt',
  'total_liabilities',
  'retained_earnings',
  'total_equity',
];
const CASH_FLOW_COLUMNS = [
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

/** Companies and the three statements; one row per (company, fiscal period) in each statement table. */
export class CoreSchema1763800000000 implements MigrationInterface {
  name = 'CoreSchema1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS companies (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        ticker varchar(16) NOT NULL,
        sector varchar(64) NOT NULL,
        industry varchar(120),
        exchange varchar(32),
        country varchar(2),
        currency varchar(3) NOT NULL,
        fiscal_year_end smallint NOT NULL CHECK (fiscal_year_end BETWEEN 1 AND 12),
        description text,
        website varchar(300),
        employees integer CHECK (employees >= 0)
      )`);
    await runner.query('CREATE UNIQUE INDEX IF NOT EXISTS companies_ticker_key ON companies (ticker)');
    await runner.query('CREATE INDEX IF NOT EXISTS companies_sector_idx ON companies (lower(sector))');

    const tables: Array<[string, string[]]> = [
      ['income_statements', INCOME_COLUMNS],
      ['balance_sheets', BALANCE_COLUMNS],
      ['cash_flow_statements', CASH_FLOW_COLUMNS],
    ];
    for (const [table, columns] of tables) {
      await runner.query(`CREATE TABLE IF NOT EXISTS ${table} (${PERIOD_COLUMNS}${amounts(columns)}\n)`);
      await runner.query(
        `CREATE UNIQUE INDEX IF NOT EXISTS ${table}_company_period_key ON ${table} (company_id, period)`,
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['cash_flow_statements', 'balance_sheets', 'income_statements', 'companies']) {
      await runner.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
