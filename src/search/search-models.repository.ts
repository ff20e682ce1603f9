import type { EntityManager } from 'typeorm';
import type { LsaModel } from './lsa';
import { giveWayToRequests } from '../db/give-way';
import { vectorIndexName } from '../db/vector-schema';

/** SQL of the built-in search models: the fitted models, their vectors, and the lease of the instance refitting. */

const DELETE_BATCH = 2_000;

export interface ModelSummary {
  name: string;
  corpus_chunks: number;
}

function toBytes(values: Float32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

function fromBytes(bytes: Buffer): Float32Array<ArrayBuffer> {
  // Copy: a Buffer from the driver may not be 4-byte aligned within its pool.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

/** The newest ready model whose name starts with `prefix`. */
export async function activeModel(manager: EntityManager, prefix: string): Promise<ModelSummary | undefined> {
  const [active]: ModelSummary[] = await manager.query(
    `SELECT name, corpus_chunks FROM embedding_models WHERE ready_at IS NOT NULL AND name LIKE $1 ORDER BY ready_at DESC, name LIMIT 1`,
    [`${prefix}%`],
  );
  return active;
}

export async function loadModel(manager: EntityManager, name: string): Promise<LsaModel | null> {
  const [row]: Array<{
    dimensions: number;
    rank: number;
    fitted_chunks: number;
    terms: string[];
    idf: Buffer;
    projection: Buffer;
  }> = await manager.query(
    'SELECT dimensions, rank, fitted_chunks, terms, idf, projection FROM embedding_models WHERE name = $1',
    [name],
  );
  if (!row) return null;
  const parts: Array<{ bytes: Buffer }> = await manager.query(
    'SELECT bytes FROM embedding_model_parts WHERE model = $1 ORDER BY part',
    [name],
  );
  const projection = parts.length > 0 ? Buffer.concat(parts.map((part) => part.bytes)) : row.projection;
  return {
    terms: row.terms,
    idf: fromBytes(row.idf),
    projection: fromBytes(projection),
    dimensions: row.dimensions,
    rank: row.rank,
    documents: row.fitted_chunks,
  };
}

/** Bytes of projection per statement: each write holds the connection briefly (a pool of one is shared with requests). */
const PART_BYTES = 1 << 20;

/**
 * Stores a fitted model, not ready yet (its vectors are still to be written): the row, then its projection in parts
 * of PART_BYTES, one statement each. A model is only used once ready, so it is never read half-written.
 */
export async function saveModel(
  manager: EntityManager,
  name: string,
  fitted: LsaModel,
  corpusChunks: number,
): Promise<void> {
  const [created]: unknown[] = await manager.query(
    `INSERT INTO embedding_models (name, dimensions, rank, fitted_chunks, corpus_chunks, terms, idf, projection)
     VALUES ($1, $2, $3, $4, $5, $6, $7, '\\x'::bytea) ON CONFLICT (name) DO NOTHING RETURNING name`,
    [name, fitted.dimensions, fitted.rank, fitted.documents, corpusChunks, fitted.terms, toBytes(fitted.idf)],
  );
  if (!created) return;
  const projection = toBytes(fitted.projection);
  for (let part = 0; part * PART_BYTES < projection.byteLength; part += 1) {
    await manager.query('INSERT INTO embedding_model_parts (model, part, bytes) VALUES ($1, $2, $3)', [
      name,
      part,
      projection.subarray(part * PART_BYTES, (part + 1) * PART_BYTES),
    ]);
    await giveWayToRequests(manager);
  }
}

/** The corpus size a model stands for, when a refit of a grown corpus found the same model again. */
export async function recordCorpusChunks(manager: EntityManager, name: string, corpusChunks: number): Promise<void> {
  await manager.query('UPDATE embedding_models SET corpus_chunks = $2 WHERE name = $1', [name, corpusChunks]);
}

export async function markReady(manager: EntityManager, name: string): Promise<void> {
  await manager.query('UPDATE embedding_models SET ready_at = now() WHERE name = $1', [name]);
}

/** Models of `prefix` other than `keep`; with `unfinished`, only those never made ready. */
export function otherModels(
  manager: EntityManager,
  prefix: string,
  keep: string | null,
  { unfinished = false } = {},
): Promise<Array<{ name: string; dimensions: number }>> {
  return manager.query(
    `SELECT name, dimensions FROM embedding_models WHERE name LIKE $1 AND ($2::text IS NULL OR name <> $2)${unfinished ? ' AND ready_at IS NULL' : ''}`,
    [`${prefix}%`, keep],
  );
}

/**
 * Drops a model: its index first (so writes stop maintaining it), then its vectors in batches (each a short
 * statement, giving way to requests in between, so searches and ingestions are not held up behind one long delete),
 * then its row.
 */
export async function dropModel(manager: EntityManager, model: { name: string; dimensions: number }): Promise<void> {
  await manager.query(`DROP INDEX IF EXISTS ${vectorIndexName(model.name, model.dimensions)}`);
  for (;;) {
    // TypeORM answers an UPDATE or DELETE with [rows, affected].
    const [, deleted]: [unknown[], number] = await manager.query(
      'DELETE FROM chunk_embeddings WHERE model = $1 AND chunk_id IN (SELECT chunk_id FROM chunk_embeddings WHERE model = $1 LIMIT $2)',
      [model.name, DELETE_BATCH],
    );
    if (deleted < DELETE_BATCH) break;
    await giveWayToRequests(manager);
  }
  await manager.query('DELETE FROM embedding_models WHERE name = $1', [model.name]);
}

/**
 * Takes the refit lease for `seconds` when it is free, expired, or already this holder's; true if taken. The holder
 * renews it while it works (a heartbeat), so a holder that dies loses it within `seconds`.
 */
export async function takeLease(manager: EntityManager, holder: string, seconds: number): Promise<boolean> {
  const acquired: unknown[] = await manager.query(
    `INSERT INTO search_refit_lease (id, holder, expires_at) VALUES (1, $1, now() + make_interval(secs => $2))
     ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE search_refit_lease.expires_at < now() OR search_refit_lease.holder = EXCLUDED.holder
     RETURNING holder`,
    [holder, seconds],
  );
  return acquired.length > 0;
}

/** Extends the lease; false when this holder no longer has it. */
export async function renewLease(manager: EntityManager, holder: string, seconds: number): Promise<boolean> {
  const [, renewed]: [unknown[], number] = await manager.query(
    'UPDATE search_refit_lease SET expires_at = now() + make_interval(secs => $2) WHERE holder = $1',
    [holder, seconds],
  );
  return renewed > 0;
}

export async function releaseLease(manager: EntityManager, holder: string): Promise<void> {
  await manager.query('DELETE FROM search_refit_lease WHERE holder = $1', [holder]);
}
