import Redis from 'ioredis';
import type { Logger } from '../shared/logger';
import { MemoryRateStore, type RateStore } from './rate-limiter';

// INCR and set the expiry of a new window in one step, so instances never race on it.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// Only a window that still exists is decremented: an expired one has nothing to give back.
const UNHIT_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** A command Redis has not answered in this long counts as an outage: a request must not wait on a silent server. */
const COMMAND_TIMEOUT_MS = 1_000;
/** After a failed command, Redis is tried again this much later (sooner when the client reconnects). */
const RETRY_AFTER_FAILURE_MS = 2_000;

/**
 * Counters in Redis (REDIS_URL): instances behind one load balancer share one budget per key. While Redis cannot be
 * reached, each instance counts in its own memory instead (a degraded mode: every instance grants the whole budget,
 * from zero at the start of the outage), so limits hold and requests never wait on Redis. One warning is logged when
 * the mode changes, not one per request; the client reconnects on its own, and the shared counters are used again
 * as soon as it has.
 */
export class RedisRateStore implements RateStore {
  private readonly redis: Redis;
  private readonly memory = new MemoryRateStore();
  private degraded = false;
  private retryAt = 0;

  constructor(
    url: string,
    private readonly logger: Logger,
    private readonly prefix = 'fis:ratelimit:',
  ) {
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      // Reconnect forever, at most every 2 s: Redis coming back ends the degraded mode.
      retryStrategy: (times) => Math.min(times * 100, 2_000),
    });
    this.redis.on('error', () => undefined); // the mode change is what gets logged
    this.redis.on('ready', () => {
      this.retryAt = 0;
    });
  }

  /**
   * Waits (up to `withinMs`) for the first connection; logs the degraded mode at once when Redis cannot be reached at
   * start-up, rather than at the first request.
   */
  async connect(withinMs = 3_000): Promise<boolean> {
    if (this.redis.status !== 'ready') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, withinMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.redis.once('ready', done);
      });
    }
    const ready = this.redis.status === 'ready';
    if (!ready) this.enterDegradedMode(new Error(`no connection within ${withinMs} ms`), 'at start-up');
    return ready;
  }

  async hit(key: string, windowSeconds: number) {
    const shared = await this.shared(async () => {
      const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}${key}`, windowSeconds)) as [
        number,
        number,
      ];
      return { count, resetSeconds: Math.max(1, ttl) };
    });
    return shared ?? this.memory.hit(key, windowSeconds);
  }

  async unhit(key: string) {
    const shared = await this.shared(async () => {
      await this.redis.eval(UNHIT_SCRIPT, 1, `${this.prefix}${key}`);
      return true;
    });
    if (shared === null) await this.memory.unhit(key);
  }

  async close() {
    this.redis.disconnect();
  }

  /** Runs a command on Redis when it is reachable; null when it is not (the caller counts in memory). */
  private async shared<T>(command: () => Promise<T>): Promise<T | null> {
    if (this.redis.status !== 'ready' || Date.now() < this.retryAt) {
      if (!this.degraded) this.enterDegradedMode(new Error(`connection ${this.redis.status}`));
      return null;
    }
    try {
      const result = await command();
      if (this.degraded) {
        this.degraded = false;
        this.logger.warn('rate limits are shared again: Redis answers, counting in Redis', { rateLimitStore: 'redis' });
      }
      return result;
    } catch (error) {
      this.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
      if (!this.degraded) this.enterDegradedMode(error as Error);
      return null;
    }
  }

  private enterDegradedMode(error: Error, when = ''): void {
    this.degraded = true;
    this.logger.warn(
      `Redis is unreachable${when ? ` ${when}` : ''}: rate limits are counted in this instance's memory until it answers again`,
      {
        rateLimitStore: 'memory',
        error: error.message,
      },
    );
  }
}
