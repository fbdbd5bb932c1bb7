import type { FastifyInstance } from 'fastify';
import type { Database } from '#db/client';
import type { Config } from '../../config';
import { HeldByKey } from '../../lib/held-per-member';
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

/**
 * Recently resolved sessions, by token hash, in this process (docs/decisions/session-cache.md),
 * with the rules every held copy keeps (lib/held-per-member.ts: TTL, the generation that
 * refuses a read from before a change, nothing served or kept while the channel is down).
 * An entry is only ever a shortcut to "the database said this session was live": the caller
 * still checks the absolute and idle limits against the clock on every hit, and an entry that
 * looks ended sends it back to the database. A sign-out drops its session; a password or role
 * change, every session of the account.
 */
export class SessionCache<T extends CachedSession & object> extends HeldByKey<T> {
  /** Entries held (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets one token (it was found ended). */
  delete(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  /** Rare (sign-outs, password and role changes): a scan is fine. Popup and family changes are not the sessions'. */
  protected dropped(change: CacheChange): string[] | undefined {
    if (!('sessionId' in change) && !('userId' in change)) return undefined;
    const doomed: string[] = [];
    for (const [key, { value }] of this.entries.entries()) {
      if ('sessionId' in change ? value.session.id === change.sessionId : value.session.userId === change.userId) doomed.push(key);
    }
    return doomed;
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
