import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imported (SEC) data: companies get their CIK, and every imported statement value records where it came from:
 * the us-gaap concept, the filing (accession, form, filed date), and whether it was derived or restated.
 */
export class SecImport1764300000000 implements MigrationInterface {
  name = 'SecImport1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE companies ADD COLUMN IF NOT EXISTS cik integer');
    await runner.query('CREATE UNIQUE INDEX IF NOT EXISTS companies_cik_key ON companies (cik) WHERE cik IS NOT NULL');
    await runner.query(`
      CREATE TABLE IF NOT EXISTS statement_value_sources (
        company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        statement varchar(16) NOT NULL CHECK (statement IN ('income', 'balance', 'cashFlow')),
        period varchar(10) NOT NULL,
        field varchar(64) NOT NULL,
        value numeric NOT NULL,
        reported_value numeric NOT NULL,
        concept varchar(300) NOT NULL,
        accession varchar(32) NOT NULL,
        form varchar(16) NOT NULL,
        filed date NOT NULL,
        derived boolean NOT NULL,
        restated boolean NOT NULL,
        PRIMARY KEY (company_id, statement, period, field)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS statement_value_sources');
    await runner.query('DROP INDEX IF EXISTS companies_cik_key');
    await runner.query('ALTER TABLE companies DROP COLUMN IF EXISTS cik');
  }
}
