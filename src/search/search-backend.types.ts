import type { DataSource } from 'typeorm';
import type { OneAtATime } from '../shared/one-at-a-time';
import type { EmbeddingModels } from './embedding-models';

/** What storing and searching documents need: the database, the embedding models and what the database supports. */
export interface SearchBackend {
  dataSource: DataSource;
  /** The embedding model in use; the built-in one is refitted as the corpus grows. */
  models: EmbeddingModels;
  /** Whether pgvector is installed: without it documents are stored and searched by full text only. */
  vectorAvailable: boolean;
  /** Whether pgvector can filter inside the index scan (0.8+); older versions filter after it. */
  iterativeScan: boolean;
  /**
   * On the embedded database, whose one session every request shares: documents are stored one at a time, each in
   * transactions of CHUNKS_PER_TRANSACTION chunks with waiting requests served between them. Absent on a server,
   * where one transaction per document keeps no reader waiting.
   */
  ingestionTurns?: OneAtATime;
}
