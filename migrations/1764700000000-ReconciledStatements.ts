import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Balance sheets that reconcile: non-controlling interest, temporary (mezzanine) equity and total liabilities and
 * equity, restricted cash as its own line (the cash-flow statement rolls cash and restricted cash forward together),
 * and the lines total debt is built from.
 */
const BALANCE_COLUMNS = [
  'restricted_cash',
  'short_term_borrowings',
  'commercial_paper',
  'current_portion_of_long_term_debt',
  'total_debt',
  'non_controlling_interest',
  'temporary_equity',
  'total_liabilities_and_equity',
];

export class ReconciledStatements1764700000000 implements MigrationInterface {
  name = 'ReconciledStatements1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const column of BALANCE_COLUMNS)
      await runner.query(`ALTER TABLE balance_sheets ADD COLUMN IF NOT EXISTS ${column} numeric`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const column of BALANCE_COLUMNS)
      await runner.query(`ALTER TABLE balance_sheets DROP COLUMN IF EXISTS ${column}`);
  }
}
