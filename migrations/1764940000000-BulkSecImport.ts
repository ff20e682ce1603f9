import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk SEC import: the company-facts file each company was last imported from (its fingerprint), so a second run
 * skips what has not changed and a run stopped halfway goes on where it stopped; and the names a filer had before.
 */
export class BulkSecImport1764940000000 implements MigrationInterface {
  name = 'BulkSecImport1764940000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE companies ADD COLUMN IF NOT EXISTS former_names jsonb');
    await runner.query(`
      CREATE TABLE IF NOT EXISTS sec_imported_files (
        cik integer PRIMARY KEY,
        fingerprint varchar(200) NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS sec_imported_files');
    await runner.query('ALTER TABLE companies DROP COLUMN IF EXISTS former_names');
  }
}
