/**
 * Refused sign-ins (rate limited, locked) write one login_audits row per caller, window and
 * result, with a count, not a row per attempt (issue 14; docs/decisions/rate-limits-and-lockout.md).
 * The first refusal of a window writes the row; later ones are counted in memory and written by
 * a flush (a timer, and the app's close), which these tests trigger by closing the app.
 */
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginAudits } from '../../src/db/schema';
import { createRefusedAttempts, refusedAttemptKey } from '../../src/server/modules/auth/refused-attempts';
import { type TestApp, type TestDatabase, createTestApp, newMember, openTestDatabase, registerMember, testClock } from './support/test-app';

/** Apps whose database a test reads after closing the app (the close writes the counts). */
let limited: TestApp;
let open: TestApp;
beforeAll(async () => {
  // A fast fake hasher: these tests are about the rows, not argon2id.
  limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '3' }, passwordHasher: fakeHasher });
  open = await createTestApp({ passwordHasher: fakeHasher });
  // Two databases to migrate: twice the usual hook time.
}, 120_000);
afterAll(async () => {
  for (const t of [limited, open]) {
    if (!t) continue;
    await t.app.close();
    await t.database.close().catch(() => undefined);
    await t.database.dropDatabase();
  }
});

const fakeHasher = {
  hash: async (password: string) => `fake$${password}`,
  verify: async (passwordHash: string, password: string) => passwordHash === `fake$${password}`,
};

const signIn = (t: TestApp, email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password }, remoteAddress, headers: { 'user-agent': 'refused-test' } });

const refusedRows = (t: TestApp, result: 'rate_limited' | 'locked') =>
  t.database.db.select().from(loginAudits).where(eq(loginAudits.result, result)).orderBy(asc(loginAudits.id));

const WINDOW_START = '2026-03-02T12:00:00.000Z';

describe('rate-limited sign-ins', () => {
  it('50 refused attempts in one window make one row counting 50; the next window a new row', async () => {
    const t = limited;
    const ip = '198.51.100.7';
    const attempt = () => signIn(t, newMember().email, 'wrong password!', ip);
    for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
    for (let i = 0; i < 50; i += 1) expect((await attempt()).statusCode).toBe(429);
    // The row is there from the first refusal on, whatever the flush has written so far.
    const during = await refusedRows(t, 'rate_limited');
    expect(during).toHaveLength(1);
    expect(during[0]!.dedupKey).toBe(`rate_limited:ip:198.51.100.0/24:${WINDOW_START}`);
    // Another address in the same /24 is its own client for the limit, but the same masked IP for the audit row.
    for (let i = 0; i < 4; i += 1) await signIn(t, newMember().email, 'wrong password!', '198.51.100.8');

    t.clock.advance(60_000);
    for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
    for (let i = 0; i < 5; i += 1) expect((await attempt()).statusCode).toBe(429);
    const refusedAt = t.clock();

    await t.app.close();
    const rows = await refusedRows(t, 'rate_limited');
    expect(rows.map((r) => [r.dedupKey, r.attempts])).toEqual([
      [`rate_limited:ip:198.51.100.0/24:${WINDOW_START}`, 51],
      ['rate_limited:ip:198.51.100.0/24:2026-03-02T12:01:00.000Z', 5],
    ]);
    expect(rows[0]).toMatchObject({ userId: null, ipMasked: '198.51.100.0/24', lastAttemptAt: new Date(WINDOW_START) });
    expect(rows[1]!.lastAttemptAt).toEqual(refusedAt);
    expect(rows[1]!.userAgentHash).toMatch(/^[0-9a-f]{64}$/);
    // Checked attempts keep a row each, with no key.
    const ordinary = await t.database.db.select().from(loginAudits).where(eq(loginAudits.result, 'unknown_email'));
    expect(ordinary).toHaveLength(3 + 3 + 3);
    expect(ordinary.every((r) => r.dedupKey === null && r.attempts === 1)).toBe(true);
  });
});

describe('locked sign-ins', () => {
  it('one row per account and window, counting every refused attempt; unknown emails per masked IP', async () => {
    const t = open;
    const m = await registerMember(t.app);
    for (let i = 0; i < 6; i += 1) expect((await signIn(t, m.email, 'wrong password!', '203.0.113.5')).statusCode).toBe(401);
    // The wait is 1 s and the clock stands still: every attempt is refused, from any address.
    for (let i = 0; i < 50; i += 1) expect((await signIn(t, m.email, m.password, i % 2 ? '203.0.113.5' : '2001:db8:9::1')).statusCode).toBe(429);

    const unknown = newMember().email;
    for (let i = 0; i < 6; i += 1) await signIn(t, unknown, 'wrong password!', '192.0.2.77');
    for (let i = 0; i < 10; i += 1) expect((await signIn(t, unknown, 'wrong password!', '192.0.2.77')).statusCode).toBe(429);

    // A quarter of an hour later: a new window, a new row (the 7th failure sets a 2 s wait).
    t.clock.advance(15 * 60 * 1000);
    expect((await signIn(t, m.email, 'wrong password!', '203.0.113.5')).statusCode).toBe(401);
    for (let i = 0; i < 3; i += 1) expect((await signIn(t, m.email, m.password, '203.0.113.5')).statusCode).toBe(429);

    await t.app.close();
    const rows = await refusedRows(t, 'locked');
    expect(rows.map((r) => [r.dedupKey, r.attempts, r.userId])).toEqual([
      [`locked:user:${m.id}:${WINDOW_START}`, 50, m.id],
      [`locked:ip:192.0.2.0/24:${WINDOW_START}`, 10, null],
      [`locked:user:${m.id}:2026-03-02T12:15:00.000Z`, 3, m.id],
    ]);
    // The account's row keeps where the first refused attempt came from.
    expect(rows[0]!.ipMasked).toBe('2001:db8:9::/48');
  });
});

describe('the refused-attempt counter', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
    await database?.dropDatabase();
  });
  beforeEach(async () => {
    await database.db.delete(loginAudits);
  });

  it('writes the first refusal at once and the rest only when flushed; instances add up', async () => {
    const clock = testClock();
    const refused = (flushEveryMs: number) => createRefusedAttempts({ db: database.db, clock, flushEveryMs });
    const [a, b] = [refused(3_600_000), refused(3_600_000)];
    const row = () => ({ result: 'rate_limited' as const, ipMasked: '203.0.113.0/24', userAgentHash: 'ua', timestamp: clock() });
    const { key } = refusedAttemptKey(row(), clock());
    const stored = async () => (await database.db.select().from(loginAudits).where(eq(loginAudits.dedupKey, key)))[0];

    for (let i = 0; i < 50; i += 1) {
      await a.record(row());
      clock.advance(100);
    }
    // 49 of the 50 did no database work: the row still counts only the first.
    expect((await stored())?.attempts).toBe(1);
    expect(a.stats()).toEqual({ keys: 1, pending: 49 });
    await a.flush();
    expect(await stored()).toMatchObject({ attempts: 50, lastAttemptAt: new Date(clock().getTime() - 100) });

    // A second instance counting the same key and window adds to the same row.
    for (let i = 0; i < 7; i += 1) await b.record(row());
    await Promise.all([a.close(), b.close()]);
    expect((await stored())?.attempts).toBe(57);
    const all = await database.db.select({ n: sql<number>`count(*)::int` }).from(loginAudits).where(and(isNotNull(loginAudits.dedupKey)));
    expect(all[0]!.n).toBe(1);
    expect(b.stats()).toEqual({ keys: 1, pending: 0 });
  });

  it('forgets windows once they ended and were written, and never more keys than its cap', async () => {
    const clock = testClock();
    const refused = createRefusedAttempts({ db: database.db, clock, flushEveryMs: 3_600_000, maxKeys: 2 });
    const row = (ip: string) => ({ result: 'rate_limited' as const, ipMasked: ip, userAgentHash: 'ua', timestamp: clock() });
    for (const ip of ['a', 'b', 'c']) await refused.record(row(ip));
    // Past maxKeys the keys with nothing to write go, the oldest first.
    expect(refused.stats()).toEqual({ keys: 2, pending: 0 });
    await refused.record(row('c'));
    // A forgotten key written again: one more statement, the same row.
    await refused.record(row('a'));
    clock.advance(60_000);
    await refused.flush();
    expect(refused.stats()).toEqual({ keys: 0, pending: 0 });
    const counts = await database.db.select({ ip: loginAudits.ipMasked, attempts: loginAudits.attempts }).from(loginAudits).orderBy(loginAudits.ipMasked);
    expect(counts).toEqual([
      { ip: 'a', attempts: 2 },
      { ip: 'b', attempts: 1 },
      { ip: 'c', attempts: 2 },
    ]);
    await refused.close();
  });

  it('keeps the counts while the database is away and writes them when it is back', async () => {
    const clock = testClock();
    let down = true;
    // The database as the counter sees it: every insert fails while `down`.
    const db = new Proxy(database.db, {
      get: (target, prop, receiver) => {
        if (prop === 'insert' && down) throw new Error('connection refused');
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const refused = createRefusedAttempts({ db, clock, flushEveryMs: 3_600_000 });
    const row = () => ({ result: 'locked' as const, userId: null, ipMasked: '192.0.2.0/24', userAgentHash: 'ua', timestamp: clock() });
    await expect(refused.record(row())).rejects.toThrow('connection refused');
    for (let i = 0; i < 4; i += 1) await refused.record(row());
    await expect(refused.flush()).rejects.toThrow('connection refused');
    expect(refused.stats()).toEqual({ keys: 1, pending: 5 });
    down = false;
    await refused.close();
    const rows = await database.db.select().from(loginAudits);
    expect(rows.map((r) => [r.dedupKey, r.attempts])).toEqual([[`locked:ip:192.0.2.0/24:${WINDOW_START}`, 5]]);
  });
});
