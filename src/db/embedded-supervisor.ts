import type { Logger } from '../shared/logger';
import type { DatabaseHealth } from './database-health';
import { startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedSettings } from './embedded-postgres';

/**
 * The service's pool holds one connection (PGlite has one session). The server accepts one more: when the pool
 * throws a broken connection away, it opens the next before the server has seen the old one close, and a server that
 * refused that one would fail the request after a dropped connection.
 */
const SERVER_CONNECTIONS = 2;

// Waits before each restart attempt: the first at once, then doubling (bounded by the number of attempts).
const FIRST_BACKOFF_MS = 250;
const PROBES_AFTER_RESTART = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps the embedded database child alive: when it dies unasked, the health turns `down` at once (the child's exit
 * event, well within a second), and the child is started again on the same data directory and port with bounded
 * back-off. PGlite recovers its data directory from the WAL like PostgreSQL after a crash, so committed writes stay.
 * After the last failed attempt the health turns `failed` and whoever listens (main) ends the process.
 */
export class EmbeddedSupervisor {
  private stopping = false;
  private recovering = false;
  private health: DatabaseHealth | null = null;

  private constructor(
    private readonly dataDir: string,
    private child: EmbeddedPostgres,
    private readonly logger: Logger,
    private readonly restartAttempts: number,
    private readonly settings: EmbeddedSettings,
  ) {}

  static async start(
    dataDir: string,
    logger: Logger,
    restartAttempts: number,
    settings: EmbeddedSettings = {},
  ): Promise<EmbeddedSupervisor> {
    return new EmbeddedSupervisor(
      dataDir,
      await startEmbeddedPostgres(dataDir, SERVER_CONNECTIONS, 0, settings),
      logger,
      restartAttempts,
      settings,
    );
  }

  /** The connection URL; it stays the same across restarts (same port). */
  get url(): string {
    return this.child.url;
  }

  /** The current child's process id. */
  get pid(): number {
    return this.child.pid;
  }

  /** Starts watching the child; from now on its death is noticed and repaired. */
  watch(health: DatabaseHealth): void {
    this.health = health;
    this.follow(this.child);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.child.stop();
  }

  private follow(child: EmbeddedPostgres): void {
    void child.exited.then(({ code, signal }) => {
      if (!this.stopping && !this.recovering && child === this.child) void this.recover(code, signal);
    });
  }

  private async recover(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    this.recovering = true;
    try {
      await this.restart(code, signal);
    } finally {
      this.recovering = false;
    }
  }

  private async restart(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const health = this.health as DatabaseHealth;
    health.change('down', { reason: 'embedded database process exited', code, signal });
    for (let attempt = 1; attempt <= this.restartAttempts; attempt += 1) {
      if (attempt > 1) await sleep(FIRST_BACKOFF_MS * 2 ** (attempt - 2));
      if (this.stopping) return;
      health.change('restarting', { attempt });
      try {
        const started = Date.now();
        const child = await startEmbeddedPostgres(this.dataDir, SERVER_CONNECTIONS, this.child.port, this.settings);
        this.logger.info('embedded database restarted', { attempt, pid: child.pid, ms: Date.now() - started });
        this.child = child;
        if (this.stopping) return void (await child.stop());
        if (await this.confirm(health)) return this.follow(child);
        await child.stop();
      } catch (error) {
        this.logger.warn('embedded database restart failed', { attempt, error: (error as Error).message });
      }
    }
    health.change('failed', { attempts: this.restartAttempts });
  }

  /** The pool drops its dead connection on first use; a few probes prove the new child answers. */
  private async confirm(health: DatabaseHealth): Promise<boolean> {
    for (let probe = 0; probe < PROBES_AFTER_RESTART; probe += 1) {
      if (await health.confirmUp()) return true;
      await sleep(100);
    }
    return false;
  }
}
