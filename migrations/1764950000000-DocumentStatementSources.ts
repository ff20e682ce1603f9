import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A statement value may come from a stored document's statement tables instead of XBRL facts: its source then names
 * the document and page (and has no accession number). What a document shows for a statement XBRL facts made is kept
 * beside it, to flag a disagreement.
 */
export class DocumentStatementSources1764950000000 implements MigrationInterface {
  name = 'DocumentStatementSources1764950000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE statement_value_sources
        ADD COLUMN IF NOT EXISTS document_id integer REFERENCES documents(id) ON DELETE CASCADE,
        ADD COLUMN IF NOT EXISTS page integer,
        ALTER COLUMN accession DROP NOT NULL`);
    await runner.query(
      'CREATE INDEX IF NOT EXISTS statement_value_sources_document ON statement_value_sources (document_id) WHERE document_id IS NOT NULL',
    );
    await runner.query(`
      CREATE TABLE IF NOT EXISTS statement_filed_values (
        company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        statement varchar(16) NOT NULL CHECK (statement IN ('income', 'balance', 'cashFlow')),
        period varchar(10) NOT NULL,
        field varchar(64) NOT NULL,
        value numeric NOT NULL,
        document_id integer NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page integer,
        label varchar(300) NOT NULL,
        PRIMARY KEY (company_id, statement, period, field)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS statement_filed_values');
    await runner.query('DELETE FROM statement_value_sources WHERE accession IS NULL');
    await runner.query('DROP INDEX IF EXISTS statement_value_sources_document');
    await runner.query(
      'ALTER TABLE statement_value_sources DROP COLUMN IF EXISTS document_id, DROP COLUMN IF EXISTS page, ALTER COLUMN accession SET NOT NULL',
    );
  }
}
