import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Figures a document states (table rows and figure-stating sentences), read at ingestion and stored with the chunk
 * they were read from: they leave with their chunk, so a document removed or stored anew takes its figures with it.
 */
export class DocumentFacts1764910000010 implements MigrationInterface {
  name = 'DocumentFacts1764910000010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS document_facts (
        id bigserial PRIMARY KEY,
        document_id integer NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        chunk_id integer NOT NULL REFERENCES document_chunks(id) ON DELETE CASCADE,
        company_id integer NOT NULL,
        period varchar(10) NOT NULL,
        label varchar(200) NOT NULL,
        context varchar(300) NOT NULL DEFAULT '',
        value double precision NOT NULL,
        scale varchar(10) NOT NULL,
        unit varchar(10) NOT NULL,
        kind varchar(10) NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX IF NOT EXISTS document_facts_company_period ON document_facts (company_id, period)',
    );
    await runner.query('CREATE INDEX IF NOT EXISTS document_facts_chunk ON document_facts (chunk_id)');
    await runner.query('CREATE INDEX IF NOT EXISTS document_facts_document ON document_facts (document_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS document_facts');
  }
}
