import type { MigrationInterface, QueryRunner } from 'typeorm';

const STATEMENT_TABLES = ['income_statements', 'balance_sheets', 'cash_flow_statements'];

/**
 * The ratios of every stored period that has an income statement (the periods a screen reads), so a screen filters
 * and sorts them in SQL rather than computing them for every company on each request (among ten thousand companies
 * that took about a second). They are computed by the same definitions as the ratios read, and stored as an array
 * in the order `stored_ratio_layout` names (a quarter of the size of keyed JSON, and read by position); `newest`
 * marks each company's newest fiscal year and newest quarter, which screen without a named period. A company whose
 * statements change is queued by statement-level triggers, and its ratios are computed again before any screen reads
 * them, so they never go stale whatever writes the statements.
 */
export class StoredRatios1764960000003 implements MigrationInterface {
  name = 'StoredRatios1764960000003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS statement_ratios (
        company_id integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        period text NOT NULL,
        ratios float8[] NOT NULL,
        newest boolean NOT NULL DEFAULT false,
        PRIMARY KEY (company_id, period)
      )`);
    await runner.query('CREATE INDEX IF NOT EXISTS statement_ratios_by_period ON statement_ratios (period)');
    await runner.query('CREATE INDEX IF NOT EXISTS statement_ratios_newest ON statement_ratios (period) WHERE newest');
    await runner.query(`
      CREATE TABLE IF NOT EXISTS stored_ratio_layout (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        keys text[] NOT NULL
      )`);
    // No foreign key: a company's statements are deleted with it, and the queue may name it in that same statement.
    await runner.query('CREATE TABLE IF NOT EXISTS ratio_refresh_queue (company_id integer PRIMARY KEY)');
    await runner.query(`
      CREATE OR REPLACE FUNCTION queue_ratio_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ratio_refresh_queue (company_id) SELECT DISTINCT company_id FROM changed_rows
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION queue_every_ratio_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ratio_refresh_queue (company_id) SELECT id FROM companies ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    for (const table of STATEMENT_TABLES) {
      // A trigger with transition tables takes one event, so one trigger per event.
      for (const [event, rows] of [
        ['INSERT', 'NEW'],
        ['UPDATE', 'NEW'],
        ['DELETE', 'OLD'],
      ]) {
        const trigger = `${table}_ratios_${event.toLowerCase()}`;
        await runner.query(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
        await runner.query(`CREATE TRIGGER ${trigger} AFTER ${event} ON ${table}
          REFERENCING ${rows} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION queue_ratio_refresh()`);
      }
      await runner.query(`DROP TRIGGER IF EXISTS ${table}_ratios_truncate ON ${table}`);
      await runner.query(`CREATE TRIGGER ${table}_ratios_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION queue_every_ratio_refresh()`);
    }
    await runner.query('INSERT INTO ratio_refresh_queue (company_id) SELECT id FROM companies ON CONFLICT DO NOTHING');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of STATEMENT_TABLES)
      for (const event of ['insert', 'update', 'delete', 'truncate'])
        await runner.query(`DROP TRIGGER IF EXISTS ${table}_ratios_${event} ON ${table}`);
    await runner.query('DROP FUNCTION IF EXISTS queue_every_ratio_refresh()');
    await runner.query('DROP FUNCTION IF EXISTS queue_ratio_refresh()');
    await runner.query('DROP TABLE IF EXISTS ratio_refresh_queue');
    await runner.query('DROP TABLE IF EXISTS stored_ratio_layout');
    await runner.query('DROP TABLE IF EXISTS statement_ratios');
  }
}
