import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the company list among thousands of companies: the list's order (name, then id), so a page reads its
 * rows from the index instead of sorting every company; and tickers in any case, as `company(ticker:)` looks them up.
 */
export class CompanyListIndexes1764960000000 implements MigrationInterface {
  name = 'CompanyListIndexes1764960000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX IF NOT EXISTS companies_name_order ON companies (name, id)');
    await runner.query('CREATE INDEX IF NOT EXISTS companies_upper_ticker ON companies (upper(ticker))');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX IF EXISTS companies_upper_ticker');
    await runner.query('DROP INDEX IF EXISTS companies_name_order');
  }
}
