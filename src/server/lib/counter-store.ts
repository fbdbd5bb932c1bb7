import { Redis } from 'ioredis';
import type { Clock } from './clock';

export interface Hit {
  count: number;
  resetInMs: number;
}

/**
 * Fixed-window counters for rate limits and lockouts. In-process by default; Redis when
 * several instances must agree (REDIS_URL).
 */
export interface CounterStore {
  increment(key: string, windowMs: number): Promise<Hit>;
  /** Takes one back (never below zero); the window is unchanged. */
  decrement(key: string): Promise<void>;
  get(key: string): Promise<Hit>;
  /** Sets a key that lives for windowMs (a lock). */
  set(key: string, windowMs: number): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, { count: number; expiresAt: number }>();
  constructor(private readonly clock: Clock) {}

  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.clock().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async increment(key: string, windowMs: number): Promise<Hit> {
    const now = this.clock().getTime();
    const entry = this.live(key) ?? { count: 0, expiresAt: now + windowMs };
    entry.count += 1;
    this.entries.set(key, entry);
    if (this.entries.size > 100_000) this.sweep(now);
    return { count: entry.count, resetInMs: entry.expiresAt - now };
  }

  async get(key: string): Promise<Hit> {
    const entry = this.live(key);
    return entry
      ? { count: entry.count, resetInMs: entry.expiresAt - this.clock().getTime() }
      : { count: 0, resetInMs: 0 };
  }

  async decrement(key: string): Promise<void> {
    const entry = this.live(key);
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }

  async set(key: string, windowMs: number): Promise<void> {
    this.entries.set(key, { count: 1, expiresAt: this.clock().getTime() + windowMs });
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private sweep(now: number) {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  constructor(url: string, private readonly prefix = 'wellhaven:') {
    // With Redis down a command fails within a second (the API answers 503) instead of
    // waiting out reconnects; connection errors are reported through the failing command.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false, connectTimeout: 1000, commandTimeout: 1000 });
    this.redis.on('error', () => undefined);
  }

  async increment(key: string, windowMs: number): Promise<Hit> {
    const k = this.prefix + key;
    const result = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
    const count = Number(result?.[0]?.[1] ?? 0);
    const ttl = Number(result?.[2]?.[1] ?? windowMs);
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }

  async get(key: string): Promise<Hit> {
    const k = this.prefix + key;
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [unknown, string | null],
      [unknown, number],
    ];
    return { count: Number(count ?? 0), resetInMs: ttl > 0 ? ttl : 0 };
  }

  async decrement(key: string): Promise<void> {
    // Atomically: never below zero, expiry kept.
    await this.redis.eval(
      "local v = redis.call('DECR', KEYS[1]) if v < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') end return v",
      1,
      this.prefix + key,
    );
  }

  async set(key: string, windowMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, '1', 'PX', windowMs);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
