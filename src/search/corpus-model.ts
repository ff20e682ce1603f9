import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database } from '../db/database';
import type { Logger } from '../shared/logger';
import type { Embedder } from './embedder';
import { DEFAULT_LSA_OPTIONS, LsaProjector, type LsaModel, type LsaOptions } from './lsa';
import { backfillEmbeddings, type EmbeddingModels } from './embedding-models';
import { ensureModelIndex, vectorIndexName } from './vector-schema';

export const LSA_MODEL_PREFIX = 'builtin-lsa-v1/';
/** Refit once the corpus has grown (or shrunk) by this factor since the model in use was fitted. */
const REFIT_FACTOR = 1.25;
/** A fit reads at most this many chunks (an even sample of a larger corpus); fitting time grows with it. */
const MAX_FIT_CHUNKS = 100_000;
const READ_BATCH = 5_000;
/** How often an instance looks for a model another instance has switched to. */
const ACTIVE_CHECK_MS = 1_000;
/** How long a refit lease lasts without renewal (renewed between batches of a long refit). */
const LEASE_MINUTES = 10;

/** The built-in embedder with a fitted model: fold-in of new text into the model's latent space. */
export class LsaEmbedder implements Embedder {
  readonly dimensions: number;
  private readonly projector: LsaProjector;

  constructor(readonly model: string, fitted: LsaModel) {
    this.dimensions = fitted.dimensions;
    this.projector = new LsaProjector(fitted);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (const [i, text] of texts.entries()) {
      // A large document is thousands of chunks: give other requests a turn now and then.
      if (i > 0 && i % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      vectors.push(this.projector.embed(text));
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.projector.embed(text);
  }
}

/** A stable name for a fit: the same corpus gives the same model and the same name. */
function modelName(model: LsaModel): string {
  const hash = createHash('sha256');
  hash.update(model.terms.join('\n'));
  hash.update(new Uint8Array(model.projection.buffer, model.projection.byteOffset, model.projection.byteLength));
  return `${LSA_MODEL_PREFIX}${hash.digest('hex').slice(0, 12)}`;
}

function toBytes(values: Float32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

function fromBytes(bytes: Buffer): Float32Array<ArrayBuffer> {
  // Copy: a Buffer from the driver may not be 4-byte aligned within its pool.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

class Cancelled extends Error {}

/**
 * The built-in embedding model: LSA fitted on the stored chunks, refitted as the corpus grows. A refit writes the
 * new model's vectors next to the old ones (its own partial HNSW index), switches to it once every chunk has its
 * vector, and only then drops the old model; searches meanwhile keep using the old one. Fitting runs in a worker
 * thread; reading chunks and writing vectors run in batches, so requests interleave even on one connection.
 */
export class CorpusModel implements EmbeddingModels {
  private embedder: LsaEmbedder | null = null;
  /** Names this process in the refit lease. */
  private readonly instance = `${process.pid}-${randomUUID()}`;
  private checkedAt = 0;
  private refit: Promise<boolean> | null = null;
  /** Documents arrived during a refit: check again when it ends. */
  private recheck = false;
  /** Bulk loads under way: no background refit until they end. */
  private bulkLoads = 0;
  private worker: Worker | null = null;
  private closed = false;

  /**
   * `backgroundRefit: false` is for bulk loaders (the ingest CLI, the evaluation): they store everything, then call
   * refitIfStale once, instead of refitting again and again as the corpus grows.
   */
  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly settings: { backgroundRefit: boolean; lsa: LsaOptions } = { backgroundRefit: true, lsa: DEFAULT_LSA_OPTIONS },
  ) {}

  private get dataSource() {
    return this.database.dataSource;
  }

  async current(): Promise<Embedder | null> {
    if (Date.now() - this.checkedAt < ACTIVE_CHECK_MS) return this.embedder;
    const [active]: Array<{ name: string }> = await this.dataSource.query(
      `SELECT name FROM embedding_models WHERE ready_at IS NOT NULL AND name LIKE $1 ORDER BY ready_at DESC, name LIMIT 1`,
      [`${LSA_MODEL_PREFIX}%`],
    );
    this.checkedAt = Date.now();
    if (active && active.name !== this.embedder?.model) this.embedder = (await this.load(active.name)) ?? this.embedder;
    return this.embedder;
  }

  /** A model by name; null when another instance dropped it meanwhile (the next look finds its successor). */
  private async load(name: string): Promise<LsaEmbedder | null> {
    const [row]: Array<{ dimensions: number; rank: number; fitted_chunks: number; terms: string[]; idf: Buffer; projection: Buffer }> =
      await this.dataSource.query('SELECT dimensions, rank, fitted_chunks, terms, idf, projection FROM embedding_models WHERE name = $1', [name]);
    if (!row) return null;
    return new LsaEmbedder(name, {
      terms: row.terms,
      idf: fromBytes(row.idf),
      projection: fromBytes(row.projection),
      dimensions: row.dimensions,
      rank: row.rank,
      documents: row.fitted_chunks,
    });
  }

  documentsAdded(): void {
    if (this.closed || !this.settings.backgroundRefit || this.bulkLoads > 0) return;
    if (this.refit) {
      this.recheck = true;
      return;
    }
    this.refitIfStale()
      .then(async () => {
        if (!this.recheck) return;
        this.recheck = false;
        // Chunks stored while the model switched may have been embedded with the old one only: fill them in.
        const embedder = await this.current();
        if (embedder) await backfillEmbeddings(this.dataSource.manager, embedder, this.logger, () => this.closed);
        this.documentsAdded();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Cancelled)) this.logger.error('refitting the search model failed', { error: (error as Error).message });
      });
  }

  async bulk<T>(work: () => Promise<T>): Promise<T> {
    this.bulkLoads += 1;
    let result: T;
    try {
      result = await work();
    } finally {
      this.bulkLoads -= 1;
    }
    // A refit already under way may have read the corpus before this load: let it end, then look again.
    await this.refit?.catch(() => undefined);
    await this.refitIfStale();
    return result;
  }

  /** Fits and switches to a new model when there is none yet or the corpus has grown enough; true if it did. */
  refitIfStale(): Promise<boolean> {
    if (!this.database.vectorAvailable || this.closed) return Promise.resolve(false);
    this.refit ??= this.refitWhenStale().finally(() => {
      this.refit = null;
    });
    return this.refit;
  }

  /**
   * One instance refits at a time (the others skip, and pick the new model up when it is ready). The lease expires
   * on its own if its holder dies; a live holder renews it between batches.
   */
  private async withRefitLock(work: () => Promise<boolean>): Promise<boolean> {
    const acquired: unknown[] = await this.dataSource.query(
      `INSERT INTO search_refit_lease (id, holder, expires_at) VALUES (1, $1, now() + interval '${LEASE_MINUTES} minutes')
       ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE search_refit_lease.expires_at < now() OR search_refit_lease.holder = EXCLUDED.holder
       RETURNING holder`,
      [this.instance],
    );
    if (acquired.length === 0) return false;
    try {
      return await work();
    } finally {
      await this.dataSource.query('DELETE FROM search_refit_lease WHERE holder = $1', [this.instance]).catch(() => undefined);
    }
  }

  private renewLease(): Promise<unknown> {
    return this.dataSource.query(`UPDATE search_refit_lease SET expires_at = now() + interval '${LEASE_MINUTES} minutes' WHERE holder = $1`, [this.instance]);
  }

  /** The corpus size and the model in use when a refit is due (none yet, or the corpus changed by a quarter); else null. */
  private async dueRefit(): Promise<{ chunks: number; active: { name: string; corpus_chunks: number } | undefined } | null> {
    const [{ chunks }] = await this.dataSource.query('SELECT count(*)::int AS chunks FROM document_chunks');
    const [active]: Array<{ name: string; corpus_chunks: number }> = await this.dataSource.query(
      `SELECT name, corpus_chunks FROM embedding_models WHERE ready_at IS NOT NULL AND name LIKE $1 ORDER BY ready_at DESC, name LIMIT 1`,
      [`${LSA_MODEL_PREFIX}%`],
    );
    const changed = !active || chunks >= active.corpus_chunks * REFIT_FACTOR || chunks * REFIT_FACTOR <= active.corpus_chunks;
    return chunks > 0 && changed ? { chunks, active } : null;
  }

  /**
   * Checked first with two reads, so the common case (an ingestion that does not change the corpus by a quarter)
   * takes no lease; checked again under the lease, since another instance may have refitted meanwhile.
   */
  private async refitWhenStale(): Promise<boolean> {
    if (!(await this.dueRefit())) return false;
    return this.withRefitLock(async () => {
      const due = await this.dueRefit();
      return due ? this.refitNow(due.chunks, due.active) : false;
    });
  }

  private async refitNow(chunks: number, active: { name: string; corpus_chunks: number } | undefined): Promise<boolean> {
    const started = Date.now();
    const fitted = await this.fitInWorker(await this.readSample(chunks));
    const name = modelName(fitted);
    if (name === active?.name) return false;
    await this.dataSource.query(
      `INSERT INTO embedding_models (name, dimensions, rank, fitted_chunks, corpus_chunks, terms, idf, projection)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (name) DO NOTHING`,
      [name, fitted.dimensions, fitted.rank, fitted.documents, chunks, fitted.terms, toBytes(fitted.idf), toBytes(fitted.projection)],
    );
    const embedder = new LsaEmbedder(name, fitted);
    await this.withRunner((runner) => ensureModelIndex(runner, name, embedder.dimensions));
    await backfillEmbeddings(this.dataSource.manager, embedder, this.logger, () => this.closed, () => this.renewLease());
    // Stopped half-way: the model is never marked ready; the next refit drops what was written.
    if (this.closed) throw new Cancelled();
    await this.dataSource.query('UPDATE embedding_models SET ready_at = now() WHERE name = $1', [name]);
    this.embedder = embedder;
    this.checkedAt = Date.now();
    // Chunks stored while the vectors were being written still have only the old model's.
    await backfillEmbeddings(this.dataSource.manager, embedder, this.logger, () => this.closed);
    await this.dropOtherModels(name);
    this.logger.info('fitted the built-in search model', {
      model: name, chunks, fittedOn: fitted.documents, terms: fitted.terms.length, rank: fitted.rank, seconds: (Date.now() - started) / 1000,
    });
    return true;
  }

  /** Chunk texts to fit on: all of them, or an even sample of a large corpus, read in batches. */
  private async readSample(chunks: number): Promise<string[]> {
    const step = Math.ceil(chunks / MAX_FIT_CHUNKS);
    const texts: string[] = [];
    let after = 0;
    for (;;) {
      if (this.closed) throw new Cancelled();
      const rows: Array<{ id: number; content: string }> = await this.dataSource.query(
        `SELECT id, content FROM document_chunks WHERE id > $1 AND id % $2 = 0 ORDER BY id LIMIT $3`,
        [after, step, READ_BATCH],
      );
      if (rows.length === 0) return texts;
      for (const row of rows) texts.push(row.content);
      after = rows[rows.length - 1].id;
    }
  }

  private fitInWorker(texts: string[]): Promise<LsaModel> {
    if (this.closed) return Promise.reject(new Cancelled());
    return new Promise<LsaModel>((resolve, reject) => {
      const worker = new Worker(path.join(__dirname, 'lsa-worker.js'), { workerData: { texts, options: this.settings.lsa } });
      this.worker = worker;
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(this.closed ? new Cancelled() : new Error(`the LSA fit worker stopped with code ${code}`)));
    }).finally(() => {
      this.worker = null;
    });
  }

  private async withRunner<T>(work: (runner: import('typeorm').QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }

  /** Drops the vectors, index and row of every other built-in model: they are stale once the new one is ready. */
  private async dropOtherModels(keep: string): Promise<void> {
    const stale: Array<{ name: string; dimensions: number }> = await this.dataSource.query(
      'SELECT name, dimensions FROM embedding_models WHERE name LIKE $1 AND name <> $2',
      [`${LSA_MODEL_PREFIX}%`, keep],
    );
    for (const model of stale) {
      await this.dataSource.query(`DROP INDEX IF EXISTS ${vectorIndexName(model.name, model.dimensions)}`);
      await this.dataSource.query('DELETE FROM chunk_embeddings WHERE model = $1', [model.name]);
      await this.dataSource.query('DELETE FROM embedding_models WHERE name = $1', [model.name]);
    }
  }

  /** Stops a running refit (its half-written model is never switched to) and waits for it to let go. */
  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
    await this.refit?.catch(() => undefined);
  }
}
