import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Database } from '#db/client';
import type { Config } from '../../config';
import { type CacheChange, onAnnouncedChange, openChangeChannel, setChangePublisher } from '../../lib/notify';
import type { AuthenticatedSession } from './auth.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The session cache (tests read whether it is on: `enabled`). */
    sessionCache: SessionCache<AuthenticatedSession>;
  }
}

/** What the cache needs to know of a resolved session to drop it when it changes. */
export interface CachedSession {
  session: { id: string; userId: string };
}

export interface SessionCacheOptions {
  /** How long an entry may be served without asking the database again (ms); 0 turns the cache off. */
  ttlMs: number;
  /** Most sessions held; past it the least recently used go first. */
  max: number;
}

/**
 * Recently resolved sessions, by token hash, in this process (docs/decisions/session-cache.md).
 * An entry is only ever a shortcut to "the database said this session was live": the caller
 * still checks the absolute and idle limits against the clock on every hit, and an entry that
 * looks ended sends it back to the database. Changes announced through notify.ts drop entries
 * at once; the TTL bounds what a lost announcement could leave behind.
 *
 * Two races are closed here:
 * - a lookup that read the database before a change committed and stores its row after the
 *   change was announced: every invalidation moves a generation on, and `set` refuses a row
 *   read under an older generation (`stamp()` is taken before the read);
 * - a gap in the channel between instances: while it is down the cache answers nothing and
 *   stores nothing (`setLive(false)`), and everything held is forgotten when it comes back.
 *
 * Times come from the caller's clock (the app's injected clock), so tests move them by hand.
 */
export class SessionCache<T extends CachedSession> {
  private readonly entries: LRUCache<string, { value: T; cachedAt: number }>;
  private generation = 0;
  private live = true;

  constructor(private readonly options: SessionCacheOptions) {
    this.entries = new LRUCache({ max: Math.max(1, options.max) });
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.live;
  }

  /** Entries held (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  /** The session cached for this token hash, if any and fresh; never while the channel is down. */
  get(tokenHash: string, now: Date): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    const age = now.getTime() - entry.cachedAt;
    // A clock set back counts as stale too.
    if (age < 0 || age >= this.options.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.value;
  }

  /** Take before reading the database; pass to `set` with what was read. */
  stamp(): number {
    return this.generation;
  }

  /**
   * Holds `value` (frozen: one object serves many requests) unless a change was announced since
   * `stamp` was taken, or the channel is down.
   */
  set(tokenHash: string, value: T, stamp: number, now: Date): void {
    if (!this.enabled || stamp !== this.generation) return;
    for (const part of Object.values(value)) if (part && typeof part === 'object') Object.freeze(part);
    this.entries.set(tokenHash, { value: Object.freeze(value), cachedAt: now.getTime() });
  }

  /** Whether an entry is held for this token hash, fresh or not (tests: has a change arrived yet?). */
  holds(tokenHash: string): boolean {
    return this.entries.has(tokenHash);
  }

  /** Forgets one token (it was found ended). */
  delete(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  /** Drops what `change` names. Rare (sign-outs, password and role changes): a scan is fine. */
  invalidate(change: CacheChange): void {
    if ('popups' in change || 'popupStates' in change || 'family' in change) return;
    this.generation += 1;
    if ('all' in change) {
      this.entries.clear();
      return;
    }
    const doomed: string[] = [];
    for (const [key, { value }] of this.entries.entries()) {
      if ('sessionId' in change ? value.session.id === change.sessionId : value.session.userId === change.userId) doomed.push(key);
    }
    for (const key of doomed) this.entries.delete(key);
  }

  /** The channel between instances went down (bypass, forget) or came back (start afresh). */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate({ all: true });
  }
}

/** Another copy of database rows held in memory, kept honest by the same channel (modules/popups/live-popups.ts). */
export interface HeldCopy {
  invalidate(change: CacheChange): void;
  setLive(live: boolean): void;
}

/**
 * The app's session cache and the channel that keeps it, and the other `copies`, honest
 * across instances: changes announced in this process (announceChange on the app's database
 * handle) drop entries at once and are published; changes published by other instances drop
 * them on arrival; every copy is bypassed while the channel is down. Closed with the app.
 */
export function registerSessionCache(app: FastifyInstance, deps: { config: Config; database: Database; copies?: readonly HeldCopy[] }): SessionCache<AuthenticatedSession> {
  const { config, database } = deps;
  const cache = new SessionCache<AuthenticatedSession>({ ttlMs: config.SESSION_CACHE_TTL_MS, max: config.SESSION_CACHE_MAX });
  const held: readonly HeldCopy[] = [cache, ...(deps.copies ?? [])];
  const invalidate = (change: CacheChange) => {
    for (const copy of held) copy.invalidate(change);
  };
  const setLive = (live: boolean) => {
    for (const copy of held) copy.setLive(live);
  };
  const channel = openChangeChannel({
    redisUrl: config.REDIS_URL,
    databaseUrl: config.DATABASE_URL,
    db: database.db,
    onChange: (change) => {
      invalidate(change);
      // The fault test reads these two lines' times to measure how long a change takes to reach an instance.
      app.log.debug({ sessionChange: change }, 'session change received');
    },
    onLive: (live) => {
      setLive(live);
      if (live) app.log.info('session channel listening: the session cache is on');
      else app.log.warn('session channel down: sessions and popups are looked up in the database until it is back');
    },
    onError: (err, what) => app.log.debug({ err }, what),
  });
  // Until a listening channel has connected, nothing is cached (a gap is a gap).
  setLive(channel.live);
  app.decorate('sessionCache', cache);
  const unlisten = onAnnouncedChange(database.db, invalidate);
  const publisher = {
    publish: (change: CacheChange) => {
      app.log.debug({ sessionChange: change }, 'session change published');
      return channel.publish(change);
    },
  };
  const detach = setChangePublisher(database.db, publisher, (err) => app.log.warn({ err }, 'change not published: other instances see it within SESSION_CACHE_TTL_MS (sessions, family lists) or POPUPS_CACHE_TTL_MS (popups, popup states)'));
  app.addHook('onClose', async () => {
    unlisten();
    detach();
    await channel.close();
  });
  return cache;
}
