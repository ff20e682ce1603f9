import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each chunk's term frequencies in one row (`chunk_term_vectors`: term → frequency, and the chunk's length), beside
 * the postings. A global query scores a few thousand candidate chunks on up to a few dozen terms: one row per
 * candidate instead of one posting look-up per candidate and term (tens of thousands of index probes at 100,000
 * chunks). Ingestion writes the row with the chunk's postings; the triggers that take chunks out of the index take
 * their rows too. Chunks indexed before this migration get their row from their postings here.
 */
export class ChunkTermVectors1764830000000 implements MigrationInterface {
  name = 'ChunkTermVectors1764830000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS chunk_term_vectors (
        chunk_id integer PRIMARY KEY,
        chunk_terms integer NOT NULL,
        frequencies jsonb NOT NULL
      )`);
    await runner.query(`
      INSERT INTO chunk_term_vectors (chunk_id, chunk_terms, frequencies)
      SELECT chunk_id, min(chunk_terms), jsonb_object_agg(term, frequency) FROM chunk_postings GROUP BY chunk_id
      ON CONFLICT (chunk_id) DO NOTHING`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION search_index_forget_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH removed AS (
          DELETE FROM chunk_postings p USING gone g WHERE p.company_id = g.company_id AND p.chunk_id = g.id RETURNING p.term
        ), per_term AS (SELECT term, count(*)::int AS chunks FROM removed GROUP BY term)
        UPDATE search_terms t SET chunks = t.chunks - per_term.chunks FROM per_term WHERE t.term = per_term.term;
        DELETE FROM chunk_term_vectors v USING gone g WHERE v.chunk_id = g.id;
        UPDATE search_corpus_stats
           SET chunks = chunks - (SELECT count(*) FROM gone WHERE term_count IS NOT NULL),
               total_terms = total_terms - (SELECT coalesce(sum(term_count), 0) FROM gone)
         WHERE id = 1;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION search_index_forget_all() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE chunk_postings, chunk_term_vectors, search_terms, search_corpus_stats;
        RETURN NULL;
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
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
    await runner.query('DROP TABLE IF EXISTS chunk_term_vectors');
  }
}
