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
  /**
   * Adds one. The window starts with the first increment (a fixed window), or with
   * `sliding` restarts at every increment, so the key lives until windowMs of quiet.
   */
  increment(key: string, windowMs: number, sliding?: boolean): Promise<Hit>;
  /** Takes one back (never below zero); the window is unchanged. */
  decrement(key: string): Promise<void>;
  get(key: string): Promise<Hit>;
  /** Sets a key that lives for windowMs (a lock). */
  set(key: string, windowMs: number): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface MemoryCounterStoreOptions {
  /** Most keys kept; past it the least recently used are dropped (see below). */
  maxEntries?: number;
  /** How often expired keys are swept out (on a timer that never keeps the process alive). */
  sweepEveryMs?: number;
}

/**
 * Counters in this process's memory (no REDIS_URL). Memory is bounded, and no request ever
 * pays for housekeeping: expired keys are read as absent and swept out once a minute on an
 * unref'd timer, and a hard cap (100,000 keys by default) drops the least recently used key
 * (a Map keeps insertion order; every write or read of a key moves it to the end) when a new
 * one would go past it. Under a flood of distinct keys that can drop a live counter, the
 * oldest first: keys in use (an account being guessed at, an IP being limited) are touched at
 * every attempt and go last. docs/decisions/rate-limits-and-lockout.md gives the trade-off.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, { count: number; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly clock: Clock,
    options: MemoryCounterStoreOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.timer = setInterval(() => this.sweep(), options.sweepEveryMs ?? 60_000);
    this.timer.unref();
  }

  /** Keys held, expired ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  /** The live entry, moved to the most recently used end; expired ones are dropped. */
  private live(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.clock().getTime()) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  /** Stores a new entry, first dropping the least recently used ones past the cap. */
  private store(key: string, entry: { count: number; expiresAt: number }) {
    this.entries.delete(key);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }

  async increment(key: string, windowMs: number, sliding = false): Promise<Hit> {
    const now = this.clock().getTime();
    const entry = this.live(key);
    if (!entry) {
      this.store(key, { count: 1, expiresAt: now + windowMs });
      return { count: 1, resetInMs: windowMs };
    }
    entry.count += 1;
    if (sliding) entry.expiresAt = now + windowMs;
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
    this.store(key, { count: 1, expiresAt: this.clock().getTime() + windowMs });
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.entries.clear();
  }

  /** Drops every expired key (the timer's work; public for tests). */
  sweep(): void {
    const now = this.clock().getTime();
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

  async increment(key: string, windowMs: number, sliding = false): Promise<Hit> {
    const k = this.prefix + key;
    const tx = this.redis.multi().incr(k);
    const result = await (sliding ? tx.pexpire(k, windowMs) : tx.pexpire(k, windowMs, 'NX')).pttl(k).exec();
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
    // Atomically: never below zero, expiry kept, and nothing for a missing key (DECR would
    // create it at -1, and it would stay for ever with no expiry).
    await this.redis.eval(
      "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end local v = redis.call('DECR', KEYS[1]) if v < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') end return v",
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
