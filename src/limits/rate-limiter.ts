import type { ServerResponse } from 'node:http';
import Redis from 'ioredis';
import { AppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { requestIdOf } from '../shared/request-context';

import type { LimitClass } from '../operations/rate-classes';

export { LIMIT_CLASSES, type LimitClass } from '../operations/rate-classes';

export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/** Counts hits per key in fixed windows; returns the count so far and the seconds until the window resets. */
export interface RateStore {
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }>;
  /** Takes back one hit of the current window (a request charged provisionally to another class). */
  unhit(key: string): Promise<void>;
  close(): Promise<void>;
}

/** One process's counters: right for a single instance. */
export class MemoryRateStore implements RateStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  async hit(key: string, windowSeconds: number) {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (this.windows.size > 100_000) for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
      window = { count: 0, endsAt: now + windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
  }

  async unhit(key: string) {
    const window = this.windows.get(key);
    if (window && window.endsAt > Date.now() && window.count > 0) window.count -= 1;
  }

  async close() {}
}

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

/** Counters in Redis (REDIS_URL): instances behind one load balancer share one budget per key. */
export class RedisRateStore implements RateStore {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'fis:ratelimit:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => undefined); // reported per call, where it matters
  }

  async hit(key: string, windowSeconds: number) {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}${key}`, windowSeconds)) as [number, number];
    return { count, resetSeconds: Math.max(1, ttl) };
  }

  async unhit(key: string) {
    await this.redis.eval(UNHIT_SCRIPT, 1, `${this.prefix}${key}`);
  }

  async close() {
    this.redis.disconnect();
  }
}

/**
 * Rate limits per caller (API key, or IP address when anonymous) and route class, with the IETF draft headers
 * (`RateLimit-Policy: 100;w=60`, `RateLimit: limit=100, remaining=41, reset=17`) on every limited response, and
 * 429 with `Retry-After` past the limit. If the shared store is unreachable, requests pass (logged): an outage of the
 * counters must not take the API down.
 */
export class RateLimiter {
  constructor(
    private readonly policies: Record<LimitClass, RatePolicy>,
    private readonly store: RateStore,
    private readonly logger: Logger,
  ) {}

  async check(caller: string, limitClass: LimitClass, res: ServerResponse): Promise<void> {
    const policy = this.policies[limitClass];
    let hit: { count: number; resetSeconds: number };
    try {
      hit = await this.store.hit(`${limitClass}:${caller}`, policy.windowSeconds);
    } catch (error) {
      this.logger.warn('rate limit store unavailable; request let through', { requestId: requestIdOf(res.req), error: (error as Error).message });
      return;
    }
    const remaining = Math.max(0, policy.limit - hit.count);
    res.setHeader('ratelimit-policy', `${policy.limit};w=${policy.windowSeconds}`);
    res.setHeader('ratelimit', `limit=${policy.limit}, remaining=${remaining}, reset=${hit.resetSeconds}`);
    if (hit.count > policy.limit) {
      throw new AppError(
        'RATE_LIMITED',
        `Rate limit of ${policy.limit} ${limitClass} requests per ${policy.windowSeconds} s exceeded; retry in ${hit.resetSeconds} s`,
        { limit: policy.limit, window_seconds: policy.windowSeconds, retry_after_seconds: hit.resetSeconds },
        { 'retry-after': String(hit.resetSeconds) },
      );
    }
  }

  /** Gives back one request of a class that was charged provisionally (see admitOperation). */
  async refund(caller: string, limitClass: LimitClass, requestId?: string): Promise<void> {
    try {
      await this.store.unhit(`${limitClass}:${caller}`);
    } catch (error) {
      this.logger.warn('rate limit store unavailable; refund skipped', { requestId, error: (error as Error).message });
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
