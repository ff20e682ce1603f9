import type { ServerResponse } from 'node:http';
import { AppError } from '../shared/errors';

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

/**
 * Rate limits per caller (API key, or IP address when anonymous) and route class, with the IETF draft headers
 * (`RateLimit-Policy: 100;w=60`, `RateLimit: limit=100, remaining=41, reset=17`) on every limited response, and
 * 429 with `Retry-After` past the limit. The store answers every hit: the Redis one counts in memory while Redis is
 * unreachable (see RedisRateStore), so an outage of the counters neither takes the API down nor lifts the limits.
 */
export class RateLimiter {
  constructor(
    private readonly policies: Record<LimitClass, RatePolicy>,
    private readonly store: RateStore,
  ) {}

  async check(caller: string, limitClass: LimitClass, res: ServerResponse): Promise<void> {
    const policy = this.policies[limitClass];
    const hit = await this.store.hit(`${limitClass}:${caller}`, policy.windowSeconds);
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
  async refund(caller: string, limitClass: LimitClass): Promise<void> {
    await this.store.unhit(`${limitClass}:${caller}`);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
