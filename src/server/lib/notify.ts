import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type DbOrTx, pgArray } from '#db/client';
import { preparedStatement } from './prepared';

/**
 * Changes to what server instances hold in memory, between instances
 * (docs/decisions/session-cache.md). Each instance keeps recently resolved sessions
 * (modules/auth/session-cache.ts), the popups that are on (modules/popups/live-popups.ts),
 * members' states of them, their first shows and enrolled members' audience facts
 * (modules/popups/member-popup-states.ts) and members' family lists
 * (modules/members/members.service.ts); whatever ends a session or changes what a cached one
 * says (sign-out, revocation, a new password, a role, the second factor, a verified address),
 * any change to a popup, a member's show, snooze or completion, and a change to their family,
 * is announced after its transaction commits, and every instance drops what it holds of it
 * (the instance that wrote a member's own change may keep their copy with the write in it:
 * `announcingWrite`'s `through`).
 *
 * - in this process, at once (announceChange runs the local listeners before it returns);
 * - to the other processes on one channel: Redis pub/sub when REDIS_URL is set (the service
 *   instances already share for their counters), else PostgreSQL LISTEN/NOTIFY when
 *   DATABASE_URL is set, else none (the embedded database has one process by construction).
 *
 * A channel that is down says so (`live` false) and the cache is bypassed until it is back.
 */

/**
 * What changed: one session, every session of a user, the popups, one member's states of the
 * popups or family members (user id), or anything (after a gap in the channel).
 */
export type CacheChange = { sessionId: string } | { userId: string } | { popups: true } | { popupStates: string } | { family: string } | { all: true };

/** The PostgreSQL channel and Redis channel the instances publish on and listen to. */
export const PG_CHANNEL = 'wellhaven_sessions';
export const REDIS_CHANNEL = 'wellhaven:sessions';
/** The listening connection's name (PostgreSQL application_name, Redis CLIENT SETNAME), for operators. */
export const LISTENER_NAME = 'wellhaven-sessions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeChange(change: CacheChange, origin: string): string {
  if ('sessionId' in change) return JSON.stringify({ o: origin, s: change.sessionId });
  if ('userId' in change) return JSON.stringify({ o: origin, u: change.userId });
  if ('popups' in change) return JSON.stringify({ o: origin, p: true });
  if ('popupStates' in change) return JSON.stringify({ o: origin, ps: change.popupStates });
  if ('family' in change) return JSON.stringify({ o: origin, f: change.family });
  return JSON.stringify({ o: origin, all: true });
}

/** A message off the channel; undefined for anything malformed (it is not ours to trust). */
export function decodeChange(payload: string): { origin: string; change: CacheChange } | undefined {
  let m: unknown;
  try {
    m = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof m !== 'object' || m === null) return undefined;
  const { o, s, u, p, ps, f, all } = m as Record<string, unknown>;
  const origin = typeof o === 'string' ? o : '';
  if (typeof s === 'string' && UUID.test(s)) return { origin, change: { sessionId: s } };
  if (typeof u === 'string' && UUID.test(u)) return { origin, change: { userId: u } };
  if (p === true) return { origin, change: { popups: true } };
  if (typeof ps === 'string' && UUID.test(ps)) return { origin, change: { popupStates: ps } };
  if (typeof f === 'string' && UUID.test(f)) return { origin, change: { family: f } };
  if (all === true) return { origin, change: { all: true } };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Who hears an announcement, per database handle. Everything in a process that writes through
// the same handle (the app's services, the operator commands, the start-up administrator) is
// one instance: its caches hear a change at once, the channel carries it to the others.

type Listener = (change: CacheChange) => void;
interface Hub {
  listeners: Set<Listener>;
  publisher?: ChangePublisher;
  onPublishError?: (err: unknown) => void;
}
const hubs = new WeakMap<object, Hub>();
const hubOf = (db: object): Hub => {
  let hub = hubs.get(db);
  if (!hub) {
    hub = { listeners: new Set() };
    hubs.set(db, hub);
  }
  return hub;
};

/** Calls `listener` for every change announced through `db`; returns the unsubscribe. */
export function onAnnouncedChange(db: DbOrTx, listener: Listener): () => void {
  const hub = hubOf(db);
  hub.listeners.add(listener);
  return () => hub.listeners.delete(listener);
}

/** Sends changes announced through `db` to the other processes; returns the detach. */
export function setChangePublisher(db: DbOrTx, publisher: ChangePublisher, onError?: (err: unknown) => void): () => void {
  const hub = hubOf(db);
  hub.publisher = publisher;
  hub.onPublishError = onError;
  return () => {
    if (hub.publisher === publisher) {
      delete hub.publisher;
      delete hub.onPublishError;
    }
  };
}

/**
 * Call AFTER the transaction that made the change has committed, with the database handle
 * (not the transaction): this process's caches drop the entries before it returns, and the
 * channel carries the change to the other instances. A failed publish is reported, never
 * thrown: the change itself is committed, and the other instances' entries expire with the
 * cache's TTL at the latest.
 */
export async function announceChange(db: DbOrTx, change: CacheChange): Promise<void> {
  const hub = hubs.get(db);
  if (!hub) return;
  for (const listener of hub.listeners) listener(change);
  if (!hub.publisher) return;
  try {
    await hub.publisher.publish(change);
  } catch (err) {
    hub.onPublishError?.(err);
  }
}

/**
 * Runs `write`, then announces `change` through `db` when it changed something: when
 * `changed(result)` holds (by default, always), or when it threw, since it may have committed
 * before the failure reached the caller. `write` commits its own transaction. `through`, when
 * given, makes the announcement of a write that changed something, with what it wrote (a copy
 * that keeps the writer's entry through their own write: `HeldPerMember.keepThrough`).
 */
export async function announcingWrite<T>(
  db: DbOrTx,
  change: CacheChange,
  write: () => Promise<T>,
  changed: (result: T) => boolean = () => true,
  through?: (result: T, announce: () => Promise<void>) => Promise<void>,
): Promise<T> {
  let result: T;
  try {
    result = await write();
  } catch (err) {
    await announceChange(db, change);
    throw err;
  }
  if (!changed(result)) return result;
  let announced = false;
  const announce = () => {
    announced = true;
    return announceChange(db, change);
  };
  try {
    await (through ? through(result, announce) : announce());
  } finally {
    // A `through` that failed, or forgot, before announcing: the change is announced all the same.
    if (!announced) await announceChange(db, change);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Channels.

export interface ChangePublisher {
  publish(change: CacheChange): Promise<void>;
}

export interface ChangeChannel extends ChangePublisher {
  readonly kind: 'local' | 'postgres' | 'redis';
  /** True while changes published by other instances are known to arrive here. */
  readonly live: boolean;
  close(): Promise<void>;
}

export interface ChannelOptions {
  redisUrl?: string | undefined;
  databaseUrl?: string | undefined;
  /** The database handle, for publishing with pg_notify (PostgreSQL without Redis). */
  db: DbOrTx;
  /** A change published by another instance. */
  onChange(change: CacheChange): void;
  /** The channel went down (false) or came back (true). */
  onLive?(live: boolean): void;
  onError?(err: unknown, what: string): void;
  /** How often a live listening connection is checked (ms); a dead one turns the channel down. */
  heartbeatMs?: number;
}

/** The channel the configuration calls for (see the module comment for the order). */
export function openChangeChannel(options: ChannelOptions): ChangeChannel {
  if (options.redisUrl) return new RedisChangeChannel(options.redisUrl, options);
  if (options.databaseUrl) return new PgChangeChannel(options.databaseUrl, options);
  return { kind: 'local', live: true, publish: async () => {}, close: async () => {} };
}

/**
 * A publisher alone, for a process that caches nothing (the operator CLI): the same channel the
 * servers listen to, chosen by the same rule. Undefined for the embedded database, which no
 * server can hold open while the CLI does.
 */
export function openChangePublisher(options: { redisUrl?: string | undefined; databaseUrl?: string | undefined; db: DbOrTx }): (ChangePublisher & { close(): Promise<void> }) | undefined {
  const origin = `cli-${randomUUID()}`;
  if (options.redisUrl) {
    const redis = new Redis(options.redisUrl, { lazyConnect: false, enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 });
    redis.on('error', () => undefined);
    return {
      publish: async (change) => {
        await redis.publish(REDIS_CHANNEL, encodeChange(change, origin));
      },
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (options.databaseUrl) {
    return { publish: (change) => pgNotifyAll(options.db, [encodeChange(change, origin)]), close: async () => {} };
  }
  return undefined;
}

/** At most this many changes in one NOTIFY statement (each payload is well under 100 bytes). */
const NOTIFY_BATCH = 100;

/**
 * Several notifications in one prepared statement, in the order given: one commit, one wake-up
 * of each listener.
 */
async function pgNotifyAll(db: DbOrTx, payloads: string[]): Promise<void> {
  await preparedStatement(db, 'notify_all', () => sql`select pg_notify(${PG_CHANNEL}, payload) from unnest(${sql.placeholder('payloads')}::text[]) as payload`).execute({
    payloads: pgArray(payloads),
  });
}

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 2000;

/** Shared by both channels: the live flag, the heartbeat, the origin filter. */
abstract class ListeningChannel implements ChangeChannel {
  abstract readonly kind: 'postgres' | 'redis';
  protected readonly origin = randomUUID();
  protected closed = false;
  private isLive = false;
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(protected readonly options: ChannelOptions) {
    this.heartbeat = setInterval(() => {
      if (this.isLive) void this.check();
    }, options.heartbeatMs ?? 2000);
    this.heartbeat.unref();
  }

  get live(): boolean {
    return this.isLive;
  }

  abstract publish(change: CacheChange): Promise<void>;
  /** Rejects when the listening connection does not answer in time. */
  protected abstract ping(): Promise<void>;
  /** The listening connection is dead or silent: drop it and reconnect (the flag is already down). */
  protected abstract reconnect(): void;
  protected abstract disconnect(): Promise<void>;

  protected deliver(payload: string) {
    const message = decodeChange(payload);
    if (message && message.origin !== this.origin) this.options.onChange(message.change);
  }

  protected setLive(live: boolean) {
    if (this.isLive === live || (live && this.closed)) return;
    this.isLive = live;
    this.options.onLive?.(live);
  }

  /** Messages may have been lost: the cache is bypassed from now until listening works again. */
  protected lost(err?: unknown) {
    if (this.closed) return;
    if (err !== undefined) this.options.onError?.(err, `session channel (${this.kind})`);
    this.setLive(false);
    this.reconnect();
  }

  private async check() {
    try {
      await this.ping();
    } catch (err) {
      this.lost(err);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.isLive = false;
    await this.disconnect().catch(() => undefined);
  }
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });

/** LISTEN on a connection of its own (reconnected with back-off); NOTIFY through the app's pool. */
class PgChangeChannel extends ListeningChannel {
  readonly kind = 'postgres' as const;
  private client: pg.Client | undefined;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    options: ChannelOptions,
  ) {
    super(options);
    this.listen();
  }

  /**
   * Each NOTIFY is a statement and a commit of its own (PostgreSQL serialises notifying
   * commits). Changes announced while one is on its way go together in the next, one
   * statement for all of them: the first change of a quiet moment is sent at once, one
   * announced meanwhile waits for the one on its way (a round trip at most), and under load
   * the statements per change fall (stop 38: 205 of the load bench's 733 statements a second
   * at 500 req/s were NOTIFYs, one per change). A statement that fails fails each change in it,
   * and each is reported as a failed publish is (`announceChange`).
   */
  publish(change: CacheChange): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.outgoing.push({ payload: encodeChange(change, this.origin), resolve, reject });
      if (!this.sending) void this.send();
    });
  }

  private readonly outgoing: { payload: string; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private sending = false;

  private async send() {
    this.sending = true;
    while (this.outgoing.length > 0) {
      const batch = this.outgoing.splice(0, NOTIFY_BATCH);
      try {
        await pgNotifyAll(this.options.db, batch.map((m) => m.payload));
        for (const m of batch) m.resolve();
      } catch (err) {
        for (const m of batch) m.reject(err);
      }
    }
    this.sending = false;
  }

  private listen() {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 2000, keepAlive: true, application_name: LISTENER_NAME });
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel === PG_CHANNEL && msg.payload) this.deliver(msg.payload);
    });
    // An error or end of this connection (server restart, network) is a gap: bypass and reconnect.
    const gone = (err?: unknown) => {
      if (this.client === client) this.lost(err ?? new Error('listening connection ended'));
    };
    client.on('error', gone);
    client.on('end', () => gone());
    client
      .connect()
      .then(() => client.query(`listen ${PG_CHANNEL}`))
      .then(
        () => {
          if (this.client !== client) return;
          this.retryMs = RECONNECT_MIN_MS;
          this.setLive(true);
        },
        (err: unknown) => gone(err),
      );
  }

  protected reconnect() {
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => undefined);
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.closed) this.listen();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }

  protected async disconnect(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end();
  }

  protected async ping(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('not connected');
    await withTimeout(client.query('select 1'), 1000, 'listening connection');
  }
}

/** SUBSCRIBE on a connection of its own; PUBLISH on another, which fails at once while Redis is away. */
class RedisChangeChannel extends ListeningChannel {
  readonly kind = 'redis' as const;
  private readonly sub: Redis;
  private readonly pub: Redis;

  constructor(url: string, options: ChannelOptions) {
    super(options);
    // ioredis reconnects the subscriber by itself; every reconnect is a gap, so it subscribes
    // again and only then counts as live (autoResubscribe would not tell us when it is done).
    this.sub = new Redis(url, {
      connectionName: LISTENER_NAME,
      autoResubscribe: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      retryStrategy: (times) => Math.min(RECONNECT_MIN_MS * 2 ** Math.min(times - 1, 5), RECONNECT_MAX_MS),
    });
    this.pub = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 });
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === REDIS_CHANNEL) this.deliver(message);
    });
    this.sub.on('close', () => this.setLive(false));
    this.sub.on('ready', () => {
      this.sub.subscribe(REDIS_CHANNEL).then(
        () => {
          if (this.sub.status === 'ready') this.setLive(true);
        },
        (err: unknown) => this.lost(err),
      );
    });
  }

  async publish(change: CacheChange): Promise<void> {
    await this.pub.publish(REDIS_CHANNEL, encodeChange(change, this.origin));
  }

  protected reconnect() {
    // Drops a connection the heartbeat found silent; ioredis connects again, 'ready' resubscribes.
    this.sub.disconnect(true);
  }

  protected async disconnect(): Promise<void> {
    this.sub.disconnect();
    await this.pub.quit().catch(() => this.pub.disconnect());
  }

  protected async ping(): Promise<void> {
    await withTimeout(this.sub.ping(), 1000, 'subscriber connection');
  }
}

/**
 * For a process that changes sessions without serving them (the operator CLI, the start-up
 * administrator before the app is built): announcements through `db` are published on the
 * servers' channel until the returned function is called.
 */
export function publishChangesFrom(db: DbOrTx, options: { redisUrl?: string | undefined; databaseUrl?: string | undefined }, onError?: (err: unknown) => void): () => Promise<void> {
  const publisher = openChangePublisher({ ...options, db });
  if (!publisher) return async () => {};
  const detach = setChangePublisher(db, publisher, onError);
  return async () => {
    detach();
    await publisher.close();
  };
}
