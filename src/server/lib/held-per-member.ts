import { LRUCache } from 'lru-cache';
import type { CacheChange } from './notify';

/** How long and how many entries a held copy keeps. */
export interface HeldLimits {
  /** How long an entry may be served without asking the database again (ms); 0 turns the copy off. */
  ttlMs: number;
  /** Most entries held; past it the least recently used go first. */
  max: number;
}

/**
 * Database rows held in this process by key, kept honest across instances by the changes
 * announced on the sessions' channel (lib/notify.ts, docs/decisions/session-cache.md). The
 * session cache (modules/auth/session-cache.ts) and each member's copies (`HeldPerMember`)
 * share these rules, and differ in which entries a change drops (`dropped`) and which reads
 * it refuses (`changedSince`):
 * - whatever changes the rows is announced after it commits, and every instance drops the
 *   entries it names (a member's copies on the instance that wrote may keep theirs with the
 *   write in it: `HeldPerMember.keepThrough`);
 * - the TTL bounds what a lost announcement could leave behind, and a clock set back counts
 *   as stale;
 * - a read that began before a change was announced is not kept: every change that drops
 *   something moves a generation on, and `set` refuses a value read under an older one
 *   (`stamp()` is taken before the read) when that change concerns it (`changedSince`: any
 *   change at all here; one of its own member for `HeldPerMember`);
 * - while the channel is down nothing is served or kept, and everything held is forgotten
 *   when it comes back.
 * Values are frozen, one level down (a Map or Set inside stays changeable: type it read-only):
 * one serves many requests. Times are the caller's (the app's clock).
 */
export abstract class HeldByKey<T extends object> {
  protected readonly entries: LRUCache<string, { value: T; cachedAt: number }>;
  private generation = 0;
  private live = true;

  constructor(private readonly limits: HeldLimits) {
    this.entries = new LRUCache({ max: Math.max(1, limits.max) });
  }

  get enabled(): boolean {
    return this.limits.ttlMs > 0 && this.live;
  }

  /** The value held for `key` if fresh and (when asked) enough for the caller; never while the channel is down. */
  get(key: string, now: Date, enough?: (value: T) => boolean): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = now.getTime() - entry.cachedAt;
    if (age < 0 || age >= this.limits.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return !enough || enough(entry.value) ? entry.value : undefined;
  }

  /** Take before reading the database; pass to `set` with what was read. */
  stamp(): number {
    return this.generation;
  }

  /** Holds `value` (frozen, one level down too) unless a change concerning `key` was announced since `stamp` was taken, or the channel is down. */
  set(key: string, value: T, stamp: number, now: Date): void {
    if (!this.enabled || this.changedSince(key, stamp)) return;
    this.hold(key, value, now.getTime());
  }

  /**
   * The value held for `key` (when `enough` for the caller), else what `load` reads, held
   * unless `keep` says not to: the stamp is taken before the read, so a change announced
   * meanwhile keeps it out (`set`).
   */
  async getOrLoad(key: string, now: Date, load: () => Promise<T>, options: { enough?: (value: T) => boolean; keep?: (value: T) => boolean } = {}): Promise<T> {
    const held = this.get(key, now, options.enough);
    if (held) return held;
    const stamp = this.stamp();
    const value = await load();
    if (!options.keep || options.keep(value)) this.set(key, value, stamp, now);
    return value;
  }

  protected hold(key: string, value: T, cachedAt: number): void {
    for (const part of Object.values(value)) if (part && typeof part === 'object') Object.freeze(part);
    this.entries.set(key, { value: Object.freeze(value), cachedAt });
  }

  /**
   * Whether a change announced since `stamp` may concern `key`. Here, any change that dropped
   * something: a key's value may hang on rows a change names by something else (a session's
   * on its user's).
   */
  protected changedSince(_key: string, stamp: number): boolean {
    return stamp !== this.generation;
  }

  /** Called by `invalidate` with the generation the change moved to and the keys it drops. */
  protected changed(_doomed: 'all' | readonly string[], _generation: number): void {}

  /** Whether an entry is held for `key`, fresh or not (tests: has a change arrived yet?). */
  holds(key: string): boolean {
    return this.entries.has(key);
  }

  /** The keys `change` drops: every one ('all'), these, or none (undefined: it does not concern this copy). */
  protected abstract dropped(change: CacheChange): 'all' | Iterable<string> | undefined;

  invalidate(change: CacheChange): void {
    const doomed = 'all' in change ? 'all' : this.dropped(change);
    if (doomed === undefined) return;
    this.generation += 1;
    if (doomed === 'all') {
      this.changed('all', this.generation);
      this.entries.clear();
      return;
    }
    const keys = [...doomed];
    this.changed(keys, this.generation);
    for (const key of keys) this.entries.delete(key);
  }

  /** The channel between instances went down (bypass, forget) or came back (start afresh). */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate({ all: true });
  }
}

export interface HeldPerMemberOptions extends HeldLimits {
  /**
   * Which entries a change drops besides the member's own account change (`{ userId }`) and a
   * gap in the channel (`{ all }`): one member's (their id), every member's ('all'), or none.
   */
  drops(change: CacheChange): string | 'all' | undefined;
}

/**
 * Rows of one member held by member id (`HeldByKey`'s rules): a change naming the member, or
 * their account changing (`{ userId }`), drops their entry. Every change that concerns a
 * member's rows names them (or everyone), so a read is refused only by a change of that member
 * or of everyone: the generation each member last changed at is kept (as many members as
 * entries; past that the oldest are forgotten, and a forgotten one counts as changed at the
 * latest generation forgotten).
 */
export class HeldPerMember<T extends object> extends HeldByKey<T> {
  private readonly lastChanged: LRUCache<string, number>;
  private forgotten = 0;

  constructor(private readonly options: HeldPerMemberOptions) {
    super(options);
    this.lastChanged = new LRUCache({
      max: Math.max(1, options.max),
      dispose: (generation, _key, reason) => {
        if (reason === 'evict') this.forgotten = Math.max(this.forgotten, generation);
      },
    });
  }

  protected dropped(change: CacheChange): 'all' | string[] | undefined {
    const doomed = 'userId' in change ? change.userId : this.options.drops(change);
    return doomed === undefined || doomed === 'all' ? doomed : [doomed];
  }

  protected override changedSince(key: string, stamp: number): boolean {
    return (this.lastChanged.get(key) ?? this.forgotten) > stamp;
  }

  protected override changed(doomed: 'all' | readonly string[], generation: number): void {
    if (doomed === 'all') {
      this.lastChanged.clear();
      this.forgotten = generation;
    } else for (const key of doomed) this.lastChanged.set(key, generation);
  }

  /**
   * After the member's own write, committed and changing their rows: `announce` it, and keep
   * what `update` makes of the entry held before the write, when one was and no other change of
   * theirs was announced since `stamp` (taken before the write). Two writes of one member whose
   * results arrive out of their commit order keep nothing: the later arrival sees the earlier
   * one's announcement. `announce` drops the entry here as this copy's listener runs, before it
   * returns (`announceChange`); only when it did is the new value kept, so a read begun before
   * the write can never put the old rows back. The entry keeps its age: the TTL still bounds
   * how long what was read stays, whatever is written through it. `update` answers undefined to
   * keep nothing (the write's result cannot be placed in what is held). `now`: the time the
   * write's result arrived.
   */
  async keepThrough(key: string, stamp: number, now: Date, update: (value: T) => T | undefined, announce: () => Promise<void>): Promise<void> {
    const before = this.changedSince(key, stamp) ? undefined : this.get(key, now);
    const cachedAt = before && this.entries.get(key)?.cachedAt;
    const generation = this.stamp();
    const announced = announce();
    const after = before && update(before);
    if (after && cachedAt !== undefined && this.changedSince(key, generation)) this.hold(key, after, cachedAt);
    await announced;
  }
}
