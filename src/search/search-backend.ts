import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { Logger } from '../shared/logger';
import { withStartupLock, type Database } from '../db/database';
import { BuiltinEmbedder } from './builtin-embedder';
import type { Embedder } from './embedder';
import type { SearchBackend } from './ingestion.service';
import { OpenAIEmbedder } from './openai-embedder';
import { ensureModelIndex, storeEmbeddings, supportsIterativeScan } from './vector-schema';

const BACKFILL_BATCH = 256;

/** The configured embedder: the provider's when OPENAI_API_KEY is set, the built-in one otherwise. */
export async function createEmbedder(config: AppConfig): Promise<Embedder> {
  if (!config.openaiApiKey) return new BuiltinEmbedder();
  const embedder = new OpenAIEmbedder({
    apiKey: config.openaiApiKey,
    baseUrl: config.openaiBaseUrl,
    model: config.embeddingModel,
    dimensions: config.embeddingDimensions,
    timeoutMs: config.aiTimeoutMs,
  });
  await embedder.init();
  return embedder;
}

/**
 * Embeds every chunk that has no vector from `embedder`'s model yet: chunks stored before pgvector was installed,
 * or before a switch of model. Other models' vectors stay, so switching back loses nothing.
 */
export async function backfillEmbeddings(manager: EntityManager, embedder: Embedder, logger: Logger): Promise<number> {
  let total = 0;
  for (;;) {
    const rows: Array<{ id: number; company_id: number; content: string }> = await manager.query(
      `SELECT c.id, c.company_id, c.content FROM document_chunks c
        WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id AND e.model = $1)
        ORDER BY c.id LIMIT $2`,
      [embedder.model, BACKFILL_BATCH],
    );
    if (rows.length === 0) break;
    const vectors = await embedder.embedDocuments(rows.map((row) => row.content));
    const chunks = rows.map((row) => ({ chunkId: row.id, companyId: row.company_id }));
    await manager.transaction((inner) => storeEmbeddings(inner, embedder, chunks, vectors));
    total += rows.length;
  }
  if (total > 0) logger.info('embedded stored chunks for the current model', { model: embedder.model, chunks: total });
  return total;
}

/**
 * Makes a model ready for the vector leg: its HNSW index exists and every stored chunk has its vector. Runs under
 * the start-up lock, so instances starting together do it once, and outside any request's transaction.
 */
export async function prepareModel(database: Database, embedder: Embedder, logger: Logger): Promise<number> {
  if (!database.vectorAvailable) return 0;
  return withStartupLock(database, async (runner) => {
    await ensureModelIndex(runner, embedder.model, embedder.dimensions);
    return backfillEmbeddings(runner.manager, embedder, logger);
  });
}

/** The search services for a migrated database: the configured embedder, prepared. */
export async function prepareSearch(database: Database, config: AppConfig, logger: Logger): Promise<SearchBackend> {
  const embedder = await createEmbedder(config);
  await prepareModel(database, embedder, logger);
  return {
    dataSource: database.dataSource,
    embedder,
    vectorAvailable: database.vectorAvailable,
    iterativeScan: supportsIterativeScan(database.vectorVersion),
  };
}
