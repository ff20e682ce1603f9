import type { EntityManager } from 'typeorm';
import type { Logger } from '../shared/logger';
import type { Embedder } from './embedder';
import { chunksWithoutVector, storeEmbeddings } from './documents.repository';

/**
 * Vectors written per transaction. Small, because each write updates the HNSW index and the embedded database has
 * one connection: a larger batch held searches and ingestions up for seconds while a refit re-embedded the corpus.
 */
const BACKFILL_BATCH = 64;

/** Where search and ingestion get the embedder to use now. */
export interface EmbeddingModels {
  /** The model in use, or null when there is none yet (the built-in model needs stored text to be fitted on). */
  current(): Promise<Embedder | null>;
  /** Told after a document is stored: a corpus-fitted model may refit in the background. */
  documentsAdded(): void;
  /** Brings the model up to date with the stored corpus now; true when it changed. */
  refitIfStale(): Promise<boolean>;
  /** Runs a bulk load without refitting after every document, then refits once if the corpus outgrew the model. */
  bulk<T>(work: () => Promise<T>): Promise<T>;
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
  // Read on from the last chunk written rather than from the start each time (a scan that grew with the corpus).
  let after = 0;
  while (!stop()) {
    const rows = await chunksWithoutVector(manager, embedder.model, BACKFILL_BATCH, after);
    if (rows.length === 0) break;
    after = rows[rows.length - 1].id;
    const vectors = await embedder.embedDocuments(rows.map((row) => row.text));
    const chunks = rows.map((row) => ({ chunkId: row.id, companyId: row.companyId }));
    await manager.transaction((inner) => storeEmbeddings(inner, embedder, chunks, vectors));
    total += rows.length;
  }
  if (total > 0) logger.info('embedded stored chunks for the current model', { model: embedder.model, chunks: total });
  return total;
}
