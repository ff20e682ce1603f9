import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The number of companies by sector, kept by triggers as companies come, go or change sector: the total of an
 * unfiltered or sector-filtered company list without counting every company on each request (among ten thousand
 * companies the count cost more than the page itself).
 */
export class CompanyCounts1764960000001 implements MigrationInterface {
  name = 'CompanyCounts1764960000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS company_counts (
        sector_key text PRIMARY KEY,
        companies integer NOT NULL
      )`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION count_companies() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
          UPDATE company_counts SET companies = companies - 1 WHERE sector_key = lower(OLD.sector);
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO company_counts (sector_key, companies) VALUES (lower(NEW.sector), 1)
            ON CONFLICT (sector_key) DO UPDATE SET companies = company_counts.companies + 1;
        END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION empty_company_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM company_counts;
        RETURN NULL;
      END $$`);
    await runner.query('DROP TRIGGER IF EXISTS companies_counted ON companies');
    await runner.query(`CREATE TRIGGER companies_counted AFTER INSERT OR DELETE OR UPDATE OF sector ON companies
      FOR EACH ROW EXECUTE FUNCTION count_companies()`);
    await runner.query('DROP TRIGGER IF EXISTS companies_emptied ON companies');
    await runner.query(`CREATE TRIGGER companies_emptied AFTER TRUNCATE ON companies
      FOR EACH STATEMENT EXECUTE FUNCTION empty_company_counts()`);
    await runner.query('DELETE FROM company_counts');
    await runner.query(
      'INSERT INTO company_counts (sector_key, companies) SELECT lower(sector), count(*) FROM companies GROUP BY 1',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER IF EXISTS companies_emptied ON companies');
    await runner.query('DROP TRIGGER IF EXISTS companies_counted ON companies');
    await runner.query('DROP FUNCTION IF EXISTS empty_company_counts()');
    await runner.query('DROP FUNCTION IF EXISTS count_companies()');
    await runner.query('DROP TABLE IF EXISTS company_counts');
  }
}
