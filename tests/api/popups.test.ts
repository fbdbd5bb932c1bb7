import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, popups, userPopupStates } from '../../src/db/schema';
import type { MemberPopup } from '../../src/shared/schemas/popups';
import { MISSING_ID, createTestApp, injectAs, signedInAdmin, signedInMember, type TestApp } from './support/test-app';
import { type CacheChange, announceChange, onAnnouncedChange } from '../../src/server/lib/notify';
import { statementCounter } from './support/statements';

let t: TestApp;
let statements: ReturnType<typeof statementCounter>;
beforeAll(async () => {
  t = await createTestApp();
  statements = statementCounter(t.database.db);
});
afterAll(async () => {
  await t?.close();
});
// Tests share one database: each starts with no live popup so earlier tests' popups never compete.
beforeEach(async () => {
  await t.database.db.update(popups).set({ isActive: false });
  // Written behind the app's back, so announced as the admin routes do: the app holds the popups that are on.
  await announceChange(t.database.db, { popups: true });
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Member = Awaited<ReturnType<typeof signedInMember>>;

/** A popup stored directly; live now unless told otherwise. */
async function popup(overrides: Partial<typeof popups.$inferInsert> = {}) {
  const now = t.clock().getTime();
  const [row] = await t.database.db
    .insert(popups)
    .values({
      title: 'Take your Vital Scan',
      message: 'It takes 30 seconds.',
      target: 'home',
      startAt: new Date(now - HOUR),
      endAt: new Date(now + 30 * DAY),
      recurrence: 'NONE',
      interval: 1,
      timezone: 'America/Los_Angeles',
      theme: 'purple',
      maxSnoozes: 2,
      priority: 5,
      isActive: true,
      createdAt: new Date(now - DAY),
      ...overrides,
    })
    .returning();
  await announceChange(t.database.db, { popups: true });
  return row!;
}

const next = (m: { token: string }, query = 'context=login&route=home') => injectAs(t, m, { method: 'GET', url: `/api/popups/next?${query}` });
const nextId = async (m: { token: string }, query?: string) => {
  const res = await next(m, query);
  return res.statusCode === 204 ? null : (res.json() as MemberPopup).id;
};
const snooze = (m: { token: string }, id: string) => injectAs(t, m, { method: 'POST', url: `/api/popups/${id}/snooze` });
const complete = (m: { token: string }, id: string) => injectAs(t, m, { method: 'POST', url: `/api/popups/${id}/complete` });
const active = async (m: { token: string }) => {
  const res = await injectAs(t, m, { method: 'GET', url: '/api/popups/active' });
  expect(res.statusCode).toBe(200);
  return (res.json() as { popups: MemberPopup[] }).popups;
};

/** Signs the same member in again (a new session, so a new sign-in time), a second later. */
async function signInAgain(m: Member): Promise<Member> {
  t.clock.advance(1000);
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } });
  expect(res.statusCode).toBe(200);
  const token = (res.json() as { token: string }).token;
  return { ...m, token, auth: { authorization: `Bearer ${token}` } };
}

async function countEvents(type: string, popupId: string, actorUserId?: string) {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(eq(events.type, type), sql`${events.payloadJson}->>'popupId' = ${popupId}`, actorUserId ? eq(events.actorUserId, actorUserId) : undefined));
  return Number(row!.n);
}

async function stateOf(m: { id: string }, popupId: string) {
  const [row] = await t.database.db
    .select()
    .from(userPopupStates)
    .where(and(eq(userPopupStates.userId, m.id), eq(userPopupStates.popupId, popupId)));
  return row;
}

describe('authorization', () => {
  it.each([
    ['GET', '/api/popups/next?context=login&route=home'],
    ['GET', '/api/popups/active'],
    ['POST', `/api/popups/${MISSING_ID}/snooze`],
    ['POST', `/api/popups/${MISSING_ID}/complete`],
  ] as const)('%s %s: 401 without a session or with a bad token', async (method, url) => {
    const anonymous = await t.app.inject({ method, url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Authentication required', code: 'unauthenticated' });
    const bad = await t.app.inject({ method, url, headers: { authorization: 'Bearer not-a-real-token-not-a-real-token' } });
    expect(bad.statusCode).toBe(401);
  });

  it('members, admins without Admin Access and elevated admins all get their own popups', async () => {
    const p = await popup();
    const member = await signedInMember(t.app);
    const plainAdmin = await signedInAdmin(t, { elevate: false });
    const admin = await signedInAdmin(t);
    for (const who of [member, plainAdmin, admin]) {
      expect(await nextId(who)).toBe(p.id);
      expect((await active(who)).map((x) => x.id)).toEqual([p.id]);
      expect((await snooze(who, p.id)).statusCode).toBe(200);
      expect((await complete(who, p.id)).statusCode).toBe(200);
    }
  });

  it('a signed-out session gets 401 on every popup call', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    await injectAs(t, m, { method: 'POST', url: '/api/auth/signout' });
    expect((await next(m)).statusCode).toBe(401);
    expect((await snooze(m, p.id)).statusCode).toBe(401);
    expect((await complete(m, p.id)).statusCode).toBe(401);
    expect(await stateOf(m, p.id)).toBeUndefined();
  });
});

describe('GET /api/popups/next', () => {
  it('answers 204 with no body when there is no popup', async () => {
    const m = await signedInMember(t.app);
    const res = await next(m);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('returns the member popup shape, and records the show as a state and an event', async () => {
    const p = await popup({ theme: 'green', maxSnoozes: 3 });
    const m = await signedInMember(t.app);
    const res = await next(m);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: p.id,
      title: 'Take your Vital Scan',
      message: 'It takes 30 seconds.',
      theme: 'green',
      canSnooze: true,
      snoozeCount: 0,
      maxSnoozes: 3,
      isLastReminder: false,
      actionLabel: 'Take Vital Scan',
      actionTarget: 'https://example.org/vital-scan',
    });
    const state = await stateOf(m, p.id);
    expect(state).toMatchObject({ snoozeCount: 0, lastShownAt: t.clock(), occurrenceStart: p.startAt, completedAt: null });
    expect(await countEvents('popup.shown', p.id, m.id)).toBe(1);
    // The same session asking again is shown the same popup; the show is not counted twice.
    expect(await nextId(m)).toBe(p.id);
    expect(await countEvents('popup.shown', p.id, m.id)).toBe(1);
    // A later sign-in counts again, as before.
    expect(await nextId(await signInAgain(m))).toBe(p.id);
    expect(await countEvents('popup.shown', p.id, m.id)).toBe(2);
  });

  it('uses the defaults context=login and route=home when they are left out', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    expect(await nextId(m, '')).toBe(p.id);
  });

  it('shows only popups for the requested page', async () => {
    const health = await popup({ target: 'health' });
    const m = await signedInMember(t.app);
    expect(await nextId(m, 'context=login&route=home')).toBeNull();
    expect(await nextId(m, 'context=login&route=health')).toBe(health.id);
  });

  it('never shows a popup that is not live: inactive, not started, or ended', async () => {
    const now = t.clock().getTime();
    await popup({ isActive: false });
    await popup({ startAt: new Date(now + 1000) });
    await popup({ startAt: new Date(now - DAY), endAt: new Date(now) });
    const m = await signedInMember(t.app);
    expect((await next(m)).statusCode).toBe(204);
  });

  it('is live from startAt inclusive to endAt exclusive', async () => {
    const now = t.clock().getTime();
    const p = await popup({ startAt: new Date(now), endAt: new Date(now + 2000) });
    const m = await signedInMember(t.app);
    expect(await nextId(m)).toBe(p.id);
    t.clock.advance(2000);
    expect(await nextId(m)).toBeNull();
  });

  it('picks the highest priority, then the earliest end, then the oldest', async () => {
    const now = t.clock().getTime();
    const low = await popup({ priority: 3 });
    const laterEnd = await popup({ priority: 9, endAt: new Date(now + 20 * DAY) });
    const newer = await popup({ priority: 9, endAt: new Date(now + 10 * DAY), createdAt: new Date(now - HOUR) });
    const oldest = await popup({ priority: 9, endAt: new Date(now + 10 * DAY), createdAt: new Date(now - 2 * DAY) });
    const m = await signedInMember(t.app);
    const order: (string | null)[] = [];
    for (let i = 0; i < 5; i += 1) {
      const id = await nextId(m);
      order.push(id);
      if (id) expect((await complete(m, id)).statusCode).toBe(200);
    }
    expect(order).toEqual([oldest.id, newer.id, laterEnd.id, low.id, null]);
  });

  it('finds the best showable popup beyond the first page of candidates', async () => {
    const many = await Promise.all(Array.from({ length: 30 }, () => popup({ priority: 10 })));
    const last = await popup({ priority: 1 });
    const m = await signedInMember(t.app);
    for (const p of many) expect((await complete(m, p.id)).statusCode).toBe(200);
    expect(await nextId(m)).toBe(last.id);
  });

  it('hides a popup snoozed in this sign-in, and brings it back at the next sign-in with the count', async () => {
    const p = await popup({ maxSnoozes: 2 });
    let m = await signedInMember(t.app);
    expect(await nextId(m)).toBe(p.id);
    expect((await snooze(m, p.id)).statusCode).toBe(200);
    expect((await next(m)).statusCode).toBe(204);
    m = await signInAgain(m);
    const again = (await next(m)).json() as MemberPopup;
    expect(again).toMatchObject({ id: p.id, snoozeCount: 1, canSnooze: true, isLastReminder: false });
    expect((await snooze(m, p.id)).statusCode).toBe(200);
    m = await signInAgain(m);
    const last = (await next(m)).json() as MemberPopup;
    expect(last).toMatchObject({ id: p.id, snoozeCount: 2, maxSnoozes: 2, canSnooze: false, isLastReminder: true });
  });

  it('hides a completed popup for good (one occurrence), and each member has their own state', async () => {
    const p = await popup();
    let a = await signedInMember(t.app);
    const b = await signedInMember(t.app);
    expect((await complete(a, p.id)).statusCode).toBe(200);
    expect((await next(a)).statusCode).toBe(204);
    a = await signInAgain(a);
    expect((await next(a)).statusCode).toBe(204);
    expect(await nextId(b)).toBe(p.id);
  });

  it('a daily popup completed today comes back tomorrow, fresh', async () => {
    const now = t.clock().getTime();
    const p = await popup({ recurrence: 'DAILY', interval: 1, startAt: new Date(now - HOUR), maxSnoozes: 1 });
    let m = await signedInMember(t.app);
    expect((await snooze(m, p.id)).statusCode).toBe(200);
    expect((await complete(m, p.id)).statusCode).toBe(200);
    m = await signInAgain(m);
    expect((await next(m)).statusCode).toBe(204);
    t.clock.advance(DAY - 2000);
    m = await signInAgain(m);
    const fresh = (await next(m)).json() as MemberPopup;
    expect(fresh).toMatchObject({ id: p.id, snoozeCount: 0, canSnooze: true, isLastReminder: false });
    const state = await stateOf(m, p.id);
    expect(state).toMatchObject({ snoozeCount: 0, completedAt: null, lastSnoozedAt: null, occurrenceStart: new Date(p.startAt.getTime() + DAY) });
  });

  it('an hourly popup snoozed to its limit starts the next hour with snoozes again', async () => {
    const p = await popup({ recurrence: 'HOURLY', interval: 1, startAt: new Date(t.clock().getTime() - 1000), maxSnoozes: 1 });
    let m = await signedInMember(t.app);
    expect((await snooze(m, p.id)).statusCode).toBe(200);
    expect((await snooze(m, p.id)).statusCode).toBe(400);
    t.clock.advance(HOUR);
    m = await signInAgain(m);
    const res = await snooze(m, p.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ snoozeCount: 1, isLastReminder: true });
  });

  it.each([
    ['an unknown page', 'route=admin', 'route', 'Route must be home, health, wealth or profile'],
    ['an unknown context', 'route=home&context=push', 'context', 'Context must be login'],
    ['a repeated parameter', 'route=home&route=health', 'route', 'Route must be home, health, wealth or profile'],
    ['a 5,000-character page', `route=${'x'.repeat(5000)}`, 'route', 'Route must be home, health, wealth or profile'],
  ])('answers 400 with field messages for %s', async (_what, query, field, message) => {
    const m = await signedInMember(t.app);
    const res = await next(m, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
  });

  it('offers the next popup, not a failure, when the one it picked was deleted at another instance whose announcement has not arrived', async () => {
    const first = await popup({ priority: 9 });
    const second = await popup({ priority: 1 });
    expect(await nextId(await signedInMember(t.app))).toBe(first.id);
    // Deleted behind this instance's back and not announced: it still holds the popup as on.
    await t.database.db.delete(popups).where(eq(popups.id, first.id));
    expect(t.app.livePopups.holds(first.id)).toBe(true);
    const m = await signedInMember(t.app);
    expect(await nextId(m)).toBe(second.id);
    expect(t.app.livePopups.holds(first.id)).toBe(false);
    const states = await t.database.db.select().from(userPopupStates).where(eq(userPopupStates.userId, m.id));
    expect(states.map((row) => row.popupId)).toEqual([second.id]);
  });

  it('records nothing when it answers 204', async () => {
    const p = await popup({ isActive: false });
    const m = await signedInMember(t.app);
    expect((await next(m)).statusCode).toBe(204);
    expect(await countEvents('popup.shown', p.id)).toBe(0);
    expect(await stateOf(m, p.id)).toBeUndefined();
  });
});

describe('GET /api/popups/active', () => {
  it('lists the live popups of every page not yet completed, best first, without recording shows', async () => {
    const now = t.clock().getTime();
    const home = await popup({ priority: 2 });
    const wealth = await popup({ target: 'wealth', priority: 8 });
    const done = await popup({ target: 'profile', priority: 5 });
    await popup({ isActive: false });
    await popup({ startAt: new Date(now + HOUR) });
    const m = await signedInMember(t.app);
    expect((await complete(m, done.id)).statusCode).toBe(200);
    expect((await snooze(m, home.id)).statusCode).toBe(200);
    const list = await active(m);
    expect(list.map((x) => x.id)).toEqual([wealth.id, home.id]);
    expect(list[1]).toMatchObject({ snoozeCount: 1, canSnooze: true });
    expect(await countEvents('popup.shown', home.id)).toBe(0);
    expect(await countEvents('popup.shown', wealth.id)).toBe(0);
  });

  it('is empty when nothing is live', async () => {
    const m = await signedInMember(t.app);
    expect(await active(m)).toEqual([]);
  });
});

describe('POST /api/popups/{id}/snooze', () => {
  it('adds one snooze, records an event, and answers the updated popup', async () => {
    const p = await popup({ maxSnoozes: 3 });
    const m = await signedInMember(t.app);
    const res = await snooze(m, p.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, snoozeCount: 1, maxSnoozes: 3, canSnooze: true, isLastReminder: false });
    expect(await stateOf(m, p.id)).toMatchObject({ snoozeCount: 1, lastSnoozedAt: t.clock() });
    expect(await countEvents('popup.snoozed', p.id, m.id)).toBe(1);
  });

  it('answers 400 once snoozeCount has reached maxSnoozes, and stores nothing more', async () => {
    const p = await popup({ maxSnoozes: 2 });
    const m = await signedInMember(t.app);
    expect((await snooze(m, p.id)).json()).toMatchObject({ snoozeCount: 1, canSnooze: true });
    expect((await snooze(m, p.id)).json()).toMatchObject({ snoozeCount: 2, canSnooze: false, isLastReminder: true });
    const refused = await snooze(m, p.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'Maximum snoozes reached for this popup', code: 'snooze_limit_reached' });
    expect((await stateOf(m, p.id))!.snoozeCount).toBe(2);
    expect(await countEvents('popup.snoozed', p.id, m.id)).toBe(2);
  });

  it('answers 400 at once for a popup that allows no snoozes', async () => {
    const p = await popup({ maxSnoozes: 0 });
    const m = await signedInMember(t.app);
    expect((await snooze(m, p.id)).statusCode).toBe(400);
    expect(await stateOf(m, p.id)).toBeUndefined();
    expect(await countEvents('popup.snoozed', p.id)).toBe(0);
  });

  it('never passes the limit nor loses an increment under parallel requests (two tabs)', async () => {
    const p = await popup({ maxSnoozes: 4 });
    const m = await signedInMember(t.app);
    const other = await signInAgain(m);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => snooze(i % 2 ? m : other, p.id)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(4);
    expect(codes.filter((c) => c === 400)).toHaveLength(8);
    expect((await stateOf(m, p.id))!.snoozeCount).toBe(4);
    expect(await countEvents('popup.snoozed', p.id, m.id)).toBe(4);
    const counts = results.filter((r) => r.statusCode === 200).map((r) => (r.json() as MemberPopup).snoozeCount).sort();
    expect(counts).toEqual([1, 2, 3, 4]);
  });

  it('under parallel requests below the limit, every increment lands', async () => {
    const p = await popup({ maxSnoozes: 10 });
    const m = await signedInMember(t.app);
    const results = await Promise.all(Array.from({ length: 8 }, () => snooze(m, p.id)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect((await stateOf(m, p.id))!.snoozeCount).toBe(8);
  });
});

describe('POST /api/popups/{id}/complete', () => {
  it('marks the occurrence completed and records one event', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    const res = await complete(m, p.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: p.id, completed: true });
    expect((await stateOf(m, p.id))!.completedAt).toEqual(t.clock());
    expect(await countEvents('popup.completed', p.id, m.id)).toBe(1);
  });

  it('a repeated or parallel completion is answered the same but counted once', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    const results = await Promise.all(Array.from({ length: 8 }, () => complete(m, p.id)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect((await complete(m, p.id)).statusCode).toBe(200);
    expect(await countEvents('popup.completed', p.id, m.id)).toBe(1);
  });

  it('parallel snoozes and completions together keep every update', async () => {
    const p = await popup({ maxSnoozes: 3 });
    const m = await signedInMember(t.app);
    const results = await Promise.all([snooze(m, p.id), complete(m, p.id), snooze(m, p.id), complete(m, p.id), snooze(m, p.id)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const state = await stateOf(m, p.id);
    expect(state!.snoozeCount).toBe(3);
    expect(state!.completedAt).not.toBeNull();
    expect(await countEvents('popup.completed', p.id, m.id)).toBe(1);
  });
});

describe('the member’s states held in memory, through their own writes', () => {
  /** What `fn` answered, and the statements it cost. */
  async function costOf<T>(fn: () => Promise<T>): Promise<{ answer: T; texts: string[] }> {
    let answer: T | undefined;
    const texts = await statements.during(async () => {
      answer = await fn();
    });
    return { answer: answer as T, texts };
  }
  /** The member's active popups read afresh: their held states dropped first. */
  const activeAfresh = async (m: Member) => {
    t.app.memberPopupStates.invalidate({ popupStates: m.id });
    return active(m);
  };

  it('keeps them through a show, a snooze and a completion: the calls after each cost no statement, and agree with the rows', async () => {
    const p = await popup({ maxSnoozes: 2 });
    const m = await signedInMember(t.app);
    await active(m);
    expect(t.app.memberPopupStates.holds(m.id)).toBe(true);
    // The show is counted (one write), and what is held says so: asking again writes nothing.
    expect(await nextId(m)).toBe(p.id);
    expect(t.app.memberPopupStates.holds(m.id)).toBe(true);
    expect((await costOf(() => nextId(m))).texts).toEqual([]);
    expect((await stateOf(m, p.id))?.shownSessionId).not.toBeNull();
    expect((await snooze(m, p.id)).statusCode).toBe(200);
    const afterSnooze = await costOf(() => active(m));
    expect(afterSnooze.texts).toEqual([]);
    expect(afterSnooze.answer.find((x) => x.id === p.id)).toMatchObject({ snoozeCount: 1, canSnooze: true });
    expect(afterSnooze.answer).toEqual(await activeAfresh(m));
    expect((await costOf(() => next(m))).answer.statusCode).toBe(204);
    expect((await complete(m, p.id)).statusCode).toBe(200);
    const afterCompletion = await costOf(() => active(m));
    expect(afterCompletion.texts).toEqual([]);
    expect(afterCompletion.answer.some((x) => x.id === p.id)).toBe(false);
    expect(await stateOf(m, p.id)).toMatchObject({ snoozeCount: 1, completedAt: t.clock() });
  });

  it('costs a snooze or a completion of a popup held here one statement: the write, which checks the popup as the database has it', async () => {
    const p = await popup({ maxSnoozes: 2 });
    const m = await signedInMember(t.app);
    expect(await nextId(m)).toBe(p.id);
    for (const action of [() => snooze(m, p.id), () => complete(m, p.id)]) {
      const { answer, texts } = await costOf(action);
      expect(answer.statusCode, answer.body).toBe(200);
      // Besides the write: on PostgreSQL without Redis, the change's announcement (pg_notify).
      const writes = texts.filter((q) => !/pg_notify/.test(q));
      expect(writes, JSON.stringify(texts)).toHaveLength(1);
      expect(writes[0]).toMatch(/from popups where/);
    }
    expect(await stateOf(m, p.id)).toMatchObject({ snoozeCount: 1, completedAt: t.clock() });
  });

  it('holds only what the rows say after concurrent snoozes, completions and shows of one member', async () => {
    const ps = [await popup({ maxSnoozes: 3, priority: 9 }), await popup({ maxSnoozes: 1, priority: 8 }), await popup({ maxSnoozes: 3, priority: 7 })];
    const m = await signedInMember(t.app);
    await active(m);
    const results = await Promise.all([
      snooze(m, ps[0]!.id),
      snooze(m, ps[0]!.id),
      snooze(m, ps[1]!.id),
      snooze(m, ps[1]!.id),
      complete(m, ps[2]!.id),
      next(m),
      active(m),
    ]);
    expect(results.slice(0, 5).map((r) => ('statusCode' in r ? r.statusCode : 0)).sort()).toEqual([200, 200, 200, 200, 400]);
    const held = await active(m);
    expect(held).toEqual(await activeAfresh(m));
    expect(held.map((x) => [x.id, x.snoozeCount])).toEqual([
      [ps[0]!.id, 2],
      [ps[1]!.id, 1],
    ]);
  });
});

describe('snooze and complete on a popup that is gone or not live', () => {
  it.each(['snooze', 'complete'] as const)('%s: 404 for an unknown id, a malformed id, an inactive, ended, future or deleted popup', async (action) => {
    const now = t.clock().getTime();
    const inactive = await popup({ isActive: false });
    const ended = await popup({ startAt: new Date(now - 2 * DAY), endAt: new Date(now - DAY) });
    const future = await popup({ startAt: new Date(now + DAY) });
    const deleted = await popup();
    await t.database.db.delete(popups).where(eq(popups.id, deleted.id));
    await announceChange(t.database.db, { popups: true });
    const m = await signedInMember(t.app);
    const fn = action === 'snooze' ? snooze : complete;
    for (const id of [MISSING_ID, 'not-a-uuid', encodeURIComponent("1' or '1'='1"), inactive.id, ended.id, future.id, deleted.id]) {
      const res = await fn(m, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Popup not found', code: 'not_found' });
    }
    const states = await t.database.db.select().from(userPopupStates).where(eq(userPopupStates.userId, m.id));
    expect(states).toEqual([]);
  });

  it.each(['snooze', 'complete'] as const)('%s is refused by the database for a popup held here but moved out of the member’s audience or deleted at another instance (not announced yet): 404, nothing written', async (action) => {
    const elsewhere = await popup();
    const deleted = await popup({ priority: 4 });
    const m = await signedInMember(t.app);
    await active(m);
    // Behind this instance's back, neither announced: still held as they were.
    await t.database.db.update(popups).set({ audienceCompanyIds: [MISSING_ID] }).where(eq(popups.id, elsewhere.id));
    await t.database.db.delete(popups).where(eq(popups.id, deleted.id));
    expect(t.app.livePopups.holds(elsewhere.id) && t.app.livePopups.holds(deleted.id)).toBe(true);
    const heard: CacheChange[] = [];
    const stop = onAnnouncedChange(t.database.db, (change) => heard.push(change));
    try {
      for (const p of [elsewhere, deleted]) {
        // The write that finds the popup not as held (and writes nothing), then the popup read afresh: two statements.
        const texts = await statements.during(async () => {
          const res = await (action === 'snooze' ? snooze : complete)(m, p.id);
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ error: 'Popup not found', code: 'not_found' });
        });
        expect(texts, JSON.stringify(texts)).toHaveLength(2);
        expect(await stateOf(m, p.id)).toBeUndefined();
      }
    } finally {
      stop();
    }
    expect(heard).toEqual([]);
    expect(await countEvents(`popup.${action === 'snooze' ? 'snoozed' : 'completed'}`, elsewhere.id, m.id)).toBe(0);
  });

  it('snoozes by the popup as the database has it when an administrator changed it at another instance (not announced yet)', async () => {
    const p = await popup({ maxSnoozes: 1 });
    const m = await signedInMember(t.app);
    expect(await nextId(m)).toBe(p.id);
    // Three snoozes allowed now; this instance still holds the popup with one.
    t.clock.advance(1000);
    await t.database.db.update(popups).set({ maxSnoozes: 3, updatedAt: t.clock() }).where(eq(popups.id, p.id));
    const first = await snooze(m, p.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ snoozeCount: 1, maxSnoozes: 3, canSnooze: true });
    expect((await snooze(m, p.id)).json()).toMatchObject({ snoozeCount: 2, maxSnoozes: 3 });
    expect(await stateOf(m, p.id)).toMatchObject({ snoozeCount: 2 });
  });

  it('refuses a snooze past a limit lowered at another instance, even when the change left updated_at as it was', async () => {
    const p = await popup({ maxSnoozes: 3 });
    const m = await signedInMember(t.app);
    expect((await snooze(m, p.id)).json()).toMatchObject({ snoozeCount: 1, maxSnoozes: 3 });
    // Behind this instance's back, not announced, updated_at untouched: the popup held still says 3.
    await t.database.db.update(popups).set({ maxSnoozes: 1 }).where(eq(popups.id, p.id));
    const res = await snooze(m, p.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'snooze_limit_reached' });
    expect(await stateOf(m, p.id)).toMatchObject({ snoozeCount: 1 });
  });

  it('completes the occurrence the database’s schedule gives when the popup was rescheduled at another instance (not announced, updated_at untouched)', async () => {
    const startAt = new Date(t.clock().getTime() - 2 * DAY - HOUR);
    const p = await popup({ startAt, timezone: 'UTC' });
    const m = await signedInMember(t.app);
    await active(m);
    await t.database.db.update(popups).set({ recurrence: 'DAILY', interval: 1 }).where(eq(popups.id, p.id));
    expect((await complete(m, p.id)).statusCode).toBe(200);
    // Daily from two days and an hour ago: the current occurrence began an hour ago, not at the popup's start.
    expect((await stateOf(m, p.id))?.occurrenceStart).toEqual(new Date(startAt.getTime() + 2 * DAY));
  });

  it('reads the popup by id, not every live one, when the copy of the popups is off', async () => {
    const off = await createTestApp({ env: { POPUPS_CACHE_TTL_MS: '0' } });
    try {
      const counter = statementCounter(off.database.db);
      const now = off.clock().getTime();
      const [p] = await off.database.db
        .insert(popups)
        .values({ title: 'Uncached', message: 'Off.', target: 'home', startAt: new Date(now - HOUR), endAt: new Date(now + DAY), recurrence: 'NONE', timezone: 'UTC', maxSnoozes: 2, priority: 5, isActive: true })
        .returning();
      const m = await signedInMember(off.app);
      await injectAs(off, m, { method: 'GET', url: '/api/popups/active' });
      const texts = await counter.during(async () => {
        expect((await injectAs(off, m, { method: 'POST', url: `/api/popups/${p!.id}/snooze` })).statusCode).toBe(200);
      });
      const sent = texts.filter((q) => !/pg_notify/.test(q));
      expect(sent, JSON.stringify(texts)).toHaveLength(2);
      expect(sent[0]).toMatch(/"popups"."id" = \$1/);
    } finally {
      await off.close();
    }
  });

  it.each(['snooze', 'complete'] as const)('%s reads the popup afresh: 404 for one switched off at another instance whose announcement has not arrived', async (action) => {
    const p = await popup();
    const m = await signedInMember(t.app);
    expect(await nextId(m)).toBe(p.id);
    // Switched off behind this instance's back and not announced: it still holds the popup as on.
    await t.database.db.update(popups).set({ isActive: false }).where(eq(popups.id, p.id));
    expect(t.app.livePopups.holds(p.id)).toBe(true);
    const res = await (action === 'snooze' ? snooze : complete)(m, p.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Popup not found', code: 'not_found' });
    expect(await stateOf(m, p.id)).toMatchObject({ snoozeCount: 0, completedAt: null });
  });

  it('answers 413 for an oversized body and ignores a small unexpected one', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    const huge = await injectAs(t, m, { method: 'POST', url: `/api/popups/${p.id}/snooze`, payload: { note: 'x'.repeat(1024 * 1024) } });
    expect(huge.statusCode).toBe(413);
    expect(await stateOf(m, p.id)).toBeUndefined();
    const extra = await injectAs(t, m, { method: 'POST', url: `/api/popups/${p.id}/complete`, payload: { snoozeCount: -5, completed: false } });
    expect(extra.statusCode).toBe(200);
  });
});
