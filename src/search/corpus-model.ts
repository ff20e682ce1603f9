import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database } from '../db/database';
import { giveWayToRequests } from '../db/give-way';
import { maintainEmbeddedTables } from '../db/maintenance';
import type { Logger } from '../shared/logger';
import type { Embedder } from './embedder';
import {
  DEFAULT_LSA_OPTIONS,
  LsaProjector,
  SAMPLE_SEPARATOR,
  type LsaModel,
  type LsaOptions,
  type SampleTexts,
} from './lsa';
import { backfillEmbeddings, type EmbeddingModels } from './embedding-models';
import { ensureModelIndex } from '../db/vector-schema';
import { countChunks, sampleChunkTexts } from './documents.repository';
import {
  activeModel,
  dropModel,
  loadModel,
  markReady,
  otherModels,
  recordCorpusChunks,
  releaseLease,
  renewLease,
  saveModel,
  takeLease,
} from './search-models.repository';

export const LSA_MODEL_PREFIX = 'builtin-lsa-v1/';
/** Refit once the corpus has grown (or shrunk) by this factor since the model in use was fitted. */
export const REFIT_FACTOR = 1.25;
/** A fit reads at most this many chunks (an even sample of a larger corpus); fitting time grows with it. */
const MAX_FIT_CHUNKS = 100_000;
/**
 * Chunk texts read per statement when sampling for a fit: small enough that no statement holds the embedded
 * database's one connection long while searches wait.
 */
const READ_BATCH = 500;
/** How often an instance looks for a model another instance has switched to. */
const ACTIVE_CHECK_MS = 1_000;
/**
 * How long a refit lease lasts without renewal. The holder renews it every few seconds while it works, so a holder
 * that dies (kill -9, a lost machine) gives it up within this time and another instance can refit.
 */
export const REFIT_LEASE_SECONDS = 15;
const LEASE_HEARTBEAT_MS = 5_000;
/** Longest the main thread embeds without letting other work run. */
const EMBED_SLICE_MS = 20;

/** The built-in embedder with a fitted model: fold-in of new text into the model's latent space. */
export class LsaEmbedder implements Embedder {
  readonly dimensions: number;
  readonly stored = true;
  private readonly projector: LsaProjector;

  constructor(
    readonly model: string,
    fitted: LsaModel,
  ) {
    this.dimensions = fitted.dimensions;
    this.projector = new LsaProjector(fitted);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    let sliceStarted = performance.now();
    for (const text of texts) {
      // A large document is thousands of chunks, long enough to embed that other requests would wait: give them a
      // turn every EMBED_SLICE_MS.
      if (performance.now() - sliceStarted > EMBED_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
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
  private retry: NodeJS.Timeout | null = null;
  /** True once the heartbeat found the lease taken over (this instance stalled past its expiry): stop writing. */
  private leaseLost: () => boolean = () => false;

  /**
   * `backgroundRefit: false` is for bulk loaders (the ingest CLI, the evaluation): they store everything, then call
   * refitIfStale once, instead of refitting again and again as the corpus grows.
   */
  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly settings: { backgroundRefit: boolean; lsa: LsaOptions } = {
      backgroundRefit: true,
      lsa: DEFAULT_LSA_OPTIONS,
    },
  ) {}

  private get dataSource() {
    return this.database.dataSource;
  }

  async current(): Promise<Embedder | null> {
    if (Date.now() - this.checkedAt < ACTIVE_CHECK_MS) return this.embedder;
    const active = await activeModel(this.dataSource.manager, LSA_MODEL_PREFIX);
    this.checkedAt = Date.now();
    if (active && active.name !== this.embedder?.model) this.embedder = (await this.load(active.name)) ?? this.embedder;
    return this.embedder;
  }

  /** A model by name; null when another instance dropped it meanwhile (the next look finds its successor). */
  private async load(name: string): Promise<LsaEmbedder | null> {
    const fitted = await loadModel(this.dataSource.manager, name);
    return fitted ? new LsaEmbedder(name, fitted) : null;
  }

  /**
   * Called after a document was stored, with the model its chunks were embedded with (null: none). Refits when the
   * corpus grew enough; chunks embedded with a model that a refit replaced meanwhile get the current model's vectors.
   */
  documentsAdded(embeddedWith: string | null = null): void {
    if (this.closed || !this.settings.backgroundRefit || this.bulkLoads > 0) return;
    if (this.refit) {
      this.recheck = true;
      return;
    }
    this.refitIfStale()
      .then(async () => {
        const embedder = await this.current();
        const recheck = this.recheck;
        this.recheck = false;
        // Chunks stored while the model switched may have been embedded with the old one only: fill them in.
        if (embedder && (recheck || embeddedWith !== embedder.model))
          await backfillEmbeddings(this.dataSource.manager, embedder, this.logger, () => this.closed);
        if (recheck) this.documentsAdded();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Cancelled))
          this.logger.error('refitting the search model failed', { error: (error as Error).message });
      });
  }

  /**
   * Runs a bulk load without a refit per document, then refits once if the corpus outgrew the model. `stored` says
   * whether the load stored anything: when it did not (the demo seed of a database that has documents), a refit under
   * way (one that large ingestions started before a restart) stays in the background instead of holding up the start.
   */
  async bulk<T>(work: () => Promise<T>, stored: (result: T) => boolean = () => true): Promise<T> {
    this.bulkLoads += 1;
    let result: T;
    try {
      result = await work();
    } finally {
      this.bulkLoads -= 1;
    }
    if (!stored(result)) return result;
    // A refit already under way may have read the corpus before this load: let it end, then look again.
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
   * One instance refits at a time (the others skip, and pick the new model up when it is ready). The lease is short
   * and renewed by a heartbeat while the work runs, so it expires soon after its holder dies. A model that was never
   * made ready belongs to a refit that died (only the lease holder writes one): its vectors are dropped first.
   */
  /**
   * Another instance holds the lease: look again once it would have expired, so a refit that is due happens even
   * when its holder died and no further document arrives.
   */
  private retryAfterLease(): void {
    if (this.retry || this.closed || !this.settings.backgroundRefit) return;
    this.retry = setTimeout(
      () => {
        this.retry = null;
        this.documentsAdded();
      },
      (REFIT_LEASE_SECONDS + 1) * 1000,
    );
    this.retry.unref();
  }

  private async withRefitLock(work: () => Promise<boolean>): Promise<boolean> {
    const manager = this.dataSource.manager;
    if (!(await takeLease(manager, this.instance, REFIT_LEASE_SECONDS))) {
      this.retryAfterLease();
      return false;
    }
    let lost = false;
    const heartbeat = setInterval(() => {
      renewLease(manager, this.instance, REFIT_LEASE_SECONDS)
        .then((held) => {
          if (!held) lost = true;
        })
        .catch(() => undefined);
    }, LEASE_HEARTBEAT_MS);
    heartbeat.unref();
    this.leaseLost = () => lost;
    try {
      for (const abandoned of await otherModels(manager, LSA_MODEL_PREFIX, null, { unfinished: true })) {
        await dropModel(manager, abandoned);
        this.logger.info('dropped the vectors of an unfinished search model', { model: abandoned.name });
      }
      return await work();
    } finally {
      clearInterval(heartbeat);
      this.leaseLost = () => false;
      await releaseLease(manager, this.instance).catch(() => undefined);
    }
  }

  /** The corpus size and the model in use when a refit is due (none yet, or the corpus changed by a quarter); else null. */
  private async dueRefit(): Promise<{
    chunks: number;
    active: { name: string; corpus_chunks: number } | undefined;
  } | null> {
    const chunks = await countChunks(this.dataSource.manager);
    const active = await activeModel(this.dataSource.manager, LSA_MODEL_PREFIX);
    const changed =
      !active || chunks >= active.corpus_chunks * REFIT_FACTOR || chunks * REFIT_FACTOR <= active.corpus_chunks;
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

  private async refitNow(
    chunks: number,
    active: { name: string; corpus_chunks: number } | undefined,
  ): Promise<boolean> {
    const started = Date.now();
    const sample = await this.readSample(chunks);
    // The reading gives way to requests, so documents stored meanwhile are in the sample: count them in too, or the
    // model would look stale at once, and the next refit would fit the same sample again and again.
    const sampledChunks = await countChunks(this.dataSource.manager);
    const fitted = await this.fitInWorker(sample);
    const name = modelName(fitted);
    if (name === active?.name) {
      await recordCorpusChunks(this.dataSource.manager, name, sampledChunks);
      return false;
    }
    await saveModel(this.dataSource.manager, name, fitted, sampledChunks);
    const embedder = new LsaEmbedder(name, fitted);
    await this.withRunner((runner) => ensureModelIndex(runner, name, embedder.dimensions));
    const stopped = () => this.closed || this.leaseLost();
    await backfillEmbeddings(this.dataSource.manager, embedder, this.logger, stopped);
    // Stopped half-way: the model is never marked ready; the next refit drops what was written.
    if (stopped()) throw new Cancelled();
    await markReady(this.dataSource.manager, name);
    this.embedder = embedder;
    this.checkedAt = Date.now();
    // Chunks stored while the vectors were being written still have only the old model's.
    await backfillEmbeddings(this.dataSource.manager, embedder, this.logger, () => this.closed);
    const dropped = await this.dropOtherModels(name);
    // The old model's rows are dead now, and the corpus changed by a quarter since the last fit: on the embedded
    // database nothing else would reclaim that space or refresh the planner's statistics.
    await maintainEmbeddedTables(this.database, this.logger, { vacuum: dropped > 0 ? ['chunk_embeddings'] : [] });
    this.logger.info('fitted the built-in search model', {
      model: name,
      chunks: sampledChunks,
      fittedOn: fitted.documents,
      terms: fitted.terms.length,
      rank: fitted.rank,
      seconds: (Date.now() - started) / 1000,
    });
    return true;
  }

  /**
   * Chunk texts to fit on: all of them, or an even sample of a large corpus, read in batches. Each batch is kept as
   * UTF-8 bytes (its texts joined by NUL, which PostgreSQL text cannot contain), not as strings: the bytes move to the
   * fit's worker without a copy, where cloning tens of thousands of strings would stall the main thread, and the main thread's heap does not hold the sample while the fit runs.
   */
  private async readSample(chunks: number): Promise<SampleTexts> {
    const step = Math.ceil(chunks / MAX_FIT_CHUNKS);
    const encoder = new TextEncoder();
    const batches: Uint8Array<ArrayBuffer>[] = [];
    let after = 0;
    for (;;) {
      if (this.closed) throw new Cancelled();
      const rows = await sampleChunkTexts(this.dataSource.manager, after, step, READ_BATCH);
      if (rows.length === 0) return { batches };
      batches.push(encoder.encode(rows.map((row) => row.text).join(SAMPLE_SEPARATOR)));
      after = rows[rows.length - 1].id;
      await giveWayToRequests(this.dataSource.manager);
    }
  }

  private fitInWorker(sample: SampleTexts): Promise<LsaModel> {
    if (this.closed) return Promise.reject(new Cancelled());
    return new Promise<LsaModel>((resolve, reject) => {
      const worker = new Worker(path.join(__dirname, 'lsa-worker.js'), {
        workerData: { sample, options: this.settings.lsa },
        transferList: sample.batches.map((batch) => batch.buffer),
      });
      this.worker = worker;
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(this.closed ? new Cancelled() : new Error(`the LSA fit worker stopped with code ${code}`)),
      );
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

  /** Drops the vectors, index and row of every other built-in model: they are stale once the new one is ready. Returns how many. */
  private async dropOtherModels(keep: string): Promise<number> {
    const others = await otherModels(this.dataSource.manager, LSA_MODEL_PREFIX, keep);
    for (const model of others) await dropModel(this.dataSource.manager, model);
    return others.length;
  }

  /** Stops a running refit (its half-written model is never switched to) and waits for it to let go. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.worker?.terminate();
    await this.refit?.catch(() => undefined);
  }
}
