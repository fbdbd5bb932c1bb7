import { LRUCache } from 'lru-cache';
import type { CacheChange } from './notify';

export interface HeldPerMemberOptions {
  /** How long an entry may be served without asking the database again (ms); 0 turns the copy off. */
  ttlMs: number;
  /** Most members held; past it the least recently used go first. */
  max: number;
  /**
   * Which entries a change drops besides the member's own account change (`{ userId }`) and a
   * gap in the channel (`{ all }`): one member's (their id), every member's ('all'), or none.
   */
  drops(change: CacheChange): string | 'all' | undefined;
}

/**
 * Rows of one member held in this process by member id, kept honest across instances by the
 * changes announced on the sessions' channel (lib/notify.ts, docs/decisions/session-cache.md),
 * as the session cache is:
 * - whatever changes the rows is announced after it commits, naming the member, and every
 *   instance drops that member's entry; their account changing (`{ userId }`) drops it too;
 * - the TTL bounds what a lost announcement could leave behind, and a clock set back counts
 *   as stale;
 * - a read that began before a change was announced is not kept: every change moves a
 *   generation on, and `set` refuses a value read under an older one (`stamp()` is taken
 *   before the read);
 * - while the channel is down nothing is served or kept, and everything held is forgotten
 *   when it comes back.
 * Values are frozen, one level down (a Map or Set inside stays changeable: type it read-only):
 * one serves many requests. Times are the caller's (the app's clock).
 */
export class HeldPerMember<T extends object> {
  private readonly entries: LRUCache<string, { value: T; cachedAt: number }>;
  private generation = 0;
  private live = true;

  constructor(private readonly options: HeldPerMemberOptions) {
    this.entries = new LRUCache({ max: Math.max(1, options.max) });
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.live;
  }

  /** The member's value if held, fresh, and (when asked) enough for the caller; never while the channel is down. */
  get(userId: string, now: Date, enough?: (value: T) => boolean): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    const age = now.getTime() - entry.cachedAt;
    if (age < 0 || age >= this.options.ttlMs) {
      this.entries.delete(userId);
      return undefined;
    }
    return !enough || enough(entry.value) ? entry.value : undefined;
  }

  /** Take before reading the database; pass to `set` with what was read. */
  stamp(): number {
    return this.generation;
  }

  /** Holds `value` (frozen, one level down too) unless a change was announced since `stamp` was taken, or the channel is down. */
  set(userId: string, value: T, stamp: number, now: Date): void {
    if (!this.enabled || stamp !== this.generation) return;
    for (const part of Object.values(value)) if (part && typeof part === 'object') Object.freeze(part);
    this.entries.set(userId, { value: Object.freeze(value), cachedAt: now.getTime() });
  }

  /** Whether an entry is held for this member, fresh or not (tests: has a change arrived yet?). */
  holds(userId: string): boolean {
    return this.entries.has(userId);
  }

  invalidate(change: CacheChange): void {
    const doomed = 'all' in change ? 'all' : 'userId' in change ? change.userId : this.options.drops(change);
    if (doomed === undefined) return;
    this.generation += 1;
    if (doomed === 'all') this.entries.clear();
    else this.entries.delete(doomed);
  }

  /** The channel between instances went down (bypass, forget) or came back (start afresh). */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate({ all: true });
  }
}
