import type { AppConfig } from '../config/config';
import type { Logger } from '../shared/logger';
import { withStartupLock, type Database } from '../db/database';
import { CorpusModel } from './corpus-model';
import { DEFAULT_LSA_OPTIONS } from './lsa';
import type { Embedder } from './embedder';
import { backfillEmbeddings, ProviderModel, type EmbeddingModels } from './embedding-models';
import { indexStoredChunks, removeUnfinishedDocuments } from './ingestion.service';
import type { SearchBackend } from './search-backend.types';
import { OneAtATime } from '../shared/one-at-a-time';
import { OpenAIEmbedder } from './openai-embedder';
import { warmSearchIndex } from './search-warmup.repository';
import { ensureModelIndex, supportsIterativeScan } from '../db/vector-schema';

/** The provider's embedder when OPENAI_API_KEY is set; null means the built-in, corpus-fitted model. */
export async function createProviderEmbedder(config: AppConfig): Promise<Embedder | null> {
  if (!config.openaiApiKey) return null;
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

/**
 * The search services for a migrated database. With the built-in model, a corpus that has text but no model yet is
 * fitted now (once); a model that the corpus has outgrown is refitted in the background. On the embedded database,
 * the text index's term vectors are read into its page cache (bounded, see search-warmup.repository).
 */
export async function prepareSearch(
  database: Database,
  config: AppConfig,
  logger: Logger,
  { backgroundRefit = true }: { backgroundRefit?: boolean } = {},
): Promise<SearchBackend> {
  const removed = await removeUnfinishedDocuments(database.dataSource);
  if (removed > 0) logger.warn('removed documents whose ingestion was interrupted', { documents: removed });
  const indexed = await withStartupLock(database, (runner) => indexStoredChunks(runner.manager));
  if (indexed > 0) logger.info('indexed stored chunks for BM25 search', { chunks: indexed });
  const provider = await createProviderEmbedder(config);
  const models: EmbeddingModels = provider
    ? new ProviderModel(provider)
    : new CorpusModel(database, logger, { backgroundRefit, lsa: DEFAULT_LSA_OPTIONS });
  if (database.vectorAvailable) {
    const embedder = await models.current();
    if (embedder) {
      await prepareModel(database, embedder, logger);
      models.documentsAdded(embedder.model);
    } else {
      // Without a model the vector leg returns nothing; a failed fit must not keep the service from starting.
      await models
        .refitIfStale()
        .catch((error: unknown) =>
          logger.error('fitting the search model failed', { error: (error as Error).message }),
        );
    }
  }
  // The embedded database's page cache is empty at every start; a server keeps its own across restarts of the service.
  if (database.kind === 'embedded') await warmSearchIndex(database.dataSource.manager, logger);
  return {
    dataSource: database.dataSource,
    models,
    vectorAvailable: database.vectorAvailable,
    iterativeScan: supportsIterativeScan(database.vectorVersion),
    ingestionTurns: database.kind === 'embedded' ? new OneAtATime() : undefined,
  };
}
