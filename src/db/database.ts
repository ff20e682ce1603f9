import fs from 'node:fs';
import path from 'node:path';
import { MigrationExecutor, type DataSource, type QueryRunner } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { Logger } from '../shared/logger';
import { usePreparedStatements } from './prepared-statements.repository';
import { createDataSource, QueryCounter } from './data-source';
import { EmbeddedSupervisor } from './embedded-supervisor';
import { DatabaseHealth } from './database-health';
import { ensureVectorSchema } from './vector-schema';

export interface Database {
  dataSource: DataSource;
  counter: QueryCounter;
  /** "embedded" (PGlite in DATA_DIR) or "external" (DATABASE_URL). */
  kind: 'embedded' | 'external';
  /** Whether the server offers pgvector (the vector leg of search needs it). */
  vectorAvailable: boolean;
  /** The installed pgvector version, when there is one. */
  vectorVersion: string | null;
  /** Whether the database answers now (up, down, restarting, failed). */
  health: DatabaseHealth;
  /** The embedded database child's process id (null with DATABASE_URL); fault drills kill it. */
  readonly childPid: number | null;
  close(): Promise<void>;
}

// Any constant will do: it only has to be the same for every instance of the service.
const STARTUP_LOCK_KEY = 4_242_001;

/**
 * An embedded data directory must be opened by one process at a time; a lock file with our pid says who has it.
 * A lock left by a process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'service.lock');
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(fs.readFileSync(lockFile, 'utf8'));
    if (owner && owner !== process.pid && isRunning(owner)) {
      throw new Error(
        `the embedded database in ${dataDir} is in use by process ${owner}; stop it first or set DATABASE_URL`,
      );
    }
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => fs.rmSync(lockFile, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL in DATA_DIR, and initializes TypeORM. */
export async function openDatabase(config: AppConfig, logger: Logger): Promise<Database> {
  let embedded: EmbeddedSupervisor | null = null;
  let unlock: (() => void) | null = null;
  if (!config.databaseUrl) {
    unlock = lockDataDir(config.dataDir);
    try {
      embedded = await EmbeddedSupervisor.start(path.join(config.dataDir, 'pglite'), logger, config.dbRestartAttempts, {
        sharedBuffersMb: config.dbSharedBuffersMb,
      });
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const counter = new QueryCounter();
  // PGlite has one backend session: more than one connection would interleave protocol messages.
  const poolSize = embedded ? 1 : config.dbPoolSize;
  const dataSource = createDataSource({
    url: config.databaseUrl ?? (embedded as EmbeddedSupervisor).url,
    poolSize,
    logger,
    counter,
  });
  try {
    await dataSource.initialize();
    if (config.dbPreparedStatements) {
      const mode = await usePreparedStatements(dataSource, poolSize, (error) =>
        logger.warn('named statements off: the names of a closed connection could not be dropped', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      if (mode === 'off')
        logger.info(
          'named statements off: DATABASE_URL is served by PGlite, whose connections share one session; set DB_POOL_SIZE=1 for them',
        );
    }
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
    await embedded?.stop();
    unlock?.();
    throw error;
  }
  const kind = embedded ? 'embedded' : 'external';
  const health = new DatabaseHealth(kind, logger, async () => {
    await dataSource.query('SELECT 1');
  });
  embedded?.watch(health);
  return {
    dataSource,
    counter,
    kind,
    vectorAvailable: false,
    vectorVersion: null,
    health,
    get childPid() {
      return embedded?.pid ?? null;
    },
    async close() {
      health.close();
      await dataSource.destroy();
      await embedded?.stop();
      unlock?.();
    },
  };
}

/**
 * Runs `work` on one connection that holds a session advisory lock, so start-up steps (migrations, seeding) run
 * once even when several instances start together against one server. Everything runs on that same connection,
 * which also makes it work with a pool of one (the embedded database).
 */
export async function withStartupLock<T>(database: Database, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
  const runner = database.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await work(runner);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

/** Applies pending migrations on `runner`, then the vector schema where the server has pgvector. */
export async function migrate(database: Database, runner: QueryRunner): Promise<void> {
  const executor = new MigrationExecutor(database.dataSource, runner);
  executor.transaction = 'each';
  await executor.executePendingMigrations();
  database.vectorVersion = await ensureVectorSchema(runner);
  database.vectorAvailable = database.vectorVersion !== null;
}
