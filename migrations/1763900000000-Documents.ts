import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents and their chunks with a full-text vector. The embeddings table needs pgvector and is created by
 * `ensureVectorSchema` at every start instead (a server that gains the extension later gets it at its next start).
 */
export class Documents1763900000000 implements MigrationInterface {
  name = 'Documents1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS documents (
        id serial PRIMARY KEY,
        company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        title varchar(300) NOT NULL,
        doc_type varchar(40) NOT NULL,
        period varchar(10) CHECK (period ~ '^(Q[1-4]-[0-9]{4}|FY[0-9]{4})$'),
        published_at timestamptz,
        source_url varchar(2000),
        content_hash char(64) NOT NULL,
        chunk_count integer NOT NULL,
        char_count integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The same text for the same company is one document: ingestion finds it here instead of storing it twice.
    await runner.query(
      'CREATE UNIQUE INDEX IF NOT EXISTS documents_company_content_key ON documents (company_id, content_hash)',
    );
    await runner.query(`
      CREATE TABLE IF NOT EXISTS document_chunks (
        id serial PRIMARY KEY,
        document_id integer NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        ordinal integer NOT NULL CHECK (ordinal >= 0),
        content text NOT NULL,
        search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        UNIQUE (document_id, ordinal)
      )`);
    await runner.query(
      'CREATE INDEX IF NOT EXISTS document_chunks_search_idx ON document_chunks USING gin (search_vector)',
    );
    await runner.query('CREATE INDEX IF NOT EXISTS document_chunks_company_idx ON document_chunks (company_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS chunk_embeddings');
    await runner.query('DROP TABLE IF EXISTS document_chunks');
    await runner.query('DROP TABLE IF EXISTS documents');
  }
}
