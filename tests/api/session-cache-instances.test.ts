/**
 * Two instances with session caches on one database, talking over the real channel: Redis
 * pub/sub (REDIS_URL, default the local Redis) on the embedded project, PostgreSQL
 * LISTEN/NOTIFY on the PostgreSQL project. Each instance gets a database handle of its own
 * (drizzle over the same connection or pool), so nothing reaches the other in-process: only
 * the channel does. A change on A is refused by B within 50 ms (sessions, popups, a member's
 * popup states, first shows, audience facts and family list); with the channel down B asks the database on every request,
 * and caches again once it is back.
 * (Across real processes: `npm run test:instances`.)
 */
import type { FastifyInstance } from 'fastify';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, Db } from '../../src/db/client';
import * as schema from '../../src/db/schema';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { MemoryCounterStore } from '../../src/server/lib/counter-store';
import { sha256Hex } from '../../src/server/lib/crypto';
import { LISTENER_NAME } from '../../src/server/lib/notify';
import { statementCounter } from './support/statements';
import { type TestApp, asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember } from './support/test-app';

const onPostgres = process.env.TEST_DB === 'postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let t: TestApp;
let a: FastifyInstance;
let b: FastifyInstance;
/** Statements B sends to the database. */
let bStatements: ReturnType<typeof statementCounter>;
let dbUrl = '';

/** Another handle on the same database, as another process would have. */
function twin(database: Database): Database {
  const client = (database.db as unknown as { $client: unknown }).$client;
  const db = (onPostgres ? drizzleNodePg(client as pg.Pool, { schema }) : drizzlePglite(client as PGlite, { schema })) as unknown as Db;
  return { ...database, db };
}

async function instance(database: Database): Promise<FastifyInstance> {
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      SERVE_CLIENT: '0',
      AUTH_RATE_LIMIT_PER_IP: '10000',
      POPUPS_NEXT_RATE_LIMIT_PER_MINUTE: '10000',
      AUDIT_HMAC_SECRET: 'test-secret-test-secret',
      ...(onPostgres ? { DATABASE_URL: dbUrl } : { REDIS_URL: redisUrl }),
    }),
    database,
    clock: t.clock,
    counters: new MemoryCounterStore(t.clock),
    logger: false,
  });
  await app.ready();
  return app;
}

beforeAll(async () => {
  t = await createTestApp();
  if (onPostgres) dbUrl = ((t.database.db as unknown as { $client: pg.Pool }).$client.options as { connectionString: string }).connectionString;
  a = await instance(twin(t.database));
  const bDatabase = twin(t.database);
  bStatements = statementCounter(bDatabase.db);
  b = await instance(bDatabase);
  // Both listening before the first case.
  await vi.waitFor(() => expect(a.sessionCache.enabled && b.sessionCache.enabled).toBe(true), { timeout: 5000, interval: 10 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await t?.close();
});

const me = (app: FastifyInstance, token: string) => app.inject(asUser(token, { method: 'GET', url: '/api/auth/me' }));
const yieldToIo = () => new Promise((resolve) => setImmediate(resolve));

/**
 * How long after `change` resolved `app` still held `token` in its cache (checked between turns
 * of the event loop, so the channel's message is read as soon as it is there); then `app`
 * must refuse it. The refusal itself asks the database, whose time is not the cache's.
 */
async function msUntilRefused(app: FastifyInstance, token: string, change: () => Promise<unknown>): Promise<number> {
  const tokenHash = sha256Hex(token);
  expect(app.sessionCache.holds(tokenHash)).toBe(true);
  await change();
  const started = performance.now();
  while (app.sessionCache.holds(tokenHash) && performance.now() - started < 2000) await yieldToIo();
  const ms = performance.now() - started;
  expect((await me(app, token)).statusCode).toBe(401);
  return ms;
}

/** Statements B's `fn` cost. */
async function bCost(fn: () => Promise<unknown>): Promise<number> {
  return (await bStatements.during(fn)).length;
}

/** How long after `change` resolved `held()` stayed true on B (checked between turns of the event loop, so the channel's message is read as soon as it is there). */
async function msWhileHeld(held: () => boolean, change: () => Promise<unknown>): Promise<number> {
  expect(held()).toBe(true);
  await change();
  const started = performance.now();
  while (held() && performance.now() - started < 2000) await yieldToIo();
  return performance.now() - started;
}

/** A popup on A, live from a minute ago for a day, for every employer: its id. */
async function createPopup(admin: Record<string, string>, fields: { title: string; target: string; priority: number; maxSnoozes?: number; audience?: object; dailyCap?: number }): Promise<string> {
  const now = t.clock().getTime();
  const res = await a.inject({
    method: 'POST',
    url: '/api/admin/popups',
    headers: admin,
    payload: { message: 'Across instances.', startAt: new Date(now - 60_000).toISOString(), endAt: new Date(now + 86_400_000).toISOString(), isActive: true, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

/** Kills B's (and A's) listening connection from outside, as a restart or a network cut would. */
async function cutListeners(): Promise<void> {
  if (onPostgres) {
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()', [LISTENER_NAME]);
    } finally {
      await admin.end();
    }
    return;
  }
  const admin = new Redis(redisUrl);
  try {
    const list = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
    // Only the session listeners (the API tests' only ones on this Redis; the fault scripts run their own).
    const ours = list.split('\n').filter((line) => line.includes(`name=${LISTENER_NAME} `));
    for (const line of ours) {
      const id = /(?:^|\s)id=(\d+)/.exec(line)?.[1];
      if (id) await admin.call('CLIENT', 'KILL', 'ID', id);
    }
  } finally {
    await admin.quit();
  }
}

describe(`two instances, sessions cached, over ${onPostgres ? 'PostgreSQL LISTEN/NOTIFY' : 'Redis pub/sub'}`, () => {
  it('serves a session from memory on both', async () => {
    const m = await signedInMember(a);
    for (const app of [a, b]) expect((await me(app, m.token)).statusCode).toBe(200);
    expect(await bCost(() => me(b, m.token))).toBe(0);
  });

  it('refuses on B within 50 ms a session signed out on A', async () => {
    const m = await signedInMember(a);
    await me(a, m.token);
    await me(b, m.token);
    expect(await bCost(() => me(b, m.token))).toBe(0);
    const ms = await msUntilRefused(b, m.token, async () => expect((await a.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(200));
    expect(ms).toBeLessThanOrEqual(50);
  });

  it('refuses on B within 50 ms the other sessions of a password changed on A', async () => {
    const m = await signedInMember(a);
    const other = (await b.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } })).json().token as string;
    await me(b, other);
    expect(await bCost(() => me(b, other))).toBe(0);
    const ms = await msUntilRefused(b, other, async () =>
      expect((await a.inject(asUser(m.token, { method: 'POST', url: '/api/me/password', payload: { currentPassword: m.password, newPassword: 'another sturdy passphrase' } }))).statusCode).toBe(200),
    );
    expect(ms).toBeLessThanOrEqual(50);
    expect((await me(b, m.token)).statusCode).toBe(200);
  });

  it('drops on B within 50 ms the popups it holds when A creates or switches one off', async () => {
    const admin = await freshSessionHeaders(t, (await signedInAdmin(t, { elevate: false })).id, { elevated: true });
    const m = await signedInMember(a);
    const nextId = async (app: FastifyInstance) => {
      const res = await app.inject(asUser(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=home' }));
      expect([200, 204], res.body).toContain(res.statusCode);
      return res.statusCode === 204 ? null : (res.json() as { id: string }).id;
    };
    const create = (title: string, priority: number) => createPopup(admin, { title, target: 'home', priority });
    const msUntilDropped = (id: string, change: () => Promise<unknown>) => msWhileHeld(() => b.livePopups.holds(id), change);
    const first = await create('Across instances, first', 5);
    // B loads once the creation's announcement has reached it (a load begun before is not kept).
    await vi.waitFor(async () => {
      expect(await nextId(b)).toBe(first);
      expect(b.livePopups.holds(first)).toBe(true);
    }, { timeout: 2000, interval: 20 });
    // The show B counted dropped the member's states (how often the wait above asked varies);
    // read once more, they are held too: asking again costs B no statement at all.
    await nextId(b);
    expect(await bCost(() => nextId(b))).toBe(0);
    let second = '';
    expect(await msUntilDropped(first, async () => (second = await create('Across instances, second', 9)))).toBeLessThanOrEqual(50);
    expect(await nextId(b)).toBe(second);
    expect(b.livePopups.holds(second)).toBe(true);
    expect(await msUntilDropped(second, async () => expect((await a.inject({ method: 'POST', url: `/api/admin/popups/${second}/deactivate`, headers: admin })).statusCode).toBe(200))).toBeLessThanOrEqual(50);
    expect(await nextId(b)).toBe(first);
  });

  it('drops on B within 50 ms the popup states of a member who snoozes or completes on A', async () => {
    const admin = await freshSessionHeaders(t, (await signedInAdmin(t, { elevate: false })).id, { elevated: true });
    const m = await signedInMember(a);
    const id = await createPopup(admin, { title: 'Across instances, snoozed', target: 'wealth', priority: 10, maxSnoozes: 2 });
    const next = (app: FastifyInstance) => app.inject(asUser(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=wealth' }));
    const active = async (app: FastifyInstance) => ((await app.inject(asUser(m.token, { method: 'GET', url: '/api/popups/active' }))).json() as { popups: { id: string; snoozeCount: number }[] }).popups;
    await vi.waitFor(async () => expect((await next(b)).json()).toMatchObject({ id }), { timeout: 2000, interval: 20 });
    // Held on B: the member's states, the popups and the session cost no statement.
    await next(b);
    expect(await bCost(() => next(b))).toBe(0);
    expect(b.memberPopupStates.holds(m.id)).toBe(true);
    const msUntilDropped = (change: () => Promise<unknown>) => msWhileHeld(() => b.memberPopupStates.holds(m.id), change);
    expect(await msUntilDropped(async () => expect((await a.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${id}/snooze` }))).statusCode).toBe(200))).toBeLessThanOrEqual(50);
    // B now answers from the snooze: not shown again for now, and counted once.
    expect((await next(b)).statusCode).toBe(204);
    expect((await active(b)).find((p) => p.id === id)?.snoozeCount).toBe(1);
    expect(b.memberPopupStates.holds(m.id)).toBe(true);
    expect(await msUntilDropped(async () => expect((await a.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${id}/complete` }))).statusCode).toBe(200))).toBeLessThanOrEqual(50);
    expect((await active(b)).some((p) => p.id === id)).toBe(false);
  });

  it('keeps a member’s states held when a call writes nothing (a show another of their sessions already counted)', async () => {
    const admin = await freshSessionHeaders(t, (await signedInAdmin(t, { elevate: false })).id, { elevated: true });
    const m = await signedInMember(a);
    const id = await createPopup(admin, { title: 'Across instances, two devices', target: 'health', priority: 10 });
    // A second device signs in later and is shown the popup first.
    const later = (await a.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } })).json().token as string;
    const next = (token: string) => b.inject(asUser(token, { method: 'GET', url: '/api/popups/next?context=login&route=health' }));
    await vi.waitFor(async () => expect((await next(later)).json()).toMatchObject({ id }), { timeout: 2000, interval: 20 });
    // The first device, signed in before that show: answered the popup, its show not counted again.
    expect((await next(m.token)).json()).toMatchObject({ id });
    expect(b.memberPopupStates.holds(m.id)).toBe(true);
    // Each further call: the show's conditional write (a no-op), no read of the states, and nothing announced.
    for (let i = 0; i < 3; i += 1) expect(await bCost(() => next(m.token))).toBe(1);
    expect(b.memberPopupStates.holds(m.id)).toBe(true);
  });

  it('drops on B within 50 ms the family list of a member who changes it on A', async () => {
    const m = await signedInMember(a);
    const family = async (app: FastifyInstance) => {
      const res = await app.inject(asUser(m.token, { method: 'GET', url: '/api/family-members' }));
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { familyMembers: { id: string; firstName: string }[] }).familyMembers;
    };
    expect(await family(b)).toEqual([]);
    // Held on B: the list and the session cost no statement.
    expect(await bCost(() => family(b))).toBe(0);
    const msUntilDropped = (change: () => Promise<unknown>) => msWhileHeld(() => b.familyLists.holds(m.id), change);
    let added = '';
    expect(
      await msUntilDropped(async () => {
        const res = await a.inject(asUser(m.token, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Rosa', lastName: 'Across', dob: '2015-04-02', relationship: 'Child' } }));
        expect(res.statusCode, res.body).toBe(201);
        added = (res.json() as { id: string }).id;
      }),
    ).toBeLessThanOrEqual(50);
    expect((await family(b)).map((f) => f.firstName)).toEqual(['Rosa']);
    expect(await bCost(() => family(b))).toBe(0);
    expect(await msUntilDropped(async () => expect((await a.inject(asUser(m.token, { method: 'DELETE', url: `/api/family-members/${added}` }))).statusCode).toBe(204))).toBeLessThanOrEqual(50);
    expect(await family(b)).toEqual([]);
  });

  it('drops on B within 50 ms the audience facts of a member who changes their family on A', async () => {
    const admin = await freshSessionHeaders(t, (await signedInAdmin(t, { elevate: false })).id, { elevated: true });
    const m = await signedInMember(a);
    // The only popup for the profile screen in this file.
    const id = await createPopup(admin, { title: 'Across instances, families', target: 'profile', priority: 10, audience: { companyIds: [], enrolledOnly: false, withFamilyOnly: true } });
    const nextId = async (app: FastifyInstance) => {
      const res = await app.inject(asUser(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=profile' }));
      expect([200, 204], res.body).toContain(res.statusCode);
      return res.statusCode === 204 ? null : (res.json() as { id: string }).id;
    };
    // B holds the popup and the member's facts (enrolled, no family): nothing for them, at no statement.
    await vi.waitFor(async () => {
      expect(await nextId(b)).toBeNull();
      expect(b.livePopups.holds(id) && b.audienceFacts.holds(m.id)).toBe(true);
    }, { timeout: 2000, interval: 20 });
    expect(await bCost(() => nextId(b))).toBe(0);
    const addFamily = async () => {
      const res = await a.inject(asUser(m.token, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Ana', lastName: 'Across', dob: '2016-05-03', relationship: 'Child' } }));
      expect(res.statusCode, res.body).toBe(201);
    };
    expect(await msWhileHeld(() => b.audienceFacts.holds(m.id), addFamily)).toBeLessThanOrEqual(50);
    expect(await nextId(b)).toBe(id);
  });

  it('drops on B within 50 ms the first shows it holds of a member at a cap, when the member writes a state on A', async () => {
    const admin = await freshSessionHeaders(t, (await signedInAdmin(t, { elevate: false })).id, { elevated: true });
    const m = await signedInMember(a);
    // Each with its own cap of one new popup a day (the families popup above is not for this member).
    const first = await createPopup(admin, { title: 'Across instances, capped first', target: 'profile', priority: 9, dailyCap: 1 });
    const second = await createPopup(admin, { title: 'Across instances, capped second', target: 'profile', priority: 8, dailyCap: 1 });
    const nextId = async (app: FastifyInstance) => {
      const res = await app.inject(asUser(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=profile' }));
      expect([200, 204], res.body).toContain(res.statusCode);
      return res.statusCode === 204 ? null : (res.json() as { id: string }).id;
    };
    await vi.waitFor(async () => expect(await nextId(b)).toBe(first), { timeout: 2000, interval: 20 });
    expect((await b.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${first}/complete` }))).statusCode).toBe(200);
    // The second would be a second new popup today: refused, and B holds the day's shows.
    expect(await nextId(b)).toBeNull();
    expect(b.memberShows.holds(m.id)).toBe(true);
    expect(await bCost(() => nextId(b))).toBe(0);
    const snoozeOnA = async () => expect((await a.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${second}/snooze` }))).statusCode).toBe(200);
    expect(await msWhileHeld(() => b.memberShows.holds(m.id), snoozeOnA)).toBeLessThanOrEqual(50);
  });

  it('bypasses the cache while the channel is down, and caches again once it is back', async () => {
    const m = await signedInMember(a);
    await me(b, m.token);
    expect(await bCost(() => me(b, m.token))).toBe(0);
    await cutListeners();
    await vi.waitFor(() => expect(b.sessionCache.enabled).toBe(false), { timeout: 3000, interval: 5 });
    // Down: every request asks the database (what was cached could be stale by now).
    for (let i = 0; i < 3; i += 1) expect(await bCost(async () => expect((await me(b, m.token)).statusCode).toBe(200))).toBe(1);
    // A sign-out while B cannot hear it is refused by B all the same.
    expect((await a.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(200);
    expect((await me(b, m.token)).statusCode).toBe(401);
    // Back: listening again (reconnected on its own), the cache serves again.
    await vi.waitFor(() => expect(b.sessionCache.enabled && a.sessionCache.enabled).toBe(true), { timeout: 5000, interval: 10 });
    const fresh = await signedInMember(a);
    await me(b, fresh.token);
    expect(await bCost(() => me(b, fresh.token))).toBe(0);
    const ms = await msUntilRefused(b, fresh.token, () => a.inject(asUser(fresh.token, { method: 'POST', url: '/api/auth/signout' })));
    expect(ms).toBeLessThanOrEqual(50);
  });
});
