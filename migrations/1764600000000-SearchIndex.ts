import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The BM25 index of the text leg. `chunk_postings` holds one row per (term, chunk) with the term's frequency, the
 * chunk's length and a precomputed impact (BM25's term-frequency part), indexed by impact so the best chunks for a
 * term are read first and a global query reads a bounded number of postings. `search_terms` (chunks per term) and
 * `search_corpus_stats` (chunks, total length) are the collection statistics; ingestion maintains all three in the
 * transaction that stores the chunks. A chunk's context line (company, form, period, section) is indexed and embedded
 * with it. Chunks stored before this migration have no `term_count` yet and are indexed at the next start.
 */
export class SearchIndex1764600000000 implements MigrationInterface {
  name = 'SearchIndex1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS section varchar(300)');
    await runner.query('ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS context varchar(1000)');
    await runner.query('ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS term_count integer');
    await runner.query(
      `CREATE INDEX IF NOT EXISTS document_chunks_unindexed_idx ON document_chunks (document_id) WHERE term_count IS NULL`,
    );
    await runner.query(`
      CREATE TABLE IF NOT EXISTS search_terms (
        term varchar(100) PRIMARY KEY,
        chunks integer NOT NULL CHECK (chunks >= 0)
      )`);
    await runner.query(`
      CREATE TABLE IF NOT EXISTS search_corpus_stats (
        id integer PRIMARY KEY CHECK (id = 1),
        chunks bigint NOT NULL,
        total_terms bigint NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE IF NOT EXISTS chunk_postings (
        term varchar(100) NOT NULL,
        chunk_id integer NOT NULL,
        company_id integer NOT NULL,
        frequency smallint NOT NULL,
        chunk_terms integer NOT NULL,
        impact real NOT NULL,
        PRIMARY KEY (company_id, term, chunk_id)
      )`);
    // The key serves a company's postings of a term and exact look-ups of (company, term, chunk); this index serves
    // the best postings of a term across all companies.
    await runner.query('CREATE INDEX IF NOT EXISTS chunk_postings_impact_idx ON chunk_postings (term, impact DESC)');
    // Chunks leave the index with them however they go: deleted (a company or document removed, by cascade) or
    // truncated (the demo seed starts over). Triggers rather than a foreign key: a key would cost a look-up per
    // posting on every ingestion.
    await runner.query(`
      CREATE OR REPLACE FUNCTION search_index_forget_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH removed AS (
          DELETE FROM chunk_postings p USING gone g WHERE p.company_id = g.company_id AND p.chunk_id = g.id RETURNING p.term
        ), per_term AS (SELECT term, count(*)::int AS chunks FROM removed GROUP BY term)
        UPDATE search_terms t SET chunks = t.chunks - per_term.chunks FROM per_term WHERE t.term = per_term.term;
        UPDATE search_corpus_stats
           SET chunks = chunks - (SELECT count(*) FROM gone WHERE term_count IS NOT NULL),
               total_terms = total_terms - (SELECT coalesce(sum(term_count), 0) FROM gone)
         WHERE id = 1;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION search_index_forget_all() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE chunk_postings, search_terms, search_corpus_stats;
        RETURN NULL;
      END $$`);
    await runner.query('DROP TRIGGER IF EXISTS document_chunks_leave_search_index ON document_chunks');
    await runner.query(`CREATE TRIGGER document_chunks_leave_search_index AFTER DELETE ON document_chunks
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION search_index_forget_chunks()`);
    await runner.query('DROP TRIGGER IF EXISTS document_chunks_empty_search_index ON document_chunks');
    await runner.query(`CREATE TRIGGER document_chunks_empty_search_index AFTER TRUNCATE ON document_chunks
      FOR EACH STATEMENT EXECUTE FUNCTION search_index_forget_all()`);
    // The text leg no longer reads PostgreSQL's own full-text vector: dropping it saves its upkeep on every insert.
    await runner.query('DROP INDEX IF EXISTS document_chunks_search_idx');
    await runner.query('ALTER TABLE document_chunks DROP COLUMN IF EXISTS search_vector');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER IF EXISTS document_chunks_empty_search_index ON document_chunks');
    await runner.query('DROP TRIGGER IF EXISTS document_chunks_leave_search_index ON document_chunks');
    await runner.query('DROP FUNCTION IF EXISTS search_index_forget_all()');
    await runner.query('DROP FUNCTION IF EXISTS search_index_forget_chunks()');
    await runner.query(
      `ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED`,
    );
    await runner.query(
      'CREATE INDEX IF NOT EXISTS document_chunks_search_idx ON document_chunks USING gin (search_vector)',
    );
    await runner.query('DROP TABLE IF EXISTS chunk_postings');
    await runner.query('DROP TABLE IF EXISTS search_corpus_stats');
    await runner.query('DROP TABLE IF EXISTS search_terms');
    await runner.query('DROP INDEX IF EXISTS document_chunks_unindexed_idx');
    await runner.query('ALTER TABLE document_chunks DROP COLUMN IF EXISTS term_count');
    await runner.query('ALTER TABLE document_chunks DROP COLUMN IF EXISTS context');
    await runner.query('ALTER TABLE document_chunks DROP COLUMN IF EXISTS section');
  }
}
