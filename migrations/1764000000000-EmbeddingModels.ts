import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Corpus-fitted embedding models (the built-in LSA embedder): vocabulary, IDF weights and projection, kept in the
 * database so every instance embeds with the same model and a restart does not refit. A model is used once
 * `ready_at` is set, i.e. once every stored chunk has its vector.
 */
export class EmbeddingModels1764000000000 implements MigrationInterface {
  name = 'EmbeddingModels1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS embedding_models (
        name varchar(200) PRIMARY KEY,
        dimensions integer NOT NULL CHECK (dimensions > 0),
        rank integer NOT NULL,
        fitted_chunks integer NOT NULL,
        corpus_chunks integer NOT NULL,
        terms text[] NOT NULL,
        idf bytea NOT NULL,
        projection bytea NOT NULL,
        fitted_at timestamptz NOT NULL DEFAULT now(),
        ready_at timestamptz
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS embedding_models');
  }
}
