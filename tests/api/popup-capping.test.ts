/**
 * Issue 12: frequency capping and quiet hours, configured for the programme
 * (POPUPS_DAILY_CAP, POPUPS_QUIET_HOURS) and per popup, in the member's time zone (sent by
 * the browser at sign-in). Off by default: tests/api/popups.test.ts runs the spec's flow
 * without them.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, popups, sessions } from '../../src/db/schema';
import type { MemberPopup } from '../../src/shared/schemas/popups';
import { asUser, createTestApp, registerMember, testClock, type TestApp } from './support/test-app';
import { type CacheChange, announceChange, onAnnouncedChange } from '../../src/server/lib/notify';
import { statementCounter } from './support/statements';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 2026-03-02 12:00 UTC: 04:00 in Los Angeles, 17:30 in Kolkata, 21:00 in Tokyo.
const START = new Date('2026-03-02T12:00:00.000Z');

let t: TestApp;
let statements: ReturnType<typeof statementCounter>;
beforeAll(async () => {
  t = await createTestApp({ clock: testClock(START), env: { POPUPS_DAILY_CAP: '2', POPUPS_QUIET_HOURS: '22:00-07:00' } });
  statements = statementCounter(t.database.db);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.update(popups).set({ isActive: false });
  // Written behind the app's back, so announced as the admin routes do: the app holds the popups that are on.
  await announceChange(t.database.db, { popups: true });
  t.clock.set(START);
});

type Member = Awaited<ReturnType<typeof registerMember>> & { token: string };

async function popup(overrides: Partial<typeof popups.$inferInsert> = {}) {
  const now = t.clock().getTime();
  const [row] = await t.database.db
    .insert(popups)
    .values({
      title: 'Capped reminder',
      message: 'Something to do.',
      target: 'home',
      startAt: new Date(now - 10 * DAY),
      endAt: new Date(now + 30 * DAY),
      recurrence: 'NONE',
      timezone: 'UTC',
      maxSnoozes: 3,
      priority: 5,
      isActive: true,
      ...overrides,
    })
    .returning();
  await announceChange(t.database.db, { popups: true });
  return row!;
}

async function signIn(m: { email: string; password: string }, timeZone?: unknown) {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password, ...(timeZone === undefined ? {} : { timeZone }) } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { token: string }).token;
}

async function member(timeZone?: unknown): Promise<Member> {
  const m = await registerMember(t.app);
  return { ...m, token: await signIn(m, timeZone) };
}

const nextId = async (m: { token: string }, route = 'home') => {
  const res = await t.app.inject(asUser(m.token, { method: 'GET', url: `/api/popups/next?context=login&route=${route}` }));
  expect([200, 204], res.body).toContain(res.statusCode);
  return res.statusCode === 204 ? null : (res.json() as MemberPopup).id;
};
const act = (m: { token: string }, id: string, action: 'snooze' | 'complete') => t.app.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${id}/${action}` }));
const shows = async (userId: string) =>
  Number((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(events).where(and(eq(events.type, 'popup.shown'), eq(events.actorUserId, userId))))[0]!.n);

describe('the browser time zone at sign-in', () => {
  it.each([
    ['a real IANA zone', 'Asia/Kolkata', 'Asia/Kolkata'],
    ['no zone', undefined, null],
    ['an unknown zone', 'Mars/Olympus_Mons', null],
    ['a bare offset', '+05:30', null],
    ['a number', 330, null],
    ['a 5,000-character string', 'x'.repeat(5000), null],
  ])('is kept with the session for %s (sign-in never fails for it)', async (_what, timeZone, stored) => {
    const m = await member(timeZone);
    const rows = await t.database.db.select({ timeZone: sessions.timeZone }).from(sessions).where(eq(sessions.userId, m.id));
    expect(rows).toEqual([{ timeZone: stored }]);
  });
});

describe('quiet hours (programme 22:00-07:00)', () => {
  it('hold back every popup while it is night where the member is, and release it in their morning', async () => {
    const p = await popup();
    const la = await member('America/Los_Angeles'); // 04:00 there
    const kolkata = await member('Asia/Kolkata'); // 17:30 there
    expect(await nextId(la)).toBeNull();
    expect(await nextId(kolkata)).toBe(p.id);
    t.clock.set(new Date('2026-03-02T14:59:00Z')); // 06:59 in Los Angeles
    expect(await nextId({ token: await signIn(la, 'America/Los_Angeles') })).toBeNull();
    t.clock.set(new Date('2026-03-02T15:00:00Z')); // 07:00
    expect(await nextId({ token: await signIn(la, 'America/Los_Angeles') })).toBe(p.id);
    expect(await shows(la.id)).toBe(1);
  });

  it('without a zone from the browser, follow the popup zone', async () => {
    const tokyo = await popup({ timezone: 'Asia/Tokyo', priority: 9 }); // 21:00 in Tokyo: not quiet yet
    const utc = await popup({ timezone: 'UTC', priority: 5 });
    const m = await member();
    expect(await nextId(m)).toBe(tokyo.id);
    t.clock.advance(HOUR); // 22:00 in Tokyo, 13:00 in UTC
    const later = { token: await signIn(m) };
    expect(await nextId(later)).toBe(utc.id);
    expect((await act(later, utc.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(later)).toBeNull();
  });

  it('a popup with its own quiet hours follows them instead', async () => {
    const own = await popup({ quietHoursStart: '03:00', quietHoursEnd: '04:00', priority: 5 }); // 04:00 in LA: after its window
    const programme = await popup({ priority: 9 });
    const la = await member('America/Los_Angeles');
    expect(await nextId(la)).toBe(own.id);
    t.clock.set(new Date('2026-03-02T11:30:00Z')); // 03:30 in Los Angeles
    const again = await member('America/Los_Angeles');
    expect(await nextId(again)).toBeNull();
    expect(programme.quietHoursStart).toBeNull();
  });

  it('follow the wall clock across the DST change (Los Angeles, 8 March 2026)', async () => {
    const p = await popup({ quietHoursStart: '02:00', quietHoursEnd: '03:30' });
    t.clock.set(new Date('2026-03-08T09:59:00Z')); // 01:59 PST
    expect(await nextId(await member('America/Los_Angeles'))).toBe(p.id);
    t.clock.set(new Date('2026-03-08T10:00:00Z')); // 03:00 PDT: inside
    expect(await nextId(await member('America/Los_Angeles'))).toBeNull();
    t.clock.set(new Date('2026-03-08T10:30:00Z')); // 03:30 PDT
    expect(await nextId(await member('America/Los_Angeles'))).toBe(p.id);
  });
});

describe('the daily cap (programme: 2 different popups a day)', () => {
  it('shows at most two different popups a local day; the third waits for the next day', async () => {
    // Their own quiet hours (12:00-12:30) replace the programme's, so the night is free and only the cap speaks.
    const own = { quietHoursStart: '12:00', quietHoursEnd: '12:30' };
    const [a, b, c] = [await popup({ priority: 9, ...own }), await popup({ priority: 8, ...own }), await popup({ priority: 7, ...own })];
    const m = await member('Asia/Kolkata');
    expect(await nextId(m)).toBe(a.id);
    expect((await act(m, a.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(m)).toBe(b.id);
    expect((await act(m, b.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(m)).toBeNull();
    // A new sign-in the same day changes nothing.
    expect(await nextId({ token: await signIn(m, 'Asia/Kolkata') })).toBeNull();
    // 00:00 in Kolkata is 18:30 UTC.
    t.clock.set(new Date('2026-03-02T18:29:00Z'));
    expect(await nextId({ token: await signIn(m, 'Asia/Kolkata') })).toBeNull();
    t.clock.set(new Date('2026-03-02T18:30:00Z'));
    expect(await nextId({ token: await signIn(m, 'Asia/Kolkata') })).toBe(c.id);
  });

  it('a capped first show is announced, and this instance keeps the member’s states through it: asking again for the popup shown costs no statement', async () => {
    const a = await popup({ priority: 9, quietHoursStart: '12:00', quietHoursEnd: '12:30' });
    const m = await member('Asia/Kolkata');
    const heard: CacheChange[] = [];
    const stop = onAnnouncedChange(t.database.db, (change) => heard.push(change));
    try {
      expect(await nextId(m)).toBe(a.id);
    } finally {
      stop();
    }
    expect(heard).toContainEqual({ popupStates: m.id });
    expect(await shows(m.id)).toBe(1);
    expect(t.app.memberPopupStates.holds(m.id)).toBe(true);
    // Shown in its occurrence already, the popup is not counted again: the day's shows are not read.
    const texts = await statements.during(async () => expect(await nextId(m)).toBe(a.id));
    expect(texts, JSON.stringify(texts)).toEqual([]);
    expect(await shows(m.id)).toBe(1);
  });

  it('reads the day’s shows only when the cap must count them: a popup not yet shown, after the one shown is completed', async () => {
    const a = await popup({ priority: 9 });
    const b = await popup({ priority: 8 });
    const m = await member('Europe/London');
    expect(await nextId(m)).toBe(a.id);
    expect((await act(m, a.id, 'complete')).statusCode).toBe(200);
    // b is new today: the cap (2) counts a's show, and allows it.
    const texts = await statements.during(async () => expect(await nextId(m)).toBe(b.id));
    expect(texts.filter((q) => /from "?events"?/.test(q)), JSON.stringify(texts)).not.toHaveLength(0);
    expect(await statements.during(async () => expect(await nextId(m)).toBe(b.id))).toEqual([]);
  });

  it('holds the day’s shows of a member at the cap: asking again reads nothing, and their own next write drops them', async () => {
    const [a, b, c] = [await popup({ priority: 9 }), await popup({ priority: 8 }), await popup({ priority: 7 })];
    const m = await member('Europe/London');
    expect(await nextId(m)).toBe(a.id);
    expect((await act(m, a.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(m)).toBe(b.id);
    expect((await act(m, b.id, 'complete')).statusCode).toBe(200);
    // c would be a third new popup today (the cap is 2): the shows are read once, then held.
    const first = await statements.during(async () => expect(await nextId(m)).toBeNull());
    expect(first.filter((q) => /from "?events"?/.test(q)), JSON.stringify(first)).toHaveLength(1);
    expect(t.app.memberShows.holds(m.id)).toBe(true);
    expect(await statements.during(async () => expect(await nextId(m)).toBeNull())).toEqual([]);
    // Any write of the member's popup states (a snooze of c here), announced, drops what is held.
    expect((await act(m, c.id, 'snooze')).statusCode).toBe(200);
    expect(t.app.memberShows.holds(m.id)).toBe(false);
  });

  it('a cap re-checked under the lock that refuses what the held shows allowed: looks again with the shows read afresh', async () => {
    // Own quiet hours far from midnight (the programme's 22:00-07:00 would cover it).
    const day = { quietHoursStart: '03:00', quietHoursEnd: '04:00' };
    t.clock.set(new Date('2026-03-02T23:59:50Z'));
    const [a, b] = [await popup({ priority: 9, ...day }), await popup({ priority: 8, ...day })];
    await popup({ priority: 7, ...day }); // c, the third
    const m = await member('UTC');
    for (const shown of [a, b]) {
      expect(await nextId(m)).toBe(shown.id);
      expect((await act(m, shown.id, 'complete')).statusCode).toBe(200);
    }
    // At the cap (2) for the day: c refused, and the day's shows held.
    t.clock.set(new Date('2026-03-02T23:59:58Z'));
    expect(await nextId(m)).toBeNull();
    expect(t.app.memberShows.holds(m.id)).toBe(true);
    // Past midnight, within the TTL: the held shows are yesterday's, so c would be allowed; but
    // two first shows today were written elsewhere, their announcement not here yet.
    t.clock.set(new Date('2026-03-03T00:00:01Z'));
    const elsewhere = (popupId: string) => ({ actorUserId: m.id, type: 'popup.shown', payloadJson: { popupId, newInOccurrence: true }, createdAt: new Date('2026-03-03T00:00:00.500Z') });
    await t.database.db.insert(events).values([elsewhere(randomUUID()), elsewhere(randomUUID())]);
    const texts = await statements.during(async () => expect(await nextId(m)).toBeNull());
    // One look under the lock refused c; the next read the shows afresh and did not try again.
    expect(texts.filter((q) => /pg_advisory_xact_lock/.test(q)), JSON.stringify(texts)).toHaveLength(1);
    expect(await shows(m.id)).toBe(4);
  });

  it('a snoozed popup coming back at the next sign-in is not a new one: never blocked, never counted', async () => {
    // a recurs daily (its occurrence began at 12:00 UTC today), b and c are one-off.
    const a = await popup({ priority: 9, recurrence: 'DAILY', interval: 1 });
    const [b, c] = [await popup({ priority: 8 }), await popup({ priority: 7 })];
    const m = await member('Europe/London');
    expect(await nextId(m)).toBe(a.id);
    expect((await act(m, a.id, 'snooze')).statusCode).toBe(200);
    expect(await nextId(m)).toBe(b.id);
    expect((await act(m, b.id, 'snooze')).statusCode).toBe(200);
    expect(await nextId(m)).toBeNull(); // c would be a third
    t.clock.advance(1000);
    const later = { token: await signIn(m, 'Europe/London') };
    expect(await nextId(later)).toBe(a.id); // comes back though the cap is reached
    expect((await act(later, a.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(later)).toBe(b.id);
    expect((await act(later, b.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(later)).toBeNull();
    // Next day in London: c is new, and a and b coming back the day after they were first shown do not count.
    t.clock.set(new Date('2026-03-03T09:00:00Z'));
    expect(await nextId({ token: await signIn(m, 'Europe/London') })).toBe(c.id);
    const firstShows = await t.database.db
      .select({ popupId: sql<string>`${events.payloadJson}->>'popupId'`, isNew: sql<string>`${events.payloadJson}->>'newInOccurrence'` })
      .from(events)
      .where(and(eq(events.type, 'popup.shown'), eq(events.actorUserId, m.id)))
      .orderBy(events.id);
    expect(firstShows).toEqual([
      { popupId: a.id, isNew: 'true' },
      { popupId: b.id, isNew: 'true' },
      { popupId: a.id, isNew: 'false' },
      { popupId: b.id, isNew: 'false' },
      { popupId: c.id, isNew: 'true' },
    ]);
  });

  it('the next occurrence of a popup already counted today takes no new place', async () => {
    const hourly = await popup({ recurrence: 'HOURLY', interval: 1, startAt: new Date(START.getTime() - 10 * HOUR), priority: 9 });
    const daily = await popup({ priority: 5 });
    const m = await member('UTC');
    expect(await nextId(m)).toBe(hourly.id);
    expect((await act(m, hourly.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(m)).toBe(daily.id);
    expect((await act(m, daily.id, 'complete')).statusCode).toBe(200);
    await popup({ priority: 1 }); // a third popup, which the cap holds back
    t.clock.advance(HOUR);
    const later = { token: await signIn(m, 'UTC') };
    expect(await nextId(later)).toBe(hourly.id); // its next occurrence, the same day: still 2 different popups
    expect((await act(later, hourly.id, 'complete')).statusCode).toBe(200);
    expect(await nextId(later)).toBeNull();
  });

  it('a popup with its own cap follows it', async () => {
    const [a, b] = [await popup({ priority: 9 }), await popup({ priority: 8 })];
    const roomy = await popup({ priority: 1, dailyCap: 3 });
    const strict = await popup({ priority: 2, dailyCap: 1 });
    const m = await member('UTC');
    for (const p of [a, b]) {
      expect(await nextId(m)).toBe(p.id);
      expect((await act(m, p.id, 'complete')).statusCode).toBe(200);
    }
    // strict (cap 1) is refused after two; roomy (cap 3) may be the third.
    expect(await nextId(m)).toBe(roomy.id);
    expect(strict.dailyCap).toBe(1);
  });

  it('two sessions asking in parallel cannot both take the last place of the day', async () => {
    const first = await popup({ priority: 9 });
    const home = await popup({ priority: 5, target: 'home' });
    const health = await popup({ priority: 5, target: 'health' });
    const m = await member('UTC');
    expect(await nextId(m)).toBe(first.id);
    expect((await act(m, first.id, 'complete')).statusCode).toBe(200);
    const other = { token: await signIn(m, 'UTC') };
    const [x, y] = await Promise.all([nextId(m, 'home'), nextId(other, 'health')]);
    expect([x, y].filter((id) => id !== null)).toHaveLength(1);
    expect([home.id, health.id]).toContain(x ?? y);
    expect(await shows(m.id)).toBe(2);
  });
});
