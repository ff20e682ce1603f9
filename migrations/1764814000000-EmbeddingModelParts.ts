import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The projection of a built-in search model in parts of about a megabyte: written as one value it is tens of
 * megabytes, and the single statement that stored it held the embedded database's one connection for seconds, so
 * searches and ingestions waited through it during a refit. Models stored before keep their projection in
 * `embedding_models.projection`; a model with parts has an empty one there.
 */
export class EmbeddingModelParts1764814000000 implements MigrationInterface {
  name = 'EmbeddingModelParts1764814000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS embedding_model_parts (
        model varchar(200) NOT NULL REFERENCES embedding_models(name) ON DELETE CASCADE,
        part integer NOT NULL CHECK (part >= 0),
        bytes bytea NOT NULL,
        PRIMARY KEY (model, part)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS embedding_model_parts');
  }
}
