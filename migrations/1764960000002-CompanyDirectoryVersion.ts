import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A number that changes whenever the company directory may have (a company or an income statement written): the
 * directory of names and sizes that questions and searches match names against is read again only then, not for
 * every question (among ten thousand companies a read cost about 100 ms). Statement-level triggers, so a bulk write
 * bumps it once.
 */
export class CompanyDirectoryVersion1764960000002 implements MigrationInterface {
  name = 'CompanyDirectoryVersion1764960000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS company_directory_version (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        version bigint NOT NULL
      )`);
    await runner.query('INSERT INTO company_directory_version (one, version) VALUES (true, 0) ON CONFLICT DO NOTHING');
    await runner.query(`
      CREATE OR REPLACE FUNCTION bump_company_directory_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE company_directory_version SET version = version + 1;
        RETURN NULL;
      END $$`);
    for (const table of ['companies', 'income_statements']) {
      await runner.query(`DROP TRIGGER IF EXISTS ${table}_directory_changed ON ${table}`);
      await runner.query(`CREATE TRIGGER ${table}_directory_changed
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_company_directory_version()`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['companies', 'income_statements'])
      await runner.query(`DROP TRIGGER IF EXISTS ${table}_directory_changed ON ${table}`);
    await runner.query('DROP FUNCTION IF EXISTS bump_company_directory_version()');
    await runner.query('DROP TABLE IF EXISTS company_directory_version');
  }
}
