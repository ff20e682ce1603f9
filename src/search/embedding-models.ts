import type { EntityManager } from 'typeorm';
import type { Logger } from '../shared/logger';
import type { Embedder } from './embedder';
import { giveWayToRequests } from '../db/give-way';
import { chunksWithoutVector, lastChunkId, storeEmbeddings } from './documents.repository';

/**
 * Vectors written per transaction: as many as fit in about WRITE_TARGET_MS, between MIN_ and MAX_BACKFILL_BATCH.
 * Each write also inserts into the model's HNSW index, which costs more the larger the index, and a request of
 * several statements would wait behind one such write per statement. The embedded database has one connection, so the writes are kept short instead.
 */
const MAX_BACKFILL_BATCH = 64;
const MIN_BACKFILL_BATCH = 4;
const WRITE_TARGET_MS = 100;
/** Chunk ids looked at per statement while looking for chunks without a vector. */
const SCAN_IDS = 2_000;

/** Where search and ingestion get the embedder to use now. */
export interface EmbeddingModels {
  /** The model in use, or null when there is none yet (the built-in model needs stored text to be fitted on). */
  current(): Promise<Embedder | null>;
  /**
   * Told after a document is stored, with the model its chunks were embedded with: a corpus-fitted model may refit in
   * the background, and fills in the vectors of chunks embedded with a model replaced meanwhile.
   */
  documentsAdded(embeddedWith?: string | null): void;
  /** Brings the model up to date with the stored corpus now; true when it changed. */
  refitIfStale(): Promise<boolean>;
  /**
   * Runs a bulk load without refitting after every document, then refits once if the corpus outgrew the model;
   * not when `stored` says the load stored nothing.
   */
  bulk<T>(work: () => Promise<T>, stored?: (result: T) => boolean): Promise<T>;
  /** Stops background work; the database can be closed afterwards. */
  close(): Promise<void>;
}

/** A provider's model (OpenAI-compatible): fixed, nothing to fit. */
export class ProviderModel implements EmbeddingModels {
  constructor(private readonly embedder: Embedder) {}

  async current(): Promise<Embedder> {
    return this.embedder;
  }

  documentsAdded(): void {}

  async refitIfStale(): Promise<boolean> {
    return false;
  }

  bulk<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async close(): Promise<void> {}
}

/**
 * Embeds every chunk that has no vector from `embedder`'s model yet: chunks stored before pgvector was installed,
 * before a switch of model, or before a refit. Other models' vectors stay, so switching back loses nothing. Each
 * batch is its own transaction, so other requests get the connection in between; `stop` ends it early.
 */
export async function backfillEmbeddings(
  manager: EntityManager,
  embedder: Embedder,
  logger: Logger,
  stop = () => false,
): Promise<number> {
  let total = 0;
  let batch = MAX_BACKFILL_BATCH;
  // Chunks stored after this point are embedded by their ingestion (or by the next backfill, after a switch).
  const last = await lastChunkId(manager);
  // Read on from the last chunk looked at rather than from the start each time (a scan that grew with the corpus).
  let after = 0;
  while (!stop() && after < last) {
    const through = Math.min(after + SCAN_IDS, last);
    const rows = await chunksWithoutVector(manager, embedder.model, batch, after, through);
    after = rows.length === batch ? rows[rows.length - 1].id : through;
    if (rows.length > 0) {
      const vectors = await embedder.embedDocuments(rows.map((row) => row.text));
      const chunks = rows.map((row) => ({ chunkId: row.id, companyId: row.companyId }));
      const started = Date.now();
      await manager.transaction((inner) => storeEmbeddings(inner, embedder, chunks, vectors));
      const writeMs = Date.now() - started;
      if (writeMs > WRITE_TARGET_MS) batch = Math.max(MIN_BACKFILL_BATCH, Math.floor(batch / 2));
      else if (writeMs < WRITE_TARGET_MS / 2) batch = Math.min(MAX_BACKFILL_BATCH, batch * 2);
      total += rows.length;
    }
    await giveWayToRequests(manager);
  }
  if (total > 0) logger.info('embedded stored chunks for the current model', { model: embedder.model, chunks: total });
  return total;
}
