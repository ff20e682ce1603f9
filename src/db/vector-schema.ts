import type { QueryRunner } from 'typeorm';

/**
 * The pgvector side of search, created at every start when the server has the extension (idempotent): one table for
 * the embeddings of every model, and one HNSW index per model and dimension count as a partial expression index, so
 * models of different sizes coexist and switching models loses nothing.
 * Returns the installed pgvector version, or null when the server has no pgvector (no vector leg).
 */
export async function ensureVectorSchema(runner: QueryRunner): Promise<string | null> {
  const [{ available }] = await runner.query(
    `SELECT count(*)::int AS available FROM pg_available_extensions WHERE name = 'vector'`,
  );
  if (available === 0) return null;
  await runner.query('CREATE EXTENSION IF NOT EXISTS vector');
  await runner.query(`
    CREATE TABLE IF NOT EXISTS chunk_embeddings (
      chunk_id integer NOT NULL REFERENCES document_chunks(id) ON DELETE CASCADE,
      model varchar(200) NOT NULL,
      company_id integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (chunk_id, model)
    )`);
  await runner.query(
    'CREATE INDEX IF NOT EXISTS chunk_embeddings_model_company_idx ON chunk_embeddings (model, company_id)',
  );
  const [{ version }] = await runner.query(`SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`);
  return version;
}

/** pgvector 0.8 added iterative index scans, which keep filtered nearest-neighbour searches from coming back short. */
export function supportsIterativeScan(version: string | null): boolean {
  if (!version) return false;
  const [major, minor] = version.split('.').map(Number);
  return major > 0 || minor >= 8;
}

/** Index name for a model: letters, digits and underscores only, bounded length, unique per model and size. */
export function vectorIndexName(model: string, dimensions: number): string {
  const slug = model
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 40);
  let hash = 0;
  for (const char of model) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return `chunk_embeddings_${slug}_${dimensions}_${hash.toString(36)}_hnsw`;
}

const MODEL_NAME = /^[A-Za-z0-9._:/@-]{1,200}$/;

/**
 * The HNSW index of one model (cosine distance). Run at start-up under the start-up lock, never inside an ingestion
 * transaction: CREATE INDEX takes a lock on the table that concurrent ingestions would deadlock on.
 */
export async function ensureModelIndex(runner: QueryRunner, model: string, dimensions: number): Promise<void> {
  // DDL takes no bind parameters; the name is checked instead (it comes from configuration, not from requests).
  if (!MODEL_NAME.test(model) || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_000) {
    throw new Error(`unusable embedding model name or size: ${JSON.stringify(model)} (${dimensions})`);
  }
  const literal = model;
  await runner.query(
    `CREATE INDEX IF NOT EXISTS ${vectorIndexName(model, dimensions)} ON chunk_embeddings
       USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE model = '${literal}'`,
  );
}
