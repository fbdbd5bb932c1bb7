/**
 * Issue 12: shows that mean something (one per member, occurrence and session; `next`
 * rate-limited per member), the status and next occurrence in the admin list, and the
 * per-day results of a popup.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, popups, userPopupStates, users } from '../../src/db/schema';
import type { AdminPopupListItem, MemberPopup, PopupResultsResponse } from '../../src/shared/schemas/popups';
import { asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember, testClock, type TestApp } from './support/test-app';
import { announceChange } from '../../src/server/lib/notify';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = new Date('2026-03-02T12:00:00.000Z');

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  t = await createTestApp({ clock: testClock(START) });
  admin = await signedInAdmin(t);
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

type Member = Awaited<ReturnType<typeof signedInMember>>;

async function popup(overrides: Partial<typeof popups.$inferInsert> = {}) {
  const now = t.clock().getTime();
  const [row] = await t.database.db
    .insert(popups)
    .values({
      title: `Shows ${randomUUID().slice(0, 8)}`,
      message: 'Something to do.',
      target: 'home',
      startAt: new Date(now - HOUR),
      endAt: new Date(now + 30 * DAY),
      recurrence: 'NONE',
      timezone: 'UTC',
      maxSnoozes: 3,
      priority: 5,
      isActive: true,
      createdAt: new Date(now - DAY),
      ...overrides,
    })
    .returning();
  await announceChange(t.database.db, { popups: true });
  return row!;
}

const next = (m: { token: string }) => t.app.inject(asUser(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=home' }));
const act = (m: { token: string }, id: string, action: 'snooze' | 'complete') => t.app.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${id}/${action}` }));
/** As the admin, in a session opened now: the tests move the clock by days, past any idle timeout. */
const adminCall = async (options: InjectOptions) => t.app.inject({ ...options, headers: await freshSessionHeaders(t, admin.id, { elevated: true }) });
const countShows = async (popupId: string, userId?: string) =>
  Number(
    (
      await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(events)
        .where(and(eq(events.type, 'popup.shown'), sql`${events.payloadJson}->>'popupId' = ${popupId}`, userId ? eq(events.actorUserId, userId) : undefined))
    )[0]!.n,
  );

async function signInAgain(m: Member): Promise<Member> {
  t.clock.advance(1000);
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } });
  expect(res.statusCode).toBe(200);
  const token = (res.json() as { token: string }).token;
  return { ...m, token, auth: { authorization: `Bearer ${token}` } };
}

describe('a show is counted once per member, occurrence and session', () => {
  it('25 parallel calls from one session: every one answers the popup, one show is counted', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    const results = await Promise.all(Array.from({ length: 25 }, () => next(m)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(25).fill(200));
    expect(new Set(results.map((r) => (r.json() as MemberPopup).id))).toEqual(new Set([p.id]));
    expect(await countShows(p.id)).toBe(1);
    const [state] = await t.database.db.select().from(userPopupStates).where(and(eq(userPopupStates.userId, m.id), eq(userPopupStates.popupId, p.id)));
    expect(state!.shownSessionId).not.toBeNull();
  });

  it('two sessions side by side count once; a later sign-in counts again', async () => {
    const p = await popup();
    const a = await signedInMember(t.app);
    const b = await signInAgain(a);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => next(i % 2 ? a : b)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await countShows(p.id, a.id)).toBe(1);
    const c = await signInAgain(a);
    await Promise.all([next(a), next(b), next(c), next(c)]);
    expect(await countShows(p.id, a.id)).toBe(2);
  });

  it('counts again at a later sign-in (after a snooze, as before) and in a new occurrence of the same session', async () => {
    const hourly = await popup({ recurrence: 'HOURLY', interval: 1, startAt: new Date(START.getTime() - 55 * MINUTE), maxSnoozes: 2 });
    let m = await signedInMember(t.app);
    expect((await next(m)).json().id).toBe(hourly.id);
    expect((await next(m)).json().id).toBe(hourly.id);
    expect(await countShows(hourly.id)).toBe(1);
    expect((await act(m, hourly.id, 'snooze')).statusCode).toBe(200);
    expect((await next(m)).statusCode).toBe(204);
    m = await signInAgain(m);
    expect((await next(m)).json()).toMatchObject({ id: hourly.id, snoozeCount: 1 });
    expect(await countShows(hourly.id)).toBe(2);
    // 5 minutes later (the session is still live), the next hourly occurrence begins: a new show.
    t.clock.advance(5 * MINUTE);
    expect((await next(m)).json()).toMatchObject({ id: hourly.id, snoozeCount: 0 });
    expect((await next(m)).json().id).toBe(hourly.id);
    expect(await countShows(hourly.id)).toBe(3);
  });

  it('each counted show records its session and occurrence', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    await next(m);
    const [event] = await t.database.db.select().from(events).where(and(eq(events.type, 'popup.shown'), sql`${events.payloadJson}->>'popupId' = ${p.id}`));
    expect(event!.payloadJson).toEqual({
      popupId: p.id,
      context: 'login',
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      occurrenceStart: p.startAt.toISOString(),
      newInOccurrence: true,
    });
  });
});

describe('GET /api/popups/next is rate-limited per member', () => {
  it('answers 429 with Retry-After after 30 calls a minute, for that member only, and again after the minute', async () => {
    const p = await popup();
    const m = await signedInMember(t.app);
    const other = await signedInMember(t.app);
    for (let i = 0; i < 30; i += 1) expect((await next(m)).statusCode).toBe(200);
    const refused = await next(m);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests. Please wait a minute and try again.', code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // A second session of the same member shares the limit; another member does not.
    expect((await next(await signInAgain(m))).statusCode).toBe(429);
    expect((await next(other)).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    expect((await next(m)).statusCode).toBe(200);
    expect(await countShows(p.id, m.id)).toBe(1);
  });
});

describe('status and next occurrence in the admin list', () => {
  const listed = async (id: string, title: string) => {
    const res = await adminCall({ method: 'GET', url: `/api/admin/popups?search=${encodeURIComponent(title)}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { popups: AdminPopupListItem[] }).popups.find((p) => p.id === id)!;
  };

  it.each([
    ['scheduled', { startAt: new Date(START.getTime() + 2 * DAY) }, '2026-03-04T12:00:00.000Z'],
    ['live', { recurrence: 'DAILY', startAt: new Date('2026-02-20T17:00:00Z'), timezone: 'America/Los_Angeles' }, '2026-03-01T17:00:00.000Z'],
    ['ended', { startAt: new Date(START.getTime() - 3 * DAY), endAt: new Date(START.getTime() - DAY) }, null],
    ['inactive', { isActive: false, startAt: new Date(START.getTime() + DAY) }, '2026-03-03T12:00:00.000Z'],
  ] as const)('%s', async (status, overrides, nextOccurrenceAt) => {
    const p = await popup(overrides as Partial<typeof popups.$inferInsert>);
    expect(await listed(p.id, p.title)).toMatchObject({ status, nextOccurrenceAt });
  });

  it('a weekly popup moves from one occurrence to the next as time passes, and the status follows isActive', async () => {
    const p = await popup({ recurrence: 'WEEKLY', startAt: new Date('2026-02-23T09:00:00Z'), endAt: new Date('2026-03-20T00:00:00Z') });
    expect(await listed(p.id, p.title)).toMatchObject({ status: 'live', nextOccurrenceAt: '2026-03-02T09:00:00.000Z' });
    t.clock.set(new Date('2026-03-12T00:00:00Z'));
    expect(await listed(p.id, p.title)).toMatchObject({ status: 'live', nextOccurrenceAt: '2026-03-09T09:00:00.000Z' });
    const off = await adminCall({ method: 'POST', url: `/api/admin/popups/${p.id}/deactivate` });
    expect(off.json()).toMatchObject({ status: 'inactive', nextOccurrenceAt: '2026-03-09T09:00:00.000Z' });
    t.clock.set(new Date('2026-03-20T00:00:00Z'));
    const on = await adminCall({ method: 'POST', url: `/api/admin/popups/${p.id}/activate` });
    expect(on.json()).toMatchObject({ status: 'ended', nextOccurrenceAt: null });
  });

  it('a popup created without "Activate now" is inactive', async () => {
    const res = await adminCall({
      method: 'POST',
      url: '/api/admin/popups',
      payload: { title: 'Draft', message: 'Not yet.', target: 'home', startAt: START.toISOString(), endAt: new Date(START.getTime() + DAY).toISOString() },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isActive: false, status: 'inactive', nextOccurrenceAt: START.toISOString() });
  });
});

describe('GET /api/admin/popups/{id}/results', () => {
  const results = async (id: string) => {
    const res = await adminCall({ method: 'GET', url: `/api/admin/popups/${id}/results` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PopupResultsResponse;
  };

  it('counts shows, snoozes and completions per day in the popup zone, oldest first, with empty days between', async () => {
    // Los Angeles popup from 28 Feb 09:00 local; now is 2 March 04:00 local.
    const p = await popup({ timezone: 'America/Los_Angeles', startAt: new Date('2026-02-28T17:00:00Z'), maxSnoozes: 5 });
    const m = await signedInMember(t.app);
    await next(m); // 2 March 04:00 in Los Angeles
    await act(m, p.id, 'snooze');
    const m2 = await signedInMember(t.app);
    await next(m2);
    await act(m2, p.id, 'complete');
    // 20:30 UTC on 2 March is 12:30 the same day in Los Angeles; 08:30 UTC on 3 March is 00:30 on 3 March.
    t.clock.set(new Date('2026-03-03T08:30:00Z'));
    const again = await signInAgain(m);
    await next(again);
    expect(await results(p.id)).toEqual({
      days: [
        { date: '2026-02-28', shows: 0, snoozes: 0, completions: 0 },
        { date: '2026-03-01', shows: 0, snoozes: 0, completions: 0 },
        { date: '2026-03-02', shows: 2, snoozes: 1, completions: 1 },
        { date: '2026-03-03', shows: 1, snoozes: 0, completions: 0 },
      ],
      audienceSize: expect.any(Number),
    });
  });

  it('the same events fall on other days in another zone; a popup not started lists its event days only', async () => {
    const p = await popup({ timezone: 'Asia/Tokyo', startAt: new Date('2026-03-01T15:00:00Z') }); // 2 March 00:00 in Tokyo
    const m = await signedInMember(t.app);
    await next(m); // 21:00 on 2 March in Tokyo
    t.clock.set(new Date('2026-03-02T15:30:00Z')); // 00:30 on 3 March in Tokyo
    await next(await signInAgain(m));
    expect((await results(p.id)).days).toEqual([
      { date: '2026-03-02', shows: 1, snoozes: 0, completions: 0 },
      { date: '2026-03-03', shows: 1, snoozes: 0, completions: 0 },
    ]);
    const future = await popup({ startAt: new Date(START.getTime() + 5 * DAY) });
    expect(await results(future.id)).toEqual({ days: [], audienceSize: expect.any(Number) });
  });

  it('ends at the popup end, and answers the audience size', async () => {
    const tag = randomUUID().slice(0, 8);
    const m = await signedInMember(t.app, { company: `Results ${tag}` });
    await signedInMember(t.app, { company: `Results ${tag}` });
    const [{ companyId }] = (await t.database.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, m.id))) as [{ companyId: string }];
    const p = await popup({ startAt: new Date('2026-02-25T10:00:00Z'), endAt: new Date('2026-02-27T00:00:00Z'), audienceCompanyIds: [companyId] });
    expect(await results(p.id)).toEqual({
      days: [
        { date: '2026-02-25', shows: 0, snoozes: 0, completions: 0 },
        { date: '2026-02-26', shows: 0, snoozes: 0, completions: 0 },
      ],
      audienceSize: 2,
    });
  });

  it('404 for an unknown or malformed id; 401 and 403 for others', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await adminCall({ method: 'GET', url: `/api/admin/popups/${id}/results` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Popup not found', code: 'not_found' });
    }
    const p = await popup();
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/popups/${p.id}/results` })).statusCode).toBe(401);
    const m = await signedInMember(t.app);
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: `/api/admin/popups/${p.id}/results` }))).statusCode).toBe(403);
  });
});

describe('the OpenAPI document', () => {
  it('describes the new routes with their schemas', async () => {
    await t.app.ready();
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>> };
    expect(doc.paths['/api/admin/popups/reach']?.post?.requestBody).toBeDefined();
    expect(doc.paths['/api/admin/popups/reach']?.post?.responses['200']).toBeDefined();
    expect(doc.paths['/api/admin/popups/{id}/results']?.get?.responses['200']).toBeDefined();
    expect(doc.paths['/api/admin/popups/action-urls']?.get?.responses['200']).toBeDefined();
    expect(JSON.stringify(doc.paths['/api/popups/next'])).toContain('actionTarget');
    expect(JSON.stringify(doc.paths['/api/admin/popups'])).toContain('nextOccurrenceAt');
  });
});
