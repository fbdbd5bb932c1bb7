/**
 * Issue 12: a popup's action (button label and destination) and its audience (employers,
 * enrolled only, with family only), on save, in the member answers, and the admin's
 * "Reaches about N members" count.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { popups, users } from '../../src/db/schema';
import type { AdminPopup, MemberPopup } from '../../src/shared/schemas/popups';
import { asUser, createTestApp, freshSessionHeaders, registerMember, signedInAdmin, signedInMember, type TestApp } from './support/test-app';
import { announceChange } from '../../src/server/lib/notify';
import { statementCounter } from './support/statements';

const VITAL_SCAN = 'https://vitalscan.example.test/start';
const WELLNESS = 'https://wellness.example.test/daily';
const FLU_CLINIC = 'https://clinic.example.test/flu';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let statements: ReturnType<typeof statementCounter>;
beforeAll(async () => {
  t = await createTestApp({ env: { VITAL_SCAN_URL: VITAL_SCAN, WELLNESS_PROGRAM_URL: WELLNESS, POPUP_ACTION_URLS: `${WELLNESS},${FLU_CLINIC}` } });
  statements = statementCounter(t.database.db);
  admin = await signedInAdmin(t);
});
afterAll(async () => {
  await t?.close();
});
// One database for the file: each test starts with no live popup, so earlier tests' popups never compete.
beforeEach(async () => {
  await t.database.db.update(popups).set({ isActive: false });
  // Written behind the app's back, so announced as the admin routes do: the app holds the popups that are on.
  await announceChange(t.database.db, { popups: true });
});

const DAY = 86_400_000;
let seq = 0;
function body(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const now = t.clock().getTime();
  return {
    title: `Audience popup ${seq}`,
    message: 'Book your flu shot.',
    target: 'home',
    startAt: new Date(now - DAY).toISOString(),
    endAt: new Date(now + 30 * DAY).toISOString(),
    isActive: true,
    priority: 10,
    ...overrides,
  };
}

const adminCall = (options: InjectOptions) => t.app.inject(asUser(admin.token, options));
const create = (payload: object) => adminCall({ method: 'POST', url: '/api/admin/popups', payload });
async function createOk(payload: object = body()): Promise<AdminPopup> {
  const res = await create(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AdminPopup;
}
const next = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/popups/next?context=login&route=home', headers });
const nextId = async (headers: Record<string, string>) => {
  const res = await next(headers);
  expect([200, 204]).toContain(res.statusCode);
  return res.statusCode === 204 ? null : (res.json() as MemberPopup).id;
};
const activeIds = async (headers: Record<string, string>) =>
  ((await t.app.inject({ method: 'GET', url: '/api/popups/active', headers })).json() as { popups: MemberPopup[] }).popups.map((p) => p.id);
const reach = (payload: unknown, token = admin.token) => t.app.inject(asUser(token, { method: 'POST', url: '/api/admin/popups/reach', payload: payload as object }));
const companyOf = async (userId: string) => (await t.database.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, userId)))[0]!.companyId;
const addFamily = async (token: string) => {
  const res = await t.app.inject(asUser(token, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Kid', lastName: 'Member', dob: '2015-04-05', relationship: 'Child' } }));
  expect(res.statusCode, res.body).toBe(201);
};

describe('the action: button label and destination', () => {
  it('defaults to "Take Vital Scan" and the vital-scan URL, in the admin and the member answers', async () => {
    const created = await createOk();
    expect(created).toMatchObject({ actionLabel: 'Take Vital Scan', actionTarget: VITAL_SCAN });
    const [row] = await t.database.db.select().from(popups).where(eq(popups.id, created.id));
    expect(row!.actionTarget).toBeNull();
    const m = await signedInMember(t.app);
    const shown = (await next(m.auth)).json() as MemberPopup;
    expect(shown).toMatchObject({ id: created.id, actionLabel: 'Take Vital Scan', actionTarget: VITAL_SCAN });
  });

  it.each([
    ['an app path', '/health/get-care/prescriptions', '/health/get-care/prescriptions'],
    ['an allow-listed https URL', FLU_CLINIC, FLU_CLINIC],
    ['the wellness URL', WELLNESS, WELLNESS],
    ['the vital-scan URL (stored as the default)', VITAL_SCAN, VITAL_SCAN],
    ['an empty destination (the default)', '', VITAL_SCAN],
  ])('saves %s and answers it to members', async (_what, actionTarget, answered) => {
    const created = await createOk(body({ actionLabel: '  Book a flu shot ', actionTarget }));
    expect(created).toMatchObject({ actionLabel: 'Book a flu shot', actionTarget: answered });
    const m = await signedInMember(t.app);
    expect((await next(m.auth)).json()).toMatchObject({ id: created.id, actionLabel: 'Book a flu shot', actionTarget: answered });
    expect((await activeIds(m.auth))).toContain(created.id);
    const [row] = await t.database.db.select().from(popups).where(eq(popups.id, created.id));
    expect(row!.actionTarget).toBe(answered === VITAL_SCAN ? null : answered);
  });

  it.each([
    ['an https URL not on the list', 'https://evil.example.test/phish', 'This address is not on the list of allowed sites'],
    ['an allow-listed host with another path', 'https://clinic.example.test/other', 'This address is not on the list of allowed sites'],
    ['plain http', 'http://clinic.example.test/flu', 'Destination must be a page of the app or an https address'],
    ['javascript:', 'javascript:alert(1)', 'Destination must be a page of the app or an https address'],
    ['an admin path', '/admin/popups', 'Destination must be a page of the app or an https address'],
    ['an unknown app path', '/nowhere', 'Destination must be a page of the app or an https address'],
    ['a protocol-relative URL', '//evil.example.test', 'Destination must be a page of the app or an https address'],
    ['a broken https URL', 'https://[', 'Destination must be a page of the app or an https address'],
    ['a number', 42, 'Destination must be a page of the app or an https address'],
  ])('400 on actionTarget for %s, storing nothing', async (_what, actionTarget, message) => {
    const payload = body({ actionTarget });
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: message, code: 'validation', fields: { actionTarget: message } });
    expect(await t.database.db.select().from(popups).where(eq(popups.title, payload.title))).toEqual([]);
  });

  it.each([
    ['', 'Button label is required'],
    ['   ', 'Button label is required'],
    ['x'.repeat(41), 'Button label must be 40 characters or less'],
  ])('400 on actionLabel for %j', async (actionLabel, message) => {
    const res = await create(body({ actionLabel }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.actionLabel).toBe(message);
  });

  it('an update is checked against the list too', async () => {
    const created = await createOk(body({ actionTarget: FLU_CLINIC }));
    const res = await adminCall({ method: 'PUT', url: `/api/admin/popups/${created.id}`, payload: body({ actionTarget: 'https://evil.example.test/' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ actionTarget: 'This address is not on the list of allowed sites' });
    const [row] = await t.database.db.select().from(popups).where(eq(popups.id, created.id));
    expect(row!.actionTarget).toBe(FLU_CLINIC);
  });

  it('GET /api/admin/popups/action-urls lists the vital-scan URL and the configured sites, for admins only', async () => {
    const res = await adminCall({ method: 'GET', url: '/api/admin/popups/action-urls' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ urls: [VITAL_SCAN, WELLNESS, FLU_CLINIC] });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/popups/action-urls' })).statusCode).toBe(401);
    const m = await signedInMember(t.app);
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/admin/popups/action-urls' }))).statusCode).toBe(403);
  });

  it('completing a popup with its own action still records the completion', async () => {
    const created = await createOk(body({ actionTarget: '/health/get-care/prescriptions', actionLabel: 'Refill now' }));
    const m = await signedInMember(t.app);
    expect(await nextId(m.auth)).toBe(created.id);
    expect((await t.app.inject(asUser(m.token, { method: 'POST', url: `/api/popups/${created.id}/complete` }))).statusCode).toBe(200);
    const list = await adminCall({ method: 'GET', url: `/api/admin/popups?search=${encodeURIComponent(created.title)}` });
    expect(list.json().popups[0].statistics).toEqual({ totalShows: 1, totalSnoozes: 0, totalCompletions: 1 });
  });
});

describe('the audience', () => {
  it('is stored and answered; employers are de-duplicated', async () => {
    const m = await registerMember(t.app, { company: `Stored Audience ${randomUUID().slice(0, 8)}` });
    const companyId = await companyOf(m.id);
    const created = await createOk(body({ audience: { companyIds: [companyId, companyId.toUpperCase()], enrolledOnly: true, withFamilyOnly: false } }));
    expect(created.audience).toEqual({ companyIds: [companyId], enrolledOnly: true, withFamilyOnly: false });
    const defaults = await createOk(body());
    expect(defaults.audience).toEqual({ companyIds: [], enrolledOnly: false, withFamilyOnly: false });
  });

  it.each([
    ['an employer that does not exist', { companyIds: [randomUUID()] }, 'One of the chosen employers no longer exists'],
    ['a malformed employer id', { companyIds: ['acme'] }, 'Audience must list employers by ID'],
    ['a flag that is not a boolean', { enrolledOnly: 'yes' }, 'Audience must list employers by ID'],
    ['201 employers', { companyIds: Array.from({ length: 201 }, () => randomUUID()) }, 'Choose at most 200 employers'],
  ])('400 on audience for %s, storing nothing', async (_what, audience, message) => {
    const payload = body({ audience });
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields.audience).toBe(message);
    expect(await t.database.db.select().from(popups).where(eq(popups.title, payload.title))).toEqual([]);
  });

  it('only members of the chosen employers are offered the popup, by next and by active', async () => {
    const tag = randomUUID().slice(0, 8);
    const inA = await signedInMember(t.app, { company: `Employer A ${tag}` });
    const inB = await signedInMember(t.app, { company: `Employer B ${tag}` });
    const inC = await signedInMember(t.app, { company: `Employer C ${tag}` });
    const [a, b] = [await companyOf(inA.id), await companyOf(inB.id)];
    const forA = await createOk(body({ audience: { companyIds: [a] } }));
    const forAB = await createOk(body({ audience: { companyIds: [a, b] }, priority: 9 }));
    const forAll = await createOk(body({ priority: 1 }));
    expect(await activeIds(inA.auth)).toEqual([forA.id, forAB.id, forAll.id]);
    expect(await activeIds(inB.auth)).toEqual([forAB.id, forAll.id]);
    expect(await activeIds(inC.auth)).toEqual([forAll.id]);
    expect(await nextId(inB.auth)).toBe(forAB.id);
    expect(await nextId(inC.auth)).toBe(forAll.id);
    // Outside the audience the popup does not exist: snooze and complete answer 404 and count nothing.
    for (const action of ['snooze', 'complete']) {
      const res = await t.app.inject(asUser(inB.token, { method: 'POST', url: `/api/popups/${forA.id}/${action}` }));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Popup not found', code: 'not_found' });
    }
    expect((await t.app.inject(asUser(inA.token, { method: 'POST', url: `/api/popups/${forA.id}/snooze` }))).statusCode).toBe(200);
    const list = await adminCall({ method: 'GET', url: `/api/admin/popups?search=${encodeURIComponent(forA.title)}` });
    expect(list.json().popups[0].statistics).toEqual({ totalShows: 0, totalSnoozes: 1, totalCompletions: 0 });
  });

  it('"only enrolled members" leaves out a member who has never signed in to the programme', async () => {
    const tag = randomUUID().slice(0, 8);
    const enrolled = await signedInMember(t.app, { company: `Enrolment ${tag}` });
    const registered = await registerMember(t.app, { company: `Enrolment ${tag}` });
    const notEnrolled = await freshSessionHeaders(t, registered.id); // a session without the sign-in that enrols
    const p = await createOk(body({ audience: { companyIds: [await companyOf(enrolled.id)], enrolledOnly: true } }));
    expect(await nextId(enrolled.auth)).toBe(p.id);
    expect(await nextId(notEnrolled)).toBeNull();
    expect(await activeIds(notEnrolled)).toEqual([]);
  });

  it('a popup asking about enrolment costs a read of the member facts only while it is live, and an enrolled member’s are held', async () => {
    const tag = randomUUID().slice(0, 8);
    const member = await signedInMember(t.app, { company: `Facts ${tag}` });
    const everyone = await createOk(body({ priority: 5 }));
    await createOk(body({ priority: 9, startAt: new Date(t.clock().getTime() + DAY).toISOString(), audience: { companyIds: [], enrolledOnly: true } }));
    expect(await nextId(member.auth)).toBe(everyone.id);
    // Asking again for the popup shown, with the one asking about enrolment scheduled for tomorrow: nothing read.
    expect(await statements.during(async () => expect(await nextId(member.auth)).toBe(everyone.id))).toEqual([]);
    // One that asks, live now (though ranked below): the facts are read once, then held (the member is enrolled).
    await createOk(body({ priority: 1, audience: { companyIds: [], enrolledOnly: true } }));
    const first = await statements.during(async () => expect(await nextId(member.auth)).toBe(everyone.id));
    expect(first.filter((q) => /enrolled_at/.test(q)), JSON.stringify(first)).toHaveLength(1);
    expect(await statements.during(async () => expect(await nextId(member.auth)).toBe(everyone.id))).toEqual([]);
    // A member not yet enrolled (a session without the sign-in that enrols): read on every call, never held.
    const registered = await registerMember(t.app, { company: `Facts ${tag}` });
    const notEnrolled = await freshSessionHeaders(t, registered.id);
    expect(await nextId(notEnrolled)).toBe(everyone.id);
    const again = await statements.during(async () => expect(await nextId(notEnrolled)).toBe(everyone.id));
    expect(again, JSON.stringify(again)).toHaveLength(1);
    expect(again[0]).toMatch(/enrolled_at/);
  });

  it('a member not yet enrolled is offered the popup for enrolled members as soon as a sign-in enrols them', async () => {
    const tag = randomUUID().slice(0, 8);
    const registered = await registerMember(t.app, { company: `Enrols ${tag}` });
    const before = await freshSessionHeaders(t, registered.id);
    const p = await createOk(body({ audience: { companyIds: [], enrolledOnly: true } }));
    expect(await nextId(before)).toBeNull();
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: registered.email, password: registered.password } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    // The older session too, at once: what was read before the sign-in was not held.
    expect(await nextId(before)).toBe(p.id);
  });

  it('"only members with family" follows the family list as it changes', async () => {
    const tag = randomUUID().slice(0, 8);
    const withFamily = await signedInMember(t.app, { company: `Families ${tag}` });
    const without = await signedInMember(t.app, { company: `Families ${tag}` });
    await addFamily(withFamily.token);
    const p = await createOk(body({ audience: { companyIds: [], enrolledOnly: false, withFamilyOnly: true } }));
    expect(await nextId(withFamily.auth)).toBe(p.id);
    expect(await nextId(without.auth)).toBeNull();
    await addFamily(without.token);
    expect(await nextId(without.auth)).toBe(p.id);
    // And back: the last family member removed, the popup is no longer offered (the held facts dropped).
    const list = await t.app.inject(asUser(without.token, { method: 'GET', url: '/api/family-members' }));
    const [kid] = (list.json() as { familyMembers: { id: string }[] }).familyMembers;
    expect((await t.app.inject(asUser(without.token, { method: 'DELETE', url: `/api/family-members/${kid!.id}` }))).statusCode).toBe(204);
    expect(await nextId(without.auth)).toBeNull();
  });
});

describe('POST /api/admin/popups/reach', () => {
  const countMembers = async (where: ReturnType<typeof sql>) =>
    Number(
      ((await t.database.db.execute(sql`select count(*)::int as n from users u left join participants p on p.user_id = u.id where u.role = 'member' and ${where}`)) as unknown as {
        rows: { n: number }[];
      }).rows[0]!.n,
    );

  it('counts members (not administrators) of every employer, enrolled, or with family: the same as counting the rows', async () => {
    const tag = randomUUID().slice(0, 8);
    const m1 = await signedInMember(t.app, { company: `Reach ${tag}` });
    await signedInMember(t.app, { company: `Reach ${tag}` });
    await registerMember(t.app, { company: `Reach ${tag}` }); // never signed in: not enrolled
    await addFamily(m1.token);
    const other = await signedInAdmin(t, { elevate: false }); // an administrator of the same employer
    await t.database.db.update(users).set({ companyId: await companyOf(m1.id) }).where(eq(users.id, other.id));
    const companyId = await companyOf(m1.id);
    const size = async (audience: object) => {
      const res = await reach(audience);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { audienceSize: number }).audienceSize;
    };
    expect(await size({ companyIds: [companyId] })).toBe(3);
    expect(await size({ companyIds: [companyId], enrolledOnly: true })).toBe(2);
    expect(await size({ companyIds: [companyId], withFamilyOnly: true })).toBe(1);
    expect(await size({ companyIds: [companyId], enrolledOnly: true, withFamilyOnly: true })).toBe(1);
    // Every employer: the database's own count of members.
    expect(await size({})).toBe(await countMembers(sql`true`));
    expect(await size({ enrolledOnly: true })).toBe(await countMembers(sql`u.enrolled_at is not null`));
    expect(await size({ withFamilyOnly: true })).toBe(await countMembers(sql`p.family_member_count > 0`));
  });

  it('400 for an unknown employer or a malformed audience; 401 and 403 for others', async () => {
    const unknown = await reach({ companyIds: [randomUUID()] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'One of the chosen employers no longer exists', code: 'validation', fields: { audience: 'One of the chosen employers no longer exists' } });
    const malformed = await reach({ companyIds: 'all' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields.companyIds).toBe('Audience must list employers by ID');
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/popups/reach', payload: {} })).statusCode).toBe(401);
    const m = await signedInMember(t.app);
    expect((await reach({}, m.token)).statusCode).toBe(403);
    const plainAdmin = await signedInAdmin(t, { elevate: false });
    expect((await reach({}, plainAdmin.token)).statusCode).toBe(403);
  });
});
