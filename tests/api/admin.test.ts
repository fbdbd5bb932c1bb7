import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, events, familyMembers, participants, users } from '../../src/db/schema';
import { searchEmployees } from '../../src/server/modules/admin/admin.repository';
import { asUser, createTestApp, registerMember, signedInAdmin, signedInMember, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = admin.token) => t.app.inject(asUser(token, { method: 'GET', url }));
const qs = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

interface Person {
  first: string;
  last: string;
  email?: string;
  lhmpId?: string;
  verified?: boolean;
  /** Signed in at this time (a participant); absent = never signed in. */
  lastLogin?: Date;
  family?: { first: string; last: string; relationship: string }[];
}

let idSeq = 0;
/** A unique 7-character programme ID outside the LQ range real registrations use. */
const nextLhmpId = () => `ZT${String(++idSeq + ((process.pid * 31) % 50_000)).padStart(5, '0')}`;
/** A token that makes this test's names unique in the shared file database. */
const tag = () => randomUUID().slice(0, 8);

/** Inserts an employer and its people directly; the triggers keep the aggregates. */
async function makeEmployer(name: string, people: Person[]) {
  const db = t.database.db;
  const [company] = await db.insert(companies).values({ name }).returning();
  const ids: Record<string, string> = {};
  for (const p of people) {
    const [u] = await db
      .insert(users)
      .values({
        firstName: p.first,
        lastName: p.last,
        email: p.email ?? `${p.first}.${p.last}.${tag()}@example.test`.toLowerCase(),
        lhmpId: p.lhmpId ?? nextLhmpId(),
        companyId: company!.id,
        passwordHash: 'not-a-real-hash',
        emailVerifiedAt: p.verified ? new Date('2026-01-05T10:00:00Z') : null,
        createdAt: new Date('2026-01-01T09:00:00Z'),
      })
      .returning();
    ids[`${p.first} ${p.last}`] = u!.id;
    if (p.lastLogin) {
      const [part] = await db
        .insert(participants)
        .values({ userId: u!.id, enrolledAt: new Date('2026-01-02T09:00:00Z'), lastLoginAt: p.lastLogin, familyMemberCount: p.family?.length ?? 0 })
        .returning();
      for (const [i, f] of (p.family ?? []).entries()) {
        await db.insert(familyMembers).values({
          participantId: part!.id,
          firstName: f.first,
          lastName: f.last,
          dob: '2012-04-01',
          relationship: f.relationship,
          createdAt: new Date(Date.UTC(2026, 0, 10 + i)),
        });
      }
    }
  }
  return { id: company!.id, name, ids };
}

const names = (list: { firstName: string; lastName: string }[]) => list.map((e) => `${e.firstName} ${e.lastName}`);

describe('GET /api/admin/employers', () => {
  it('lists each employer with employees, participants, family members and last activity (null when never)', async () => {
    const k = tag();
    const busy = await makeEmployer(`Busy ${k} Co`, [
      { first: 'Ann', last: 'One', lastLogin: new Date('2026-02-01T08:00:00Z'), family: [{ first: 'Kid', last: 'One', relationship: 'Child' }] },
      { first: 'Ben', last: 'Two', lastLogin: new Date('2026-02-03T08:00:00Z'), family: [
        { first: 'Sue', last: 'Two', relationship: 'Spouse' },
        { first: 'Pat', last: 'Two', relationship: 'Parent' },
      ] },
      { first: 'Cid', last: 'Three' },
    ]);
    const quiet = await makeEmployer(`Quiet ${k} Co`, [{ first: 'Dee', last: 'Four' }]);
    const empty = await makeEmployer(`Empty ${k} Co`, []);
    const res = await get(`/api/admin/employers?${qs({ search: k })}`);
    expect(res.statusCode).toBe(200);
    const byId = new Map(res.json().employers.map((e: { id: string }) => [e.id, e]));
    expect(byId.get(busy.id)).toEqual({ id: busy.id, name: busy.name, employees: 3, participants: 2, familyMembers: 3, lastActivity: '2026-02-03T08:00:00.000Z' });
    expect(byId.get(quiet.id)).toEqual({ id: quiet.id, name: quiet.name, employees: 1, participants: 0, familyMembers: 0, lastActivity: null });
    expect(byId.get(empty.id)).toEqual({ id: empty.id, name: empty.name, employees: 0, participants: 0, familyMembers: 0, lastActivity: null });
    expect(byId.size).toBe(3);
  });

  it('keeps the counts exact through registration, sign-in and family changes made through the API', async () => {
    const company = `Live ${tag()} Employer`;
    const member = await signedInMember(t.app, { company });
    const find = async () => (await get(`/api/admin/employers?${qs({ search: company })}`)).json().employers[0];
    expect(await find()).toMatchObject({ name: company, employees: 1, participants: 1, familyMembers: 0, lastActivity: t.clock().toISOString() });

    const add = await t.app.inject(
      asUser(member.token, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Lia', lastName: 'Live', dob: '2015-01-02', relationship: 'Child' } }),
    );
    expect(add.statusCode).toBe(201);
    expect(await find()).toMatchObject({ familyMembers: 1 });

    t.clock.advance(60_000);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: member.email, password: member.password } });
    expect(again.statusCode).toBe(200);
    expect(await find()).toMatchObject({ employees: 1, participants: 1, lastActivity: t.clock().toISOString() });

    const removed = await t.app.inject(asUser(member.token, { method: 'DELETE', url: `/api/family-members/${add.json().id}` }));
    expect(removed.statusCode).toBeLessThan(300);
    expect(await find()).toMatchObject({ familyMembers: 0 });
  });

  it('searches names case-insensitively as a substring, with % and _ as literal characters', async () => {
    const k = tag();
    await makeEmployer(`${k} 100% Natural`, []);
    await makeEmployer(`${k} Under_Score Ltd`, []);
    await makeEmployer(`${k} Underxscore Ltd`, []);
    await makeEmployer(`${k} Plain Foods`, []);
    const search = async (term: string) =>
      (await get(`/api/admin/employers?${qs({ search: term })}`)).json().employers.map((e: { name: string }) => e.name).filter((n: string) => n.startsWith(k));
    expect(await search(`${k} under`)).toEqual([`${k} Under_Score Ltd`, `${k} Underxscore Ltd`]);
    expect(await search(`${k.toUpperCase()} PLAIN`)).toEqual([`${k} Plain Foods`]);
    expect(await search(`${k} 100%`)).toEqual([`${k} 100% Natural`]);
    expect(await search('r_s')).toEqual([`${k} Under_Score Ltd`]);
    expect(await search('0% N')).toEqual([`${k} 100% Natural`]);
    expect(await search(`${k} under_`)).toEqual([`${k} Under_Score Ltd`]);
  });

  it('treats a blank search as no search', async () => {
    const all = await get('/api/admin/employers');
    const blank = await get(`/api/admin/employers?${qs({ search: '   ' })}`);
    expect(blank.statusCode).toBe(200);
    expect(blank.json().employers.length).toBe(all.json().employers.length);
  });

  it('sorts by name in either direction, case-insensitively', async () => {
    const k = tag();
    for (const n of ['bravo', 'Alpha', 'charlie']) await makeEmployer(`${k} ${n}`, []);
    const order = async (sortOrder?: string) =>
      (await get(`/api/admin/employers?${qs({ search: k, sortBy: 'name', ...(sortOrder ? { sortOrder } : {}) })}`)).json().employers.map((e: { name: string }) => e.name);
    expect(await order()).toEqual([`${k} Alpha`, `${k} bravo`, `${k} charlie`]);
    expect(await order('asc')).toEqual([`${k} Alpha`, `${k} bravo`, `${k} charlie`]);
    expect(await order('desc')).toEqual([`${k} charlie`, `${k} bravo`, `${k} Alpha`]);
  });

  it('sorts by last activity, never-active employers counting as the oldest', async () => {
    const k = tag();
    await makeEmployer(`${k} Recent`, [{ first: 'R', last: 'R', lastLogin: new Date('2026-02-20T00:00:00Z') }]);
    await makeEmployer(`${k} Never`, [{ first: 'N', last: 'N' }]);
    await makeEmployer(`${k} Older`, [{ first: 'O', last: 'O', lastLogin: new Date('2026-01-20T00:00:00Z') }]);
    const order = async (sortOrder: string) =>
      (await get(`/api/admin/employers?${qs({ search: k, sortBy: 'lastActivity', sortOrder })}`)).json().employers.map((e: { name: string }) => e.name);
    expect(await order('asc')).toEqual([`${k} Never`, `${k} Older`, `${k} Recent`]);
    expect(await order('desc')).toEqual([`${k} Recent`, `${k} Older`, `${k} Never`]);
  });

  it.each([
    ['sortBy', { sortBy: 'employees' }, 'Sort by must be name or lastActivity'],
    ['sortOrder', { sortOrder: 'up' }, 'Sort order must be asc or desc'],
    ['search', { search: 'x'.repeat(101) }, 'Search must be 100 characters or less'],
    ['search', { search: 'a\nb' }, 'Search must not contain control characters'],
  ])('answers 400 for a bad %s', async (field, params, message) => {
    const res = await get(`/api/admin/employers?${qs(params)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
  });
});

describe('GET /api/admin/employers/:companyId', () => {
  it('returns the employer with its counts', async () => {
    const e = await makeEmployer(`Detail ${tag()}`, [
      { first: 'A', last: 'A', lastLogin: new Date('2026-02-01T00:00:00Z'), family: [{ first: 'F', last: 'A', relationship: 'Other' }] },
      { first: 'B', last: 'B' },
    ]);
    const res = await get(`/api/admin/employers/${e.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ employer: { id: e.id, name: e.name, employees: 2, participants: 1, familyMembers: 1 } });
  });

  it('answers 404 for an unknown employer and the same 404 for a malformed id', async () => {
    const missing = await get(`/api/admin/employers/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Employer not found', code: 'not_found' });
    for (const bad of ['not-a-uuid', '1', `${randomUUID()}x`, '%00']) {
      const malformed = await get(`/api/admin/employers/${bad}`);
      expect(malformed.statusCode, bad).toBe(404);
      expect(malformed.json(), bad).toEqual(bad === '%00' ? { error: 'Not found', code: 'not_found' } : { error: 'Employer not found', code: 'not_found' });
    }
  });
});

describe('GET /api/admin/employers/:companyId/employees', () => {
  let e: Awaited<ReturnType<typeof makeEmployer>>;
  beforeAll(async () => {
    e = await makeEmployer(`Roster ${tag()} Inc`, [
      { first: 'John', last: 'Smith', email: `john.smith.${tag()}@roster.test`, lhmpId: 'RS00001', verified: true, lastLogin: new Date('2026-02-10T14:30:00Z'), family: [
        { first: 'Jane', last: 'Smith', relationship: 'Spouse' },
        { first: 'Jim', last: 'Smith', relationship: 'Child' },
      ] },
      { first: 'amy', last: 'adams', email: `a_b.${tag()}@roster.test`, lhmpId: 'RS00002', verified: true },
      { first: 'Zed', last: 'Brown', email: `axb.${tag()}@roster.test`, lhmpId: 'RS00003', lastLogin: new Date('2026-02-11T09:00:00Z') },
      { first: 'Percy', last: 'Cent', email: `100%.${tag()}@roster.test`, lhmpId: 'RS00004' },
      { first: 'Hun', last: 'Dred', email: `100x.${tag()}@roster.test`, lhmpId: 'RS00006' },
      { first: 'Mary Ann', last: 'de la Cruz', email: `mary.${tag()}@roster.test`, lhmpId: 'RS00005', verified: true, lastLogin: new Date('2026-02-12T09:00:00Z') },
    ]);
    // Someone at another employer who matches every search must never appear.
    await makeEmployer(`Elsewhere ${tag()}`, [{ first: 'John', last: 'Smith', email: `john.smith.${tag()}@elsewhere.test`, verified: true, lastLogin: new Date() }]);
  });
  const list = (params: Record<string, string | number> = {}) => get(`/api/admin/employers/${e.id}/employees?${qs(params)}`);

  it('lists the employer’s employees by last name then first name, case-insensitively, with every badge field', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(names(body.employees)).toEqual(['amy adams', 'Zed Brown', 'Percy Cent', 'Mary Ann de la Cruz', 'Hun Dred', 'John Smith']);
    expect(body.pagination).toEqual({ total: 6, page: 1, totalPages: 1, size: 25, totalIsCapped: false });
    expect(body.employees[5]).toEqual({
      id: e.ids['John Smith'],
      firstName: 'John',
      lastName: 'Smith',
      email: expect.stringMatching(/^john\.smith\./),
      lhmpId: 'RS00001',
      lastLogin: '2026-02-10T14:30:00.000Z',
      emailVerified: true,
      enrolled: true,
      familyMemberCount: 2,
    });
    expect(body.employees[0]).toMatchObject({ emailVerified: true, enrolled: false, lastLogin: null, familyMemberCount: 0 });
    expect(body.employees[1]).toMatchObject({ emailVerified: false, enrolled: true, familyMemberCount: 0 });
  });

  it.each([
    ['first name', 'joh', ['John Smith']],
    ['last name', 'SMITH', ['John Smith']],
    ['full name', 'n smi', ['John Smith']],
    ['full name with a space inside a first name', 'mary ann de', ['Mary Ann de la Cruz']],
    ['email', '@roster.test', ['amy adams', 'Zed Brown', 'Percy Cent', 'Mary Ann de la Cruz', 'Hun Dred', 'John Smith']],
    ['programme ID', 'rs00003', ['Zed Brown']],
    ['a literal underscore', 'a_b', ['amy adams']],
    ['a literal percent sign', '100%', ['Percy Cent']],
    ['a two-letter term (no trigram to use)', 'RU', ['Mary Ann de la Cruz']],
    ['a short full-name term across the space', 'd b', ['Zed Brown']],
    ['a term that only spans two fields', 'smith john', []],
    ['a term matching nobody', 'nobody-here', []],
  ])('searches by %s', async (_what, search, expected) => {
    const res = await list({ search });
    expect(res.statusCode).toBe(200);
    expect(names(res.json().employees)).toEqual(expected);
    expect(res.json().pagination.total).toBe(expected.length);
  });

  it.each([
    ['verified', ['amy adams', 'Mary Ann de la Cruz', 'John Smith']],
    ['enrolled', ['Zed Brown', 'Mary Ann de la Cruz', 'John Smith']],
  ])('filters by status %s, alone and with a search', async (status, expected) => {
    const res = await list({ status });
    expect(names(res.json().employees)).toEqual(expected);
    expect(res.json().pagination.total).toBe(expected.length);
    const searched = await list({ status, search: 'smith' });
    expect(names(searched.json().employees)).toEqual(['John Smith']);
    expect(searched.json().pagination.total).toBe(1);
  });

  it('filters by status not_enrolled (never signed in), alone and with a search', async () => {
    const res = await list({ status: 'not_enrolled' });
    expect(res.statusCode).toBe(200);
    expect(names(res.json().employees)).toEqual(['amy adams', 'Percy Cent', 'Hun Dred']);
    expect(res.json().pagination).toEqual({ total: 3, page: 1, totalPages: 1, size: 25, totalIsCapped: false });
    expect(res.json().employees.every((x: { enrolled: boolean }) => !x.enrolled)).toBe(true);
    // A trigram term, a short term (no trigram) and a term matching only enrolled people.
    expect(names((await list({ status: 'not_enrolled', search: 'roster.test' })).json().employees)).toEqual(['amy adams', 'Percy Cent', 'Hun Dred']);
    expect(names((await list({ status: 'not_enrolled', search: 'dr' })).json().employees)).toEqual(['Hun Dred']);
    const smith = (await list({ status: 'not_enrolled', search: 'smith' })).json();
    expect(smith.employees).toEqual([]);
    expect(smith.pagination.total).toBe(0);
  });

  it('treats an empty status or search as all', async () => {
    const res = await list({ status: '', search: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination.total).toBe(6);
  });

  it.each([
    ['page', { page: 0 }, 'Page must be a whole number from 1 to 100000'],
    ['page', { page: -1 }, 'Page must be a whole number from 1 to 100000'],
    ['page', { page: '1.5' }, 'Page must be a whole number from 1 to 100000'],
    ['page', { page: 'two' }, 'Page must be a whole number from 1 to 100000'],
    ['page', { page: 100_001 }, 'Page must be a whole number from 1 to 100000'],
    ['size', { size: 0 }, 'Size must be a whole number from 1 to 100'],
    ['size', { size: 101 }, 'Size must be a whole number from 1 to 100'],
    ['status', { status: 'active' }, 'Status must be verified, enrolled or not_enrolled'],
    ['search', { search: 'y'.repeat(101) }, 'Search must be 100 characters or less'],
  ])('answers 400 for a bad %s', async (field, params, message) => {
    const res = await list(params);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
  });

  it('answers 404 for an unknown employer and for a malformed id', async () => {
    expect((await get(`/api/admin/employers/${randomUUID()}/employees`)).statusCode).toBe(404);
    const malformed = await get('/api/admin/employers/123/employees');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({ error: 'Employer not found', code: 'not_found' });
  });
});

describe('employee pages', () => {
  let big: Awaited<ReturnType<typeof makeEmployer>>;
  beforeAll(async () => {
    // 30 people: P01..P30, every third one enrolled, every other one verified.
    big = await makeEmployer(
      `Pages ${tag()} Corp`,
      Array.from({ length: 30 }, (_, i) => ({
        first: 'Pat',
        last: `P${String(i + 1).padStart(2, '0')}`,
        verified: i % 2 === 0,
        ...(i % 3 === 0 ? { lastLogin: new Date(Date.UTC(2026, 1, 1 + i)) } : {}),
      })),
    );
  });
  const page = async (params: Record<string, string | number>) => (await get(`/api/admin/employers/${big.id}/employees?${qs(params)}`)).json();

  it('pages by 25 with total and page count', async () => {
    const first = await page({});
    expect(first.employees).toHaveLength(25);
    expect(first.employees[0].lastName).toBe('P01');
    expect(first.employees[24].lastName).toBe('P25');
    expect(first.pagination).toEqual({ total: 30, page: 1, totalPages: 2, size: 25, totalIsCapped: false });
    const second = await page({ page: 2 });
    expect(second.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P26', 'P27', 'P28', 'P29', 'P30']);
    expect(second.pagination).toEqual({ total: 30, page: 2, totalPages: 2, size: 25, totalIsCapped: false });
  });

  it('answers a page past the end with an empty page and the real totals', async () => {
    const past = await page({ page: 3 });
    expect(past.employees).toEqual([]);
    expect(past.pagination).toEqual({ total: 30, page: 3, totalPages: 2, size: 25, totalIsCapped: false });
    const farPast = await page({ page: 100_000, status: 'enrolled' });
    expect(farPast.employees).toEqual([]);
    expect(farPast.pagination).toMatchObject({ total: 10, totalPages: 1 });
  });

  it('honours the size parameter and pages within a filter and a search', async () => {
    const small = await page({ size: 4, page: 2 });
    expect(small.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P05', 'P06', 'P07', 'P08']);
    expect(small.pagination).toEqual({ total: 30, page: 2, totalPages: 8, size: 4, totalIsCapped: false });
    const verified = await page({ status: 'verified', size: 10, page: 2 });
    expect(verified.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P21', 'P23', 'P25', 'P27', 'P29']);
    expect(verified.pagination).toEqual({ total: 15, page: 2, totalPages: 2, size: 10, totalIsCapped: false });
    const searched = await page({ search: 'p1', size: 5, page: 2 });
    expect(searched.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P15', 'P16', 'P17', 'P18', 'P19']);
    expect(searched.pagination).toEqual({ total: 10, page: 2, totalPages: 2, size: 5, totalIsCapped: false });
  });

  it('pages within the not_enrolled filter, its total from the maintained counts', async () => {
    const first = await page({ status: 'not_enrolled', size: 10 });
    expect(first.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P02', 'P03', 'P05', 'P06', 'P08', 'P09', 'P11', 'P12', 'P14', 'P15']);
    expect(first.pagination).toEqual({ total: 20, page: 1, totalPages: 2, size: 10, totalIsCapped: false });
    const second = await page({ status: 'not_enrolled', size: 10, page: 2 });
    expect(second.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P17', 'P18', 'P20', 'P21', 'P23', 'P24', 'P26', 'P27', 'P29', 'P30']);
    expect(second.pagination).toEqual({ total: 20, page: 2, totalPages: 2, size: 10, totalIsCapped: false });
    const searched = await page({ status: 'not_enrolled', search: 'p1' });
    expect(searched.employees.map((x: { lastName: string }) => x.lastName)).toEqual(['P11', 'P12', 'P14', 'P15', 'P17', 'P18']);
    expect(searched.pagination.total).toBe(6);
  });

  it('gives an employer without employees zero pages', async () => {
    const none = await makeEmployer(`Nobody ${tag()}`, []);
    const res = (await get(`/api/admin/employers/${none.id}/employees`)).json();
    expect(res).toEqual({ employees: [], pagination: { total: 0, page: 1, totalPages: 0, size: 25, totalIsCapped: false } });
  });
});

/**
 * A maker of employee rows for one new employer, for inserting many in one statement as the seed
 * does (the triggers keep the aggregates). Emails are made unique with the employer's tag.
 */
async function bulkEmployer(name: string, domain: string) {
  const [company] = await t.database.db.insert(companies).values({ name }).returning();
  const k = tag();
  const person = (first: string, last: string, verified: boolean) => ({
    firstName: first,
    lastName: last,
    email: `${first}.${last}.${k}@${domain}`.toLowerCase(),
    lhmpId: nextLhmpId(),
    companyId: company!.id,
    passwordHash: 'not-a-real-hash',
    emailVerifiedAt: verified ? new Date('2026-01-05T10:00:00Z') : null,
  });
  return { company: company!, person };
}

describe('short searches on a large employer', () => {
  // 1,030 "Karl Lee0001".."Karl Lee1030" (every other one verified) and 10 "Bob Lee2001".. who
  // do not contain "ar"; inserted in one statement, as the seed does.
  const KARLS = 1030;
  let big: { id: string };
  beforeAll(async () => {
    const made = await bulkEmployer(`Short ${tag()} Search Co`, 'short.test');
    big = made.company;
    const person = made.person;
    await t.database.db.insert(users).values([
      ...Array.from({ length: KARLS }, (_, i) => person('Karl', `Lee${String(i + 1).padStart(4, '0')}`, i % 2 === 0)),
      ...Array.from({ length: 10 }, (_, i) => person('Bob', `Lee${2001 + i}`, false)),
    ]);
  });
  const list = async (params: Record<string, string | number>) => {
    const res = await get(`/api/admin/employers/${big.id}/employees?${qs(params)}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { employees: { lastName: string }[]; pagination: Record<string, unknown> };
  };
  const lastNames = (body: { employees: { lastName: string }[] }) => body.employees.map((e) => e.lastName);
  const lee = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `Lee${String(from + i).padStart(4, '0')}`);

  it('counts a term without a trigram only up to 1,000 and says the total is capped', async () => {
    const first = await list({ search: 'ar' });
    expect(lastNames(first)).toEqual(lee(1, 25));
    expect(first.pagination).toEqual({ total: 1000, page: 1, totalPages: 40, size: 25, totalIsCapped: true });
  });

  it('still pages through a capped search in list order, and counts on as the pages go deeper', async () => {
    const last = await list({ search: 'ar', page: 40 });
    expect(lastNames(last)).toEqual(lee(976, 1000));
    expect(last.pagination).toEqual({ total: 1000, page: 40, totalPages: 40, size: 25, totalIsCapped: true });
    // The page after the last counted one exists: the count now covers it and is exact again.
    const next = await list({ search: 'ar', page: 41 });
    expect(lastNames(next)).toEqual(lee(1001, 1025));
    expect(next.pagination).toEqual({ total: KARLS, page: 41, totalPages: 42, size: 25, totalIsCapped: false });
    const end = await list({ search: 'ar', page: 42 });
    expect(lastNames(end)).toEqual(lee(1026, 1030));
    const past = await list({ search: 'ar', page: 43 });
    expect(past.employees).toEqual([]);
    expect(past.pagination).toEqual({ total: KARLS, page: 43, totalPages: 42, size: 25, totalIsCapped: false });
    const bigPages = await list({ search: 'AR', size: 100, page: 10 });
    expect(lastNames(bigPages)).toEqual(lee(901, 1000));
    expect(bigPages.pagination).toEqual({ total: 1000, page: 10, totalPages: 10, size: 100, totalIsCapped: true });
  });

  it('gives exact totals for a short term with fewer matches, alone and with a status filter', async () => {
    const bobs = await list({ search: 'bo' });
    expect(lastNames(bobs)).toEqual(Array.from({ length: 10 }, (_, i) => `Lee${2001 + i}`));
    expect(bobs.pagination).toEqual({ total: 10, page: 1, totalPages: 1, size: 25, totalIsCapped: false });
    const verified = await list({ search: 'ar', status: 'verified', page: 2 });
    expect(lastNames(verified)).toEqual(lee(51, 99).filter((_, i) => i % 2 === 0));
    expect(verified.pagination).toEqual({ total: KARLS / 2, page: 2, totalPages: 21, size: 25, totalIsCapped: false });
  });

  it('keeps the total of a term with a trigram exact, however many match', async () => {
    const karls = await list({ search: 'karl' });
    expect(lastNames(karls)).toEqual(lee(1, 25));
    expect(karls.pagination).toEqual({ total: KARLS, page: 1, totalPages: 42, size: 25, totalIsCapped: false });
    const deep = await list({ search: 'KARL LEE', page: 42 });
    expect(lastNames(deep)).toEqual(lee(1026, 1030));
    expect(deep.pagination).toMatchObject({ total: KARLS, totalIsCapped: false });
    const few = await list({ search: 'lee100' });
    expect(lastNames(few)).toEqual(lee(1000, 1009));
    expect(few.pagination).toEqual({ total: 10, page: 1, totalPages: 1, size: 25, totalIsCapped: false });
    const past = await list({ search: 'lee100', page: 2 });
    expect(past.employees).toEqual([]);
    expect(past.pagination).toEqual({ total: 10, page: 2, totalPages: 1, size: 25, totalIsCapped: false });
  });
});

describe('short terms looked up by characters and pairs', () => {
  // Names chosen to catch a lookup that finds less than the substring search: letters whose
  // lower case is not ASCII, a term across the space of a full name, apostrophes and hyphens,
  // literal LIKE characters, and one-character terms. Emails that do not repeat the names, so an
  // upper-case letter is found only through its lower case.
  const people: Person[] = [
    { first: 'Élodie', last: 'Müller', email: `e1.${tag()}@grams.test` },
    { first: 'ÅSA', last: "O'Neil-Zhu", email: `a2.${tag()}@grams.test` },
    { first: 'Zhang', last: 'Wei', email: `z_w.100%.${tag()}@grams.test` },
    { first: 'Mary Ann', last: 'de la Cruz', verified: true },
    { first: 'Qi', last: 'Li', email: `m3.${tag()}@grams.test` },
    { first: 'Bob', last: 'Stone', verified: true },
  ];
  const terms = ['zh', 'ZH', 'ü', 'Ü', 'mü', 'él', 'å', "o'", "'n", '-z', 'l-', 'n d', 'y a', 'é', 'a ', ' d', '_w', '%.', '0%', 'q', 'Q', 'i', 'zt', '7', 'xx', 'i l'];
  let employerId: string;
  beforeAll(async () => {
    employerId = (await makeEmployer(`Grams ${tag()}`, people)).id;
  });

  it.each(terms)('finds with the index exactly what reading every row finds: %j', async (search) => {
    const db = t.database.db;
    const page = { limit: 25, offset: 0 };
    const everyRow = await searchEmployees(db, employerId, { ...page, search, reach: { path: 'list', countUpTo: 1000 } });
    const byGrams = await searchEmployees(db, employerId, { ...page, search, reach: { path: 'grams', countUpTo: 1000 } });
    expect(byGrams).toEqual(everyRow);
    const verified = { ...page, search, status: 'verified' as const };
    expect(await searchEmployees(db, employerId, { ...verified, reach: { path: 'grams', countUpTo: 1000 } })).toEqual(
      await searchEmployees(db, employerId, { ...verified, reach: { path: 'list', countUpTo: 1000 } }),
    );
  });

  it('finds what each term should find (the comparison above is not of two empty answers)', async () => {
    const db = t.database.db;
    const found = async (search: string) =>
      (await searchEmployees(db, employerId, { search, limit: 25, offset: 0, reach: { path: 'grams', countUpTo: 1000 } })).rows.map((r) => `${r.firstName} ${r.lastName}`);
    expect(await found('ZH')).toEqual(["ÅSA O'Neil-Zhu", 'Zhang Wei']);
    expect(await found('Ü')).toEqual(['Élodie Müller']);
    expect(await found('n d')).toEqual(['Mary Ann de la Cruz']);
    expect(await found('0%')).toEqual(['Zhang Wei']);
    expect(await found('q')).toEqual(['Qi Li']);
    expect(await found('zt')).toHaveLength(people.length);
    expect(await found('xx')).toEqual([]);
  });
});

describe('a short term few match, in an employer too large to read row by row', () => {
  // 8,200 verified "Ann Baker…" who do not contain "zh", then 1,010 "Li Zhou…" (every other one
  // verified), last in list order: the first 8,000 rows (all, or the verified) hold no match, so
  // the search must look the term up by its pairs to find them.
  const ZHOUS = 1010;
  let big: { id: string };
  beforeAll(async () => {
    const made = await bulkEmployer(`Large ${tag()} Co`, 'large.test');
    big = made.company;
    const person = made.person;
    await t.database.db.insert(users).values([
      ...Array.from({ length: 8200 }, (_, i) => person('Ann', `Baker${String(i).padStart(4, '0')}`, true)),
      ...Array.from({ length: ZHOUS }, (_, i) => person('Li', `Zhou${String(i + 1).padStart(4, '0')}`, i % 2 === 0)),
    ]);
  });
  const list = async (params: Record<string, string | number>) => {
    const res = await get(`/api/admin/employers/${big.id}/employees?${qs(params)}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { employees: { lastName: string }[]; pagination: Record<string, unknown> };
  };
  const zhou = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `Zhou${String(from + i).padStart(4, '0')}`);

  it('finds the matches past the first 8,000 rows, and says when there are more than 1,000', async () => {
    const zh = await list({ search: 'zh' });
    expect(zh.employees.map((e) => e.lastName)).toEqual(zhou(1, 25));
    expect(zh.pagination).toEqual({ total: 1000, page: 1, totalPages: 40, size: 25, totalIsCapped: true });
    const one = await list({ search: 'U', page: 40 });
    expect(one.employees.map((e) => e.lastName)).toEqual(zhou(976, 1000));
    expect(one.pagination).toMatchObject({ total: 1000, totalIsCapped: true });
  });

  it('gives the exact total past the first 1,000, and with a status filter', async () => {
    const deep = await list({ search: 'zh', page: 41 });
    expect(deep.employees.map((e) => e.lastName)).toEqual(zhou(1001, 1010));
    expect(deep.pagination).toEqual({ total: ZHOUS, page: 41, totalPages: 41, size: 25, totalIsCapped: false });
    const verified = await list({ search: 'zh', status: 'verified', page: 21 });
    expect(verified.employees.map((e) => e.lastName)).toEqual(zhou(1001, 1009).filter((_, i) => i % 2 === 0));
    expect(verified.pagination).toEqual({ total: ZHOUS / 2, page: 21, totalPages: 21, size: 25, totalIsCapped: false });
    // 1,000 matches, all in the first 8,000 rows (Baker0000..Baker0999): the count is not
    // passed, so the read goes on through the employer and the total is exact.
    const thousand = await list({ search: 'r0', page: 40 });
    expect(thousand.employees.map((e) => e.lastName)).toEqual(Array.from({ length: 25 }, (_, i) => `Baker${String(975 + i).padStart(4, '0')}`));
    expect(thousand.pagination).toEqual({ total: 1000, page: 40, totalPages: 40, size: 25, totalIsCapped: false });
    const none = await list({ search: 'z\\' });
    expect(none.employees).toEqual([]);
    expect(none.pagination).toMatchObject({ total: 0, totalIsCapped: false });
  });

  it('still stops at the cap for a term every employee matches', async () => {
    const every = await list({ search: 'an' });
    expect(every.employees.map((e) => e.lastName)).toEqual(Array.from({ length: 25 }, (_, i) => `Baker${String(i).padStart(4, '0')}`));
    expect(every.pagination).toEqual({ total: 1000, page: 1, totalPages: 40, size: 25, totalIsCapped: true });
  });
});

describe('auditing employee lists', () => {
  it('records every page of employees served, with the search and filter used', async () => {
    const e = await makeEmployer(`Audited ${tag()}`, [{ first: 'Ada', last: 'Byron', lhmpId: 'AB00001' }]);
    const res = await get(`/api/admin/employers/${e.id}/employees?search=ada&status=verified&page=1`);
    expect(res.statusCode).toBe(200);
    const listed = await t.database.db
      .select()
      .from(events)
      .where(and(eq(events.type, 'admin.employees.listed'), eq(events.actorUserId, admin.id)));
    const mine = listed.filter((r) => r.companyId === e.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.payloadJson).toEqual({ search: 'ada', status: 'verified', page: 1, returned: res.json().employees.length });
  });
});

describe('GET /api/admin/employees/:userId', () => {
  const viewedEvents = (employeeId: string) =>
    t.database.db
      .select()
      .from(events)
      .where(and(eq(events.type, 'admin.employee.viewed'), eq(events.actorUserId, admin.id)))
      .then((rows) => rows.filter((r) => r.payloadJson.employeeUserId === employeeId));

  it('returns the account, activity and family members, and audits the look', async () => {
    const e = await makeEmployer(`Person ${tag()}`, [
      { first: 'Nia', last: 'Long', lhmpId: 'NL00001', verified: true, lastLogin: new Date('2026-02-14T18:45:00Z'), family: [
        { first: 'Oli', last: 'Long', relationship: 'Child' },
        { first: 'Ray', last: 'Long', relationship: 'Spouse' },
      ] },
    ]);
    const id = e.ids['Nia Long']!;
    t.clock.advance(1000);
    const res = await get(`/api/admin/employees/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.employee).toEqual({
      id,
      firstName: 'Nia',
      lastName: 'Long',
      email: expect.stringMatching(/^nia\.long\./),
      lhmpId: 'NL00001',
      companyId: e.id,
      companyName: e.name,
      createdAt: '2026-01-01T09:00:00.000Z',
      emailVerifiedAt: '2026-01-05T10:00:00.000Z',
      enrolledAt: '2026-01-02T09:00:00.000Z',
      lastLoginAt: '2026-02-14T18:45:00.000Z',
      familyMemberCount: 2,
    });
    expect(body.familyMembers).toEqual([
      { id: expect.any(String), firstName: 'Oli', lastName: 'Long', relationship: 'Child', createdAt: '2026-01-10T00:00:00.000Z' },
      { id: expect.any(String), firstName: 'Ray', lastName: 'Long', relationship: 'Spouse', createdAt: '2026-01-11T00:00:00.000Z' },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|not-a-real-hash|dob/);

    const audit = await viewedEvents(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: admin.id, companyId: e.id, payloadJson: { employeeUserId: id } });
    expect(audit[0]!.createdAt.toISOString()).toBe(t.clock().toISOString());
  });

  it('shows a registered member who never signed in as not enrolled with no family', async () => {
    const registered = await registerMember(t.app, { company: `Fresh ${tag()}` });
    const res = await get(`/api/admin/employees/${registered.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().employee).toMatchObject({ emailVerifiedAt: null, enrolledAt: null, lastLoginAt: null, familyMemberCount: 0 });
    expect(res.json().familyMembers).toEqual([]);
  });

  it('answers 404 for an unknown employee without writing an event, and for a malformed id', async () => {
    const unknown = randomUUID();
    const res = await get(`/api/admin/employees/${unknown}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Employee not found', code: 'not_found' });
    expect(await viewedEvents(unknown)).toEqual([]);
    const malformed = await get('/api/admin/employees/42');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({ error: 'Employee not found', code: 'not_found' });
  });

  it('refuses a member and an admin without step-up, and writes no view event for them', async () => {
    const e = await makeEmployer(`Guarded ${tag()}`, [{ first: 'Gil', last: 'Guard' }]);
    const id = e.ids['Gil Guard']!;
    const member = await signedInMember(t.app);
    const plainAdmin = await signedInAdmin(t, { elevate: false });
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/employees/${id}` })).statusCode).toBe(401);
    expect((await get(`/api/admin/employees/${id}`, member.token)).statusCode).toBe(403);
    expect((await get(`/api/admin/employees/${id}`, plainAdmin.token)).statusCode).toBe(403);
    const all = await t.database.db.select().from(events).where(eq(events.type, 'admin.employee.viewed'));
    expect(all.filter((r) => r.payloadJson.employeeUserId === id)).toEqual([]);
  });
});
