import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, popups, userPopupStates } from '../../src/db/schema';
import type { AdminPopup, AdminPopupListItem } from '../../src/shared/schemas/popups';
import { asUser, createTestApp, signedInAdmin, signedInMember, type TestApp, MISSING_ID } from './support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;

let seq = 0;
/** A valid form body; each call gets a unique title so lists can be filtered to this test's rows. */
function body(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const now = t.clock().getTime();
  return {
    title: `Vital Scan reminder ${seq}`,
    message: 'Take your 30-second Vital Scan today.',
    target: 'home',
    startAt: new Date(now - DAY).toISOString(),
    endAt: new Date(now + 30 * DAY).toISOString(),
    recurrence: 'WEEKLY',
    interval: 1,
    timezone: 'America/Los_Angeles',
    theme: 'green',
    maxSnoozes: 2,
    priority: 5,
    isActive: true,
    ...overrides,
  };
}

const as = (token: string, options: InjectOptions) => t.app.inject(asUser(token, options));
const adminCall = (options: InjectOptions) => as(admin.token, options);
const create = (payload: object) => adminCall({ method: 'POST', url: '/api/admin/popups', payload });
const createOk = async (payload: object = body()) => {
  const res = await create(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AdminPopup;
};
const list = async (query = '') => {
  const res = await adminCall({ method: 'GET', url: `/api/admin/popups${query ? `?${query}` : ''}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { popups: AdminPopupListItem[] }).popups;
};
const countPopups = async () => Number((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(popups))[0]!.n);
const adminEvents = async (type: string, popupId: string) =>
  t.database.db
    .select()
    .from(events)
    .where(and(eq(events.type, type), sql`${events.payloadJson}->>'popupId' = ${popupId}`));

describe('authorization on every admin popup endpoint', () => {
  const endpoints = (id: string) =>
    [
      { method: 'GET', url: '/api/admin/popups' },
      { method: 'POST', url: '/api/admin/popups', payload: body() },
      { method: 'PUT', url: `/api/admin/popups/${id}`, payload: body() },
      { method: 'POST', url: `/api/admin/popups/${id}/activate` },
      { method: 'POST', url: `/api/admin/popups/${id}/deactivate` },
      { method: 'DELETE', url: `/api/admin/popups/${id}` },
      { method: 'GET', url: '/api/admin/popups/action-urls' },
      { method: 'POST', url: '/api/admin/popups/reach', payload: { companyIds: [] } },
      { method: 'GET', url: `/api/admin/popups/${id}/results` },
    ] as InjectOptions[];

  it('anonymous callers get 401, members and admins without Admin Access 403, and nothing changes', async () => {
    const existing = await createOk();
    const member = await signedInMember(t.app);
    const plainAdmin = await signedInAdmin(t, { elevate: false });
    const before = await countPopups();
    for (const options of endpoints(existing.id)) {
      const anonymous = await t.app.inject(options);
      expect(anonymous.statusCode, `${options.method} ${options.url}`).toBe(401);
      expect(anonymous.json()).toEqual({ error: 'Authentication required', code: 'unauthenticated' });
      for (const who of [member, plainAdmin]) {
        const res = await as(who.token, options);
        expect(res.statusCode, `${options.method} ${options.url}`).toBe(403);
        expect(res.json()).toEqual({ error: 'Admin access required', code: 'forbidden' });
      }
    }
    expect(await countPopups()).toBe(before);
    const [row] = await t.database.db.select().from(popups).where(eq(popups.id, existing.id));
    expect(row!.title).toBe(existing.title);
    expect(row!.isActive).toBe(true);
  });

  it('an elevated admin reaches every endpoint', async () => {
    const existing = await createOk();
    const codes = [];
    for (const options of endpoints(existing.id)) codes.push((await adminCall(options)).statusCode);
    expect(codes).toEqual([200, 201, 200, 200, 200, 200, 200, 200, 404]);
  });
});

describe('POST /api/admin/popups', () => {
  it('creates the popup, answers it, and records an admin event', async () => {
    const input = body({ title: '  Enrol in care  ', timezone: 'Europe/London', recurrence: 'DAILY', interval: 3, priority: 9, maxSnoozes: 0 });
    const created = await createOk(input);
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Enrol in care',
      message: input.message,
      target: 'home',
      startAt: input.startAt,
      endAt: input.endAt,
      recurrence: 'DAILY',
      interval: 3,
      timezone: 'Europe/London',
      theme: 'green',
      maxSnoozes: 0,
      priority: 9,
      isActive: true,
      actionLabel: 'Take Vital Scan',
      actionTarget: 'https://example.org/vital-scan',
      audience: { companyIds: [], enrolledOnly: false, withFamilyOnly: false },
      dailyCap: null,
      quietHours: null,
      status: 'live',
      nextOccurrenceAt: input.startAt,
      createdAt: t.clock().toISOString(),
      updatedAt: t.clock().toISOString(),
    });
    const [event] = await adminEvents('admin.popup.created', created.id);
    expect(event).toMatchObject({ actorUserId: admin.id, payloadJson: { popupId: created.id, title: 'Enrol in care' } });
  });

  it('applies the form defaults: NONE, interval 1, UTC, purple, 2 snoozes, priority 5, inactive', async () => {
    const { title, message, target, startAt, endAt } = body();
    const created = await createOk({ title, message, target, startAt, endAt });
    expect(created).toMatchObject({ recurrence: 'NONE', interval: 1, timezone: 'UTC', theme: 'purple', maxSnoozes: 2, priority: 5, isActive: false });
  });

  it('keeps the instant of a start given with an offset', async () => {
    const created = await createOk(body({ startAt: '2026-03-01T09:00:00-08:00' }));
    expect(created.startAt).toBe('2026-03-01T17:00:00.000Z');
  });

  it.each([
    ['title', { title: '' }, 'Title is required'],
    ['title', { title: 'x'.repeat(101) }, 'Title must be 100 characters or less'],
    ['title', { title: 42 }, 'Title is required'],
    ['message', { message: '   ' }, 'Message is required'],
    ['message', { message: 'x'.repeat(501) }, 'Message must be 500 characters or less'],
    ['target', { target: 'store' }, 'Target page is required'],
    ['target', { target: null }, 'Target page is required'],
    ['startAt', { startAt: '' }, 'Start date is required'],
    ['startAt', { startAt: 'not a date' }, 'Start date is required'],
    ['startAt', { startAt: 1767225600000 }, 'Start date is required'],
    ['endAt', { endAt: undefined }, 'End date is required'],
    ['endAt', { endAt: '2020-01-01T00:00:00.000Z' }, 'End date must be after start date'],
    // Valid ISO strings that PostgreSQL cannot store (no year 0; 9999 with an offset is year 10000).
    ['startAt', { startAt: '0000-06-01T00:00:00Z' }, 'Start date must be in the years 2000 to 2099'],
    ['startAt', { startAt: '1999-12-31T23:59:59Z' }, 'Start date must be in the years 2000 to 2099'],
    ['endAt', { endAt: '9999-12-31T23:00:00-05:00' }, 'End date must be in the years 2000 to 2099'],
    ['endAt', { endAt: '2100-01-01T00:00:00Z' }, 'End date must be in the years 2000 to 2099'],
    ['recurrence', { recurrence: 'MONTHLY' }, 'Recurrence must be NONE, HOURLY, DAILY or WEEKLY'],
    ['interval', { interval: 0 }, 'Interval must be a whole number from 1 to 24'],
    ['interval', { interval: 25 }, 'Interval must be a whole number from 1 to 24'],
    ['interval', { interval: '2' }, 'Interval must be a whole number from 1 to 24'],
    ['interval', { interval: 1e308 }, 'Interval must be a whole number from 1 to 24'],
    ['timezone', { timezone: 'Mars/Olympus_Mons' }, 'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)'],
    ['timezone', { timezone: '+05:00' }, 'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)'],
    ['timezone', { timezone: 'x'.repeat(5000) }, 'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)'],
    ['timezone', { timezone: '' }, 'Timezone is required'],
    ['theme', { theme: 'blue' }, 'Theme must be green, purple or white'],
    ['maxSnoozes', { maxSnoozes: -1 }, 'Max snoozes must be a whole number from 0 to 10'],
    ['maxSnoozes', { maxSnoozes: 11 }, 'Max snoozes must be a whole number from 0 to 10'],
    ['maxSnoozes', { maxSnoozes: 2.5 }, 'Max snoozes must be a whole number from 0 to 10'],
    ['priority', { priority: 0 }, 'Priority must be a whole number from 1 to 10'],
    ['priority', { priority: 11 }, 'Priority must be a whole number from 1 to 10'],
    ['priority', { priority: [5] }, 'Priority must be a whole number from 1 to 10'],
    ['isActive', { isActive: 'true' }, 'Active must be true or false'],
  ])('400 for a bad %s (%j) with the field message, storing nothing', async (field, override, message) => {
    const before = await countPopups();
    const res = await create(body(override));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
    expect(res.json().error).toEqual(expect.any(String));
    expect(await countPopups()).toBe(before);
  });

  it('reports every bad field at once', async () => {
    const res = await create({ title: '', message: '', target: 'nowhere', startAt: '', endAt: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      title: 'Title is required',
      message: 'Message is required',
      target: 'Target page is required',
      startAt: 'Start date is required',
      endAt: 'End date is required',
    });
  });

  it('answers 413 for a 1 MB string and 400 for malformed JSON, storing nothing', async () => {
    const before = await countPopups();
    const huge = await create(body({ message: 'x'.repeat(1024 * 1024) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'Request body is too large', code: 'payload_too_large' });
    const malformed = await adminCall({ method: 'POST', url: '/api/admin/popups', payload: '{"title":', headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    const notObject = await create([body()]);
    expect(notObject.statusCode).toBe(400);
    expect(await countPopups()).toBe(before);
  });

  it('ignores unknown fields such as id or statistics', async () => {
    const created = await createOk({ ...body(), id: MISSING_ID, createdAt: '2000-01-01T00:00:00Z', statistics: { totalShows: 99 } });
    expect(created.id).not.toBe(MISSING_ID);
    expect(created.createdAt).toBe(t.clock().toISOString());
  });
});

describe('PUT /api/admin/popups/{id}', () => {
  it('replaces every field, stamps updatedAt, and records an admin event', async () => {
    const created = await createOk();
    t.clock.advance(60_000);
    const changes = body({ title: 'Renamed', target: 'wealth', theme: 'white', priority: 2, isActive: false, recurrence: 'HOURLY', interval: 6 });
    const res = await adminCall({ method: 'PUT', url: `/api/admin/popups/${created.id}`, payload: changes });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, title: 'Renamed', target: 'wealth', theme: 'white', priority: 2, isActive: false, recurrence: 'HOURLY', interval: 6, createdAt: created.createdAt, updatedAt: t.clock().toISOString() });
    expect(await adminEvents('admin.popup.updated', created.id)).toHaveLength(1);
  });

  it('400 with field messages and no change for a bad body; 404 for an unknown or malformed id', async () => {
    const created = await createOk();
    const bad = await adminCall({ method: 'PUT', url: `/api/admin/popups/${created.id}`, payload: body({ timezone: 'Not/AZone', priority: 99 }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ timezone: 'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)', priority: 'Priority must be a whole number from 1 to 10' });
    const [row] = await t.database.db.select().from(popups).where(eq(popups.id, created.id));
    expect(row!.timezone).toBe('America/Los_Angeles');
    for (const id of [MISSING_ID, 'nope']) {
      const res = await adminCall({ method: 'PUT', url: `/api/admin/popups/${id}`, payload: body() });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Popup not found', code: 'not_found' });
    }
  });
});

describe('activate, deactivate and delete', () => {
  it('switches isActive both ways, recording an event each time', async () => {
    const created = await createOk(body({ isActive: false }));
    const on = await adminCall({ method: 'POST', url: `/api/admin/popups/${created.id}/activate` });
    expect(on.statusCode).toBe(200);
    expect(on.json().isActive).toBe(true);
    const off = await adminCall({ method: 'POST', url: `/api/admin/popups/${created.id}/deactivate` });
    expect(off.json().isActive).toBe(false);
    expect(await adminEvents('admin.popup.activated', created.id)).toHaveLength(1);
    expect(await adminEvents('admin.popup.deactivated', created.id)).toHaveLength(1);
  });

  it('a deactivated popup stops being shown to members', async () => {
    const created = await createOk(body({ priority: 10, target: 'profile' }));
    const m = await signedInMember(t.app);
    const shown = await as(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=profile' });
    expect(shown.json().id).toBe(created.id);
    await adminCall({ method: 'POST', url: `/api/admin/popups/${created.id}/deactivate` });
    const after = await as(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=profile' });
    expect(after.statusCode === 204 || after.json().id !== created.id).toBe(true);
  });

  it('deletes the popup with its member states, records an event, then answers 404', async () => {
    const created = await createOk(body({ priority: 10, target: 'health' }));
    const m = await signedInMember(t.app);
    await as(m.token, { method: 'POST', url: `/api/popups/${created.id}/snooze` });
    const res = await adminCall({ method: 'DELETE', url: `/api/admin/popups/${created.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await t.database.db.select().from(popups).where(eq(popups.id, created.id))).toEqual([]);
    expect(await t.database.db.select().from(userPopupStates).where(eq(userPopupStates.popupId, created.id))).toEqual([]);
    expect(await adminEvents('admin.popup.deleted', created.id)).toHaveLength(1);
    for (const options of [
      { method: 'DELETE', url: `/api/admin/popups/${created.id}` },
      { method: 'POST', url: `/api/admin/popups/${created.id}/activate` },
      { method: 'POST', url: `/api/admin/popups/${created.id}/deactivate` },
    ] as InjectOptions[]) {
      expect((await adminCall(options)).statusCode).toBe(404);
    }
    expect((await as(m.token, { method: 'POST', url: `/api/popups/${created.id}/complete` })).statusCode).toBe(404);
  });
});

describe('GET /api/admin/popups', () => {
  it('wraps the popups in a field, each with exact statistics from recorded events', async () => {
    const created = await createOk(body({ priority: 10, target: 'wealth', maxSnoozes: 1 }));
    const a = await signedInMember(t.app);
    const b = await signedInMember(t.app);
    const next = (m: { token: string }) => as(m.token, { method: 'GET', url: '/api/popups/next?context=login&route=wealth' });
    expect((await next(a)).json().id).toBe(created.id);
    expect((await next(b)).json().id).toBe(created.id);
    expect((await next(b)).json().id).toBe(created.id); // same session and occurrence: not counted again
    t.clock.advance(1000); // a later sign-in counts again
    const bAgain = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: b.email, password: b.password } });
    expect((await as(bAgain.json().token, { method: 'GET', url: '/api/popups/next?context=login&route=wealth' })).json().id).toBe(created.id);
    await as(a.token, { method: 'POST', url: `/api/popups/${created.id}/snooze` });
    await as(a.token, { method: 'POST', url: `/api/popups/${created.id}/snooze` }); // refused: limit 1
    await as(b.token, { method: 'POST', url: `/api/popups/${created.id}/complete` });
    await as(b.token, { method: 'POST', url: `/api/popups/${created.id}/complete` }); // repeat: not counted
    const item = (await list(`search=${encodeURIComponent(created.title)}`)).find((p) => p.id === created.id)!;
    expect(item.statistics).toEqual({ totalShows: 3, totalSnoozes: 1, totalCompletions: 1 });
    expect(item).toMatchObject({ title: created.title, target: 'wealth', priority: 10, isActive: true });
  });

  it('a popup nobody has seen has zero statistics', async () => {
    const created = await createOk();
    const item = (await list()).find((p) => p.id === created.id)!;
    expect(item.statistics).toEqual({ totalShows: 0, totalSnoozes: 0, totalCompletions: 0 });
  });

  it('searches title and message, case-insensitively, with % and _ as literal characters', async () => {
    const tag = `zq${Date.now()}`;
    const inTitle = await createOk(body({ title: `Flu ${tag} Shot` }));
    const inMessage = await createOk(body({ message: `Remember the ${tag.toUpperCase()} clinic` }));
    const percent = await createOk(body({ title: `${tag} 100% covered` }));
    const thousand = await createOk(body({ title: `${tag} 1000 covered` }));
    expect((await list(`search=${tag}`)).map((p) => p.id).sort()).toEqual([inTitle.id, inMessage.id, percent.id, thousand.id].sort());
    expect((await list(`search=${encodeURIComponent(`${tag} 100%`)}`)).map((p) => p.id)).toEqual([percent.id]);
    expect(await list(`search=${encodeURIComponent(`${tag}_`)}`)).toEqual([]);
    expect(await list(`search=${encodeURIComponent("' or 1=1 --")}`)).toEqual([]);
  });

  it('filters by status', async () => {
    const tag = `st${Date.now()}`;
    const on = await createOk(body({ title: `${tag} on`, isActive: true }));
    const off = await createOk(body({ title: `${tag} off`, isActive: false }));
    expect((await list(`search=${tag}&status=active`)).map((p) => p.id)).toEqual([on.id]);
    expect((await list(`search=${tag}&status=inactive`)).map((p) => p.id)).toEqual([off.id]);
    expect((await list(`search=${tag}&status=`)).map((p) => p.id).sort()).toEqual([on.id, off.id].sort());
  });

  it('sorts by priority descending by default, and by priority, title or created date either way', async () => {
    const tag = `so${Date.now()}`;
    const b = await createOk(body({ title: `${tag} b`, priority: 3 }));
    t.clock.advance(1000);
    const a = await createOk(body({ title: `${tag} A`, priority: 9 }));
    t.clock.advance(1000);
    const c = await createOk(body({ title: `${tag} c`, priority: 6 }));
    const ids = async (q: string) => (await list(`search=${tag}${q}`)).map((p) => p.id);
    expect(await ids('')).toEqual([a.id, c.id, b.id]);
    expect(await ids('&sortBy=priority&sortOrder=asc')).toEqual([b.id, c.id, a.id]);
    expect(await ids('&sortBy=title&sortOrder=asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('&sortBy=title&sortOrder=desc')).toEqual([c.id, b.id, a.id]);
    expect(await ids('&sortBy=createdAt&sortOrder=asc')).toEqual([b.id, a.id, c.id]);
    expect(await ids('&sortBy=createdAt&sortOrder=desc')).toEqual([c.id, a.id, b.id]);
  });

  it.each([
    ['status', 'status=archived', 'Status must be active or inactive'],
    ['sortBy', 'sortBy=endAt', 'Sort by must be priority, title or createdAt'],
    ['sortOrder', 'sortOrder=sideways', 'Sort order must be asc or desc'],
    ['search', `search=${'x'.repeat(101)}`, 'Search must be 100 characters or less'],
  ])('400 with the field message for a bad %s', async (field, query, message) => {
    const res = await adminCall({ method: 'GET', url: `/api/admin/popups?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
  });

  it('lists only the fields of the contract', async () => {
    await createOk();
    const [item] = await list();
    expect(Object.keys(item!).sort()).toEqual(
      [
        ...['id', 'title', 'message', 'target', 'startAt', 'endAt', 'recurrence', 'interval', 'timezone', 'theme', 'maxSnoozes', 'priority', 'isActive', 'createdAt', 'updatedAt', 'statistics'],
        ...['actionLabel', 'actionTarget', 'audience', 'dailyCap', 'quietHours', 'status', 'nextOccurrenceAt'],
      ].sort(),
    );
  });
});
