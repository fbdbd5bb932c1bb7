import { and, asc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, familyMembers, participants } from '../../src/db/schema';
import type { FamilyMember } from '../../src/shared/schemas/family';
import { type CacheChange, onAnnouncedChange } from '../../src/server/lib/notify';
import { statementCounter } from './support/statements';
import { MISSING_ID, createTestApp, injectAs, signedInAdmin, signedInMember, type TestApp } from './support/test-app';

let t: TestApp;
let statements: ReturnType<typeof statementCounter>;
beforeAll(async () => {
  t = await createTestApp();
  statements = statementCounter(t.database.db);
});
afterAll(async () => {
  await t?.close();
});

type Member = Awaited<ReturnType<typeof signedInMember>>;

const valid = { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' };
/** The UTC calendar day `days` after `at`, as YYYY-MM-DD. */
const isoDay = (at: Date, days: number) => new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);

const list = async (m: Member) => {
  const res = await injectAs(t, m, { method: 'GET', url: '/api/family-members' });
  expect(res.statusCode).toBe(200);
  return (res.json() as { familyMembers: FamilyMember[] }).familyMembers;
};
const add = (m: Member, payload: object = valid) => injectAs(t, m, { method: 'POST', url: '/api/family-members', payload });
const addOk = async (m: Member, payload: object = valid) => {
  const res = await add(m, payload);
  expect(res.statusCode).toBe(201);
  return res.json() as FamilyMember;
};

/** Rows and the stored count of one member's family, straight from the database. */
async function stored(m: Member) {
  const [p] = await t.database.db.select().from(participants).where(eq(participants.userId, m.id));
  const rows = p ? await t.database.db.select().from(familyMembers).where(eq(familyMembers.participantId, p.id)) : [];
  return { count: p?.familyMemberCount ?? 0, rows };
}

describe('POST /api/family-members', () => {
  it('creates a family member, lists it, counts it and records an event without names', async () => {
    const m = await signedInMember(t.app);
    const created = await addOk(m, { firstName: '  Jamie ', lastName: ' Rivera', dob: '2015-06-01', relationship: 'Child' });
    expect(created).toMatchObject({ firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toBe(t.clock().toISOString());
    expect(await list(m)).toEqual([created]);
    expect((await stored(m)).count).toBe(1);
    const [event] = await t.database.db
      .select()
      .from(events)
      .where(and(eq(events.type, 'family.created'), eq(events.actorUserId, m.id)));
    expect(event!.payloadJson).toEqual({ familyMemberId: created.id, relationship: 'Child' });
    expect(JSON.stringify(event!.payloadJson)).not.toContain('Jamie');
  });

  it.each(['Spouse', 'Child', 'Parent', 'Sibling', 'Other'])('accepts the relationship %s', async (relationship) => {
    const m = await signedInMember(t.app);
    expect((await addOk(m, { ...valid, relationship })).relationship).toBe(relationship);
  });

  it('accepts the boundaries: 1 and 50 character names, 1900-01-01, and today', async () => {
    const m = await signedInMember(t.app);
    await addOk(m, { ...valid, firstName: 'A', lastName: 'x'.repeat(50) });
    await addOk(m, { ...valid, dob: '1900-01-01' });
    await addOk(m, { ...valid, dob: isoDay(t.clock(), 0) });
    expect((await stored(m)).count).toBe(3);
  });

  it('refuses a date after today in every time zone, whatever the server clock says', async () => {
    // 12:00 UTC: the latest zone (UTC+14) is already on the next day; the day after that is future everywhere.
    t.clock.set(new Date(`${isoDay(t.clock(), 1)}T12:00:00.000Z`));
    const m = await signedInMember(t.app);
    expect((await add(m, { ...valid, dob: isoDay(t.clock(), 1) })).statusCode).toBe(201);
    const res = await add(m, { ...valid, dob: isoDay(t.clock(), 2) });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ dob: 'Date of birth cannot be in the future' });
    expect((await stored(m)).count).toBe(1);
  });

  it('ignores unknown fields such as an id or a participant', async () => {
    const m = await signedInMember(t.app);
    const created = await addOk(m, { ...valid, id: MISSING_ID, participantId: MISSING_ID, familyMemberCount: 99 });
    expect(created.id).not.toBe(MISSING_ID);
    expect((await stored(m)).count).toBe(1);
  });

  it.each([
    ['firstName', { firstName: '' }, 'First name is required'],
    ['firstName', { firstName: '   ' }, 'First name is required'],
    ['firstName', { firstName: undefined }, 'First name is required'],
    ['firstName', { firstName: 'x'.repeat(51) }, 'Must be 50 characters or less'],
    ['firstName', { firstName: 42 }, 'First name is required'],
    ['lastName', { lastName: '' }, 'Last name is required'],
    ['lastName', { lastName: undefined }, 'Last name is required'],
    ['lastName', { lastName: 'y'.repeat(51) }, 'Must be 50 characters or less'],
    ['dob', { dob: '' }, 'Date of birth is required'],
    ['dob', { dob: undefined }, 'Date of birth is required'],
    ['dob', { dob: 'yesterday' }, 'Enter a real date (YYYY-MM-DD)'],
    ['dob', { dob: '2015-02-30' }, 'Enter a real date (YYYY-MM-DD)'],
    ['dob', { dob: '2015-13-01' }, 'Enter a real date (YYYY-MM-DD)'],
    ['dob', { dob: '2015-6-1' }, 'Enter a real date (YYYY-MM-DD)'],
    ['dob', { dob: '1899-12-31' }, 'Date of birth cannot be before 1900'],
    ['dob', { dob: '2999-01-01' }, 'Date of birth cannot be in the future'],
    ['relationship', { relationship: '' }, 'Relationship is required'],
    ['relationship', { relationship: undefined }, 'Relationship is required'],
    ['relationship', { relationship: 'Cousin' }, 'Relationship must be Spouse, Child, Parent, Sibling or Other'],
    ['relationship', { relationship: 'spouse' }, 'Relationship must be Spouse, Child, Parent, Sibling or Other'],
  ])('refuses a bad %s (%j) with 400 and changes nothing', async (field, override, message) => {
    const m = await signedInMember(t.app);
    await addOk(m);
    const before = await stored(m);
    const res = await add(m, { ...valid, ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
    expect(await stored(m)).toEqual(before);
  });

  it('reports every bad field at once', async () => {
    const m = await signedInMember(t.app);
    const res = await add(m, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      dob: 'Date of birth is required',
      relationship: 'Relationship is required',
    });
    expect((await stored(m)).rows).toHaveLength(0);
  });

  it('refuses malformed JSON and a non-object body with 400', async () => {
    const m = await signedInMember(t.app);
    const malformed = await injectAs(t, m, { method: 'POST', url: '/api/family-members', payload: '{"firstName":', headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed request body', code: 'bad_request' });
    const array = await add(m, [valid]);
    expect(array.statusCode).toBe(400);
    expect((await stored(m)).rows).toHaveLength(0);
  });

  it('moves "today" with the clock: a date in the future becomes valid once it has come', async () => {
    t.clock.set(new Date('2026-03-08T12:00:00.000Z'));
    const m = await signedInMember(t.app);
    expect((await add(m, { ...valid, dob: '2026-03-10' })).statusCode).toBe(400);
    t.clock.set(new Date('2026-03-10T00:00:00.000Z'));
    const again = await signedInMember(t.app);
    expect((await add(again, { ...valid, dob: '2026-03-10' })).statusCode).toBe(201);
  });
});

describe('the limit of 20', () => {
  it('refuses the 21st with 409 and a clear message, and accepts one again after a removal', async () => {
    const m = await signedInMember(t.app);
    const created = [];
    for (let i = 0; i < 20; i += 1) created.push(await addOk(m, { ...valid, firstName: `Kid${i}` }));
    const refused = await add(m, { ...valid, firstName: 'One too many' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'You can add at most 20 family members', code: 'conflict' });
    expect(await stored(m)).toMatchObject({ count: 20 });
    expect((await stored(m)).rows).toHaveLength(20);
    expect((await injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${created[0]!.id}` })).statusCode).toBe(204);
    await addOk(m, { ...valid, firstName: 'Replacement' });
    expect((await stored(m)).count).toBe(20);
  });

  it('holds under concurrent adds: exactly 20 rows and a count of 20', async () => {
    const m = await signedInMember(t.app);
    const results = await Promise.all(Array.from({ length: 26 }, (_, i) => add(m, { ...valid, firstName: `Racer${i}` })));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    const after = await stored(m);
    expect(after.rows).toHaveLength(20);
    expect(after.count).toBe(20);
  });
});

describe('the stored count stays exact', () => {
  it('follows every add and remove, and never counts another member', async () => {
    const a = await signedInMember(t.app);
    const b = await signedInMember(t.app);
    const a1 = await addOk(a);
    const a2 = await addOk(a, { ...valid, firstName: 'Sam', relationship: 'Spouse', dob: '1988-11-20' });
    await addOk(b);
    expect((await stored(a)).count).toBe(2);
    expect((await stored(b)).count).toBe(1);
    await injectAs(t, a, { method: 'PUT', url: `/api/family-members/${a1.id}`, payload: { ...valid, firstName: 'Jay' } });
    expect((await stored(a)).count).toBe(2);
    await injectAs(t, a, { method: 'DELETE', url: `/api/family-members/${a2.id}` });
    expect((await stored(a)).count).toBe(1);
    await injectAs(t, a, { method: 'DELETE', url: `/api/family-members/${a2.id}` });
    expect((await stored(a)).count).toBe(1);
    await injectAs(t, a, { method: 'DELETE', url: `/api/family-members/${a1.id}` });
    expect(await stored(a)).toEqual({ count: 0, rows: [] });
    expect((await stored(b)).count).toBe(1);
  });

  it('holds under concurrent removes', async () => {
    const m = await signedInMember(t.app);
    const made = [];
    for (let i = 0; i < 6; i += 1) made.push(await addOk(m, { ...valid, firstName: `Kid${i}` }));
    const results = await Promise.all([...made, ...made].map((f) => injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${f.id}` })));
    expect(results.filter((r) => r.statusCode === 204)).toHaveLength(6);
    expect(results.filter((r) => r.statusCode === 404)).toHaveLength(6);
    expect(await stored(m)).toEqual({ count: 0, rows: [] });
  });
});

describe("the member's participant row", () => {
  it("is never inserted by an enrolled member's add, edit or remove: each is one statement, with the count and the event", async () => {
    const m = await signedInMember(t.app);
    let created: FamilyMember | undefined;
    const adding = await statements.during(async () => {
      created = await addOk(m);
    });
    const editing = await statements.during(async () => {
      expect((await injectAs(t, m, { method: 'PUT', url: `/api/family-members/${created!.id}`, payload: { ...valid, firstName: 'Jay' } })).statusCode).toBe(200);
    });
    const removing = await statements.during(async () => {
      expect((await injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${created!.id}` })).statusCode).toBe(204);
    });
    for (const texts of [adding, editing, removing]) {
      // Besides the write: the session's lookup on a member's first call, and on PostgreSQL
      // without Redis the change's announcement (pg_notify), after the write.
      const writes = texts.filter((q) => /^(with|insert|update|delete|begin)\b/i.test(q));
      expect(writes, JSON.stringify(texts)).toHaveLength(1);
      expect(writes[0]).toMatch(/insert into events/);
      expect(writes[0]).not.toMatch(/insert into "?participants"?/);
    }
    expect(await stored(m)).toEqual({ count: 0, rows: [] });
    const trail = await t.database.db.select({ type: events.type, payload: events.payloadJson }).from(events).where(eq(events.actorUserId, m.id)).orderBy(asc(events.id));
    expect(trail.filter((e) => e.type.startsWith('family.'))).toEqual([
      { type: 'family.created', payload: { familyMemberId: created!.id, relationship: created!.relationship } },
      { type: 'family.updated', payload: { familyMemberId: created!.id, relationship: created!.relationship } },
      { type: 'family.deleted', payload: { familyMemberId: created!.id } },
    ]);
  });

  it('is made by the first family write of a signed-in user who has none, and counts it', async () => {
    const m = await signedInMember(t.app);
    await t.database.db.delete(participants).where(eq(participants.userId, m.id));
    const created = await addOk(m);
    const [p] = await t.database.db.select().from(participants).where(eq(participants.userId, m.id));
    expect(p).toMatchObject({ familyMemberCount: 1, enrolledAt: t.clock() });
    expect((await stored(m)).rows.map((r) => r.id)).toEqual([created.id]);
  });
});

describe('GET /api/family-members', () => {
  it('lists only the caller’s own, oldest first, and is empty for a new member', async () => {
    const a = await signedInMember(t.app);
    const b = await signedInMember(t.app);
    expect(await list(a)).toEqual([]);
    const first = await addOk(a, { ...valid, firstName: 'First' });
    t.clock.advance(1000);
    const second = await addOk(a, { ...valid, firstName: 'Second' });
    await addOk(b, { ...valid, firstName: 'Not yours' });
    expect((await list(a)).map((f) => f.id)).toEqual([first.id, second.id]);
    expect((await list(b)).map((f) => f.firstName)).toEqual(['Not yours']);
  });
});

describe('the list held in memory, through the member’s own writes', () => {
  /** The member's rows as GET lists them (oldest first), straight from the database. */
  const rowsOf = async (m: Member) =>
    (await stored(m)).rows
      .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1))
      .map((r) => ({ id: r.id, firstName: r.firstName, lastName: r.lastName, dob: r.dob, relationship: r.relationship, createdAt: r.createdAt.toISOString() }));
  /** GET's answer and the statements it cost. */
  const listed = async (m: Member) => {
    let got: FamilyMember[] = [];
    const texts = await statements.during(async () => {
      got = await list(m);
    });
    return { got, texts };
  };

  it('keeps the list through an add, an edit and a removal: the next GET costs no statement and matches the rows', async () => {
    const m = await signedInMember(t.app);
    const first = await addOk(m, { ...valid, firstName: 'First' });
    await list(m);
    t.clock.advance(1000);
    const second = await addOk(m, { ...valid, firstName: 'Second' });
    const writes = [
      async () => {},
      async () => expect((await injectAs(t, m, { method: 'PUT', url: `/api/family-members/${first.id}`, payload: { ...valid, firstName: 'Firstly' } })).statusCode).toBe(200),
      async () => expect((await injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${second.id}` })).statusCode).toBe(204),
    ];
    for (const write of writes) {
      await write();
      expect(t.app.familyLists.holds(m.id)).toBe(true);
      const { got, texts } = await listed(m);
      expect(texts).toEqual([]);
      expect(got).toEqual(await rowsOf(m));
    }
    expect((await list(m)).map((f) => f.firstName)).toEqual(['Firstly']);
  });

  it('drops the list when an add does not come last (the same time as one held): the next GET reads the rows', async () => {
    const m = await signedInMember(t.app);
    await addOk(m, { ...valid, firstName: 'Twin A' });
    await list(m);
    await addOk(m, { ...valid, firstName: 'Twin B' });
    expect(t.app.familyLists.holds(m.id)).toBe(false);
    const { got, texts } = await listed(m);
    expect(texts).toHaveLength(1);
    expect(got).toEqual(await rowsOf(m));
  });

  it('holds only what the rows say after concurrent adds, edits and removals of one member', async () => {
    const m = await signedInMember(t.app);
    const made = [];
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(1000);
      made.push(await addOk(m, { ...valid, firstName: `Kid${i}` }));
    }
    await list(m);
    t.clock.advance(1000);
    const results = await Promise.all([
      ...made.slice(0, 2).map((f) => injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${f.id}` })),
      ...made.slice(2).map((f, i) => injectAs(t, m, { method: 'PUT', url: `/api/family-members/${f.id}`, payload: { ...valid, firstName: `Renamed${i}` } })),
      ...[0, 1, 2].map((i) => add(m, { ...valid, firstName: `New${i}` })),
      list(m),
    ]);
    expect(results.slice(0, 7).map((r) => ('statusCode' in r ? r.statusCode : 0))).toEqual([204, 204, 200, 200, 201, 201, 201]);
    const rows = await rowsOf(m);
    expect(rows).toHaveLength(5);
    expect(await list(m)).toEqual(rows);
  });
});

describe('PUT /api/family-members/:id', () => {
  it('replaces the fields, keeps the id and createdAt, and records an event', async () => {
    const m = await signedInMember(t.app);
    const created = await addOk(m);
    t.clock.advance(60_000);
    const res = await injectAs(t, m, {
      method: 'PUT',
      url: `/api/family-members/${created.id}`,
      payload: { firstName: 'Morgan', lastName: 'Lee', dob: '1960-01-15', relationship: 'Parent' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: created.id, createdAt: created.createdAt, firstName: 'Morgan', lastName: 'Lee', dob: '1960-01-15', relationship: 'Parent' });
    expect(await list(m)).toEqual([res.json()]);
    const updated = await t.database.db.select().from(events).where(and(eq(events.type, 'family.updated'), eq(events.actorUserId, m.id)));
    expect(updated).toHaveLength(1);
    expect(updated[0]!.payloadJson).toEqual({ familyMemberId: created.id, relationship: 'Parent' });
  });

  it.each([
    ['firstName', { firstName: '' }],
    ['lastName', { lastName: 'z'.repeat(51) }],
    ['dob', { dob: '2015-02-29' }],
    ['dob', { dob: '2027-01-01' }],
    ['relationship', { relationship: 'Friend' }],
  ])('refuses a bad %s with 400 and leaves the row as it was', async (field, override) => {
    const m = await signedInMember(t.app);
    const created = await addOk(m);
    const res = await injectAs(t, m, { method: 'PUT', url: `/api/family-members/${created.id}`, payload: { ...valid, ...override } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty(field);
    expect(await list(m)).toEqual([created]);
  });

  it('answers 404 for another member’s id, a missing id and a non-uuid id, and changes nothing', async () => {
    const owner = await signedInMember(t.app);
    const other = await signedInMember(t.app);
    const theirs = await addOk(owner);
    for (const id of [theirs.id, MISSING_ID, 'not-a-uuid']) {
      const res = await injectAs(t, other, { method: 'PUT', url: `/api/family-members/${id}`, payload: { ...valid, firstName: 'Hijack' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Family member not found', code: 'not_found' });
    }
    expect(await list(owner)).toEqual([theirs]);
    expect(await list(other)).toEqual([]);
  });
});

describe('DELETE /api/family-members/:id', () => {
  it('removes the row, lowers the count and records an event', async () => {
    const m = await signedInMember(t.app);
    const keep = await addOk(m, { ...valid, firstName: 'Keep' });
    const gone = await addOk(m, { ...valid, firstName: 'Gone' });
    const res = await injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${gone.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await list(m)).toEqual([keep]);
    expect((await stored(m)).count).toBe(1);
    const deleted = await t.database.db.select().from(events).where(and(eq(events.type, 'family.deleted'), eq(events.actorUserId, m.id)));
    expect(deleted.map((e) => e.payloadJson)).toEqual([{ familyMemberId: gone.id }]);
  });

  it('answers 404 for another member’s id, a missing id and a non-uuid id, and changes nothing', async () => {
    const owner = await signedInMember(t.app);
    const other = await signedInMember(t.app);
    await addOk(other);
    const theirs = await addOk(owner);
    for (const id of [theirs.id, MISSING_ID, 'not-a-uuid']) {
      const res = await injectAs(t, other, { method: 'DELETE', url: `/api/family-members/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Family member not found', code: 'not_found' });
    }
    expect(await list(owner)).toEqual([theirs]);
    expect((await stored(owner)).count).toBe(1);
    expect((await stored(other)).count).toBe(1);
  });
});

describe('GET /api/members/me/profile', () => {
  it('returns the caller’s own name, employer, programme ID and family count', async () => {
    const enrolledAt = t.clock().toISOString();
    const m = await signedInMember(t.app, { firstName: 'Priya', lastName: 'Shah', company: 'Profile Test Co' });
    await addOk(m);
    const res = await injectAs(t, m, { method: 'GET', url: '/api/members/me/profile' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      firstName: 'Priya',
      lastName: 'Shah',
      email: m.email,
      company: 'Profile Test Co',
      lhmpId: m.lhmpId,
      enrolledAt,
      familyMemberCount: 1,
    });
    expect(res.body).not.toMatch(/password/i);
  });
});

describe('authorization', () => {
  const endpoints = (id: string): InjectOptions[] => [
    { method: 'GET', url: '/api/members/me/profile' },
    { method: 'GET', url: '/api/family-members' },
    { method: 'POST', url: '/api/family-members', payload: valid },
    { method: 'PUT', url: `/api/family-members/${id}`, payload: valid },
    { method: 'DELETE', url: `/api/family-members/${id}` },
  ];

  it('refuses anonymous callers and bad tokens with 401 on every endpoint, and changes nothing', async () => {
    const m = await signedInMember(t.app);
    const mine = await addOk(m);
    for (const options of endpoints(mine.id)) {
      const anonymous = await t.app.inject(options);
      expect(anonymous.statusCode, `${options.method} ${options.url}`).toBe(401);
      const bad = await t.app.inject({ ...options, headers: { authorization: 'Bearer not-a-real-token-not-a-real-token' } });
      expect(bad.statusCode).toBe(401);
    }
    expect(await list(m)).toEqual([mine]);
  });

  it('refuses a signed-out session with 401', async () => {
    const m = await signedInMember(t.app);
    await injectAs(t, m, { method: 'POST', url: '/api/auth/signout' });
    expect((await injectAs(t, m, { method: 'GET', url: '/api/family-members' })).statusCode).toBe(401);
    expect((await add(m)).statusCode).toBe(401);
  });

  it('lets a member use every endpoint on their own family', async () => {
    const m = await signedInMember(t.app);
    const mine = await addOk(m);
    const statuses = [];
    for (const options of endpoints(mine.id)) statuses.push((await injectAs(t, m, options)).statusCode);
    expect(statuses).toEqual([200, 200, 201, 200, 204]);
  });

  it('treats an administrator (elevated or not) as a member of their own family only', async () => {
    const member = await signedInMember(t.app);
    const theirs = await addOk(member);
    for (const elevate of [true, false]) {
      const admin = await signedInAdmin(t, { elevate });
      const own = await add(admin as Member);
      expect(own.statusCode).toBe(201);
      expect((await list(admin as Member)).map((f) => f.id)).toEqual([own.json().id]);
      expect((await injectAs(t, admin, { method: 'PUT', url: `/api/family-members/${theirs.id}`, payload: valid })).statusCode).toBe(404);
      expect((await injectAs(t, admin, { method: 'DELETE', url: `/api/family-members/${theirs.id}` })).statusCode).toBe(404);
      expect((await injectAs(t, admin, { method: 'GET', url: '/api/members/me/profile' })).json().email).toBe(admin.email);
    }
    expect(await list(member)).toEqual([theirs]);
  });
});

describe('what a family write announces to the other instances', () => {
  /** The family changes announced through the app's database while `fn` runs. */
  async function announced(fn: () => Promise<unknown>): Promise<CacheChange[]> {
    const heard: CacheChange[] = [];
    const stop = onAnnouncedChange(t.database.db, (change) => {
      if ('family' in change) heard.push(change);
    });
    try {
      await fn();
    } finally {
      stop();
    }
    return heard;
  }

  it('is each change of the family, and nothing for a write that changed no row (404, 409)', async () => {
    const m = await signedInMember(t.app);
    const other = await signedInMember(t.app);
    const theirs = await addOk(other);
    let created: FamilyMember | undefined;
    expect(await announced(async () => (created = await addOk(m)))).toEqual([{ family: m.id }]);
    expect(
      await announced(async () => {
        for (const id of [MISSING_ID, theirs.id]) {
          expect((await injectAs(t, m, { method: 'PUT', url: `/api/family-members/${id}`, payload: valid })).statusCode).toBe(404);
          expect((await injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${id}` })).statusCode).toBe(404);
        }
      }),
    ).toEqual([]);
    expect(await announced(() => injectAs(t, m, { method: 'PUT', url: `/api/family-members/${created!.id}`, payload: { ...valid, firstName: 'Jo' } }))).toEqual([{ family: m.id }]);
    expect(await announced(() => injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${created!.id}` }))).toEqual([{ family: m.id }]);
    for (let i = 0; i < 20; i += 1) await addOk(m, { ...valid, firstName: `Kid${i}` });
    expect(await announced(async () => expect((await add(m, { ...valid, firstName: 'One too many' })).statusCode).toBe(409))).toEqual([]);
  });
});

describe('the stored count under mixed concurrent writes', () => {
  it('ends equal to the rows after adds and removes race (never past the limit, whatever the order)', async () => {
    const m = await signedInMember(t.app);
    const made = [];
    for (let i = 0; i < 8; i += 1) made.push(await addOk(m, { ...valid, firstName: `Kid${i}` }));
    const results = await Promise.all([
      ...made.map((f) => injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${f.id}` })),
      ...made.slice(0, 4).map((f) => injectAs(t, m, { method: 'DELETE', url: `/api/family-members/${f.id}` })),
      ...Array.from({ length: 12 }, (_, i) => add(m, { ...valid, firstName: `Racer${i}` })),
    ]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(8);
    expect(statuses.filter((s) => s === 404)).toHaveLength(4);
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    const after = await stored(m);
    expect(after.rows).toHaveLength(12);
    expect(after.count).toBe(12);
  });
});
