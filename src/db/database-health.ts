import type { Logger } from '../shared/logger';
import { isPoolBusy, onConnectionFailure, serviceUnavailable } from '../shared/database-unavailable';
import type { AppError } from '../shared/app-error';

/**
 * up: serving. down: not answering (a server outage, or the embedded child died). restarting: the embedded child is
 * being started again. failed: it could not be restarted; the process is about to exit.
 */
export type DatabaseState = 'up' | 'down' | 'restarting' | 'failed';

const PROBE_INTERVAL_MS = 1_000;

/**
 * Whether the database answers, as one small state machine: one log line per change (never one per request), a
 * probe every second while it is down, and the early 503 every request gets meanwhile.
 */
export class DatabaseHealth {
  private current: DatabaseState = 'up';
  private since = Date.now();
  private probing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly failedListeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(
    readonly kind: 'embedded' | 'external',
    private readonly logger: Logger,
    /** Resolves when the database answers a trivial query, rejects otherwise. */
    private readonly probe: () => Promise<void>,
  ) {
    this.unsubscribe = onConnectionFailure(() => this.check());
  }

  get state(): DatabaseState {
    return this.current;
  }

  /** The early answer while the database is known to be away; null while it is up. */
  unavailable(): AppError | null {
    return this.current === 'up' ? null : serviceUnavailable();
  }

  /** A connection failed somewhere: probe once (at most one probe at a time); down if the probe fails too. */
  async check(): Promise<void> {
    if (this.closed || this.current === 'restarting' || this.current === 'failed') return;
    // A restart may have begun while the probe ran: the supervisor owns the state then.
    const probed = () => this.current === 'up' || this.current === 'down';
    await (this.probing ??= this.probe()
      .then(() => {
        if (probed()) this.change('up');
      })
      .catch((error: unknown) => {
        // The probe waited behind requests for the pool's connections: the database is busy, not down.
        if (!probed() || isPoolBusy(error)) return;
        this.change('down', { reason: reasonOf(error) });
        this.scheduleProbe();
      })
      .finally(() => {
        this.probing = null;
      }));
  }

  /** After a restart: up if a probe passes now; false (state unchanged) if not. */
  async confirmUp(): Promise<boolean> {
    try {
      await this.probe();
    } catch {
      return false;
    }
    this.change('up');
    return true;
  }

  /** Moves to `state`, logging the change once. */
  change(state: DatabaseState, fields: Record<string, unknown> = {}): void {
    if (this.closed || state === this.current || this.current === 'failed') return;
    const previous = this.current;
    const forMs = Date.now() - this.since;
    this.current = state;
    this.since = Date.now();
    const line = { database: this.kind, state, previous, forMs, ...fields };
    if (state === 'up') this.logger.info('database is back up', line);
    else if (state === 'failed') this.logger.error('database could not be restarted', line);
    else this.logger.warn(state === 'down' ? 'database is down' : 'database is restarting', line);
    if (state === 'failed') for (const listener of this.failedListeners) listener();
  }

  /** Called once when the database is given up on (the embedded child could not be restarted). */
  onFailed(listener: () => void): void {
    this.failedListeners.add(listener);
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
  }

  private scheduleProbe(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.current === 'down') void this.check();
    }, PROBE_INTERVAL_MS);
    this.timer.unref();
  }
}

/** A short reason for the log: the error code or class, never a stack. */
function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return typeof code === 'string' ? code : String(message ?? error).slice(0, 200);
}
