import type { EntityManager, QueryRunner } from 'typeorm';
import { toVectorLiteral, type Embedder } from './embedder';

const ROWS_PER_INSERT = 500;

/**
 * The pgvector side of search, created at every start when the server has the extension (idempotent): one table for
 * the embeddings of every model, and one HNSW index per model and dimension count as a partial expression index, so
 * models of different sizes coexist and switching models loses nothing.
 * Returns whether the vector leg can run.
 */
export async function ensureVectorSchema(runner: QueryRunner): Promise<boolean> {
  const [{ available }] = await runner.query(`SELECT count(*)::int AS available FROM pg_available_extensions WHERE name = 'vector'`);
  if (available === 0) return false;
  await runner.query('CREATE EXTENSION IF NOT EXISTS vector');
  await runner.query(`
    CREATE TABLE IF NOT EXISTS chunk_embeddings (
      chunk_id integer NOT NULL REFERENCES document_chunks(id) ON DELETE CASCADE,
      model varchar(200) NOT NULL,
      company_id integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (chunk_id, model)
    )`);
  await runner.query('CREATE INDEX IF NOT EXISTS chunk_embeddings_model_company_idx ON chunk_embeddings (model, company_id)');
  return true;
}

/** Index name for a model: letters, digits and underscores only, bounded length, unique per model and size. */
export function vectorIndexName(model: string, dimensions: number): string {
  const slug = model.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 40);
  let hash = 0;
  for (const char of model) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return `chunk_embeddings_${slug}_${dimensions}_${hash.toString(36)}_hnsw`;
}

/** The HNSW index of one model (cosine distance), created the first time the model is used. */
export async function ensureModelIndex(runner: QueryRunner, model: string, dimensions: number): Promise<void> {
  const literal = model.replace(/'/g, "''");
  await runner.query(
    `CREATE INDEX IF NOT EXISTS ${vectorIndexName(model, dimensions)} ON chunk_embeddings
       USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE model = '${literal}'`,
  );
}

/** Writes vectors of `embedder`'s model for chunks (same order); creates the model's index on first use. */
export async function storeEmbeddings(
  manager: EntityManager,
  embedder: Embedder,
  chunks: Array<{ chunkId: number; companyId: number }>,
  vectors: number[][],
): Promise<void> {
  await ensureModelIndex(manager.queryRunner as QueryRunner, embedder.model, embedder.dimensions);
  for (let start = 0; start < chunks.length; start += ROWS_PER_INSERT) {
    const slice = chunks.slice(start, start + ROWS_PER_INSERT);
    await manager.query(
      `INSERT INTO chunk_embeddings (chunk_id, model, company_id, embedding)
       SELECT chunk_id, $1, company_id, embedding::vector
         FROM unnest($2::int[], $3::int[], $4::text[]) AS t(chunk_id, company_id, embedding)
       ON CONFLICT DO NOTHING`,
      [embedder.model, slice.map((c) => c.chunkId), slice.map((c) => c.companyId), vectors.slice(start, start + ROWS_PER_INSERT).map(toVectorLiteral)],
    );
  }
}
