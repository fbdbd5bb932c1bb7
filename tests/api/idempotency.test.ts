import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, familyMembers, idempotencyKeys, participants } from '../../src/db/schema';
import { deleteKeysBefore } from '../../src/server/modules/idempotency/idempotency.repository';
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_STALE_MS, IDEMPOTENT_ROUTES, idempotencyRequestHash } from '../../src/server/plugins/idempotency';
import { asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    // A handler failure after the work is done (answered 500) for the crash cases.
    beforeReady: (app) => {
      app.addHook('preSerialization', async (request, _reply, payload) => {
        if (request.headers['x-test-fail'] === '1') throw new Error('simulated failure after the handler');
        return payload;
      });
    },
  });
});
afterAll(async () => {
  await t?.close();
});

type Member = Awaited<ReturnType<typeof signedInMember>>;
const valid = { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' };

const add = (m: Member, key: string | undefined, payload: object = valid, headers: Record<string, string> = {}) =>
  t.app.inject(
    asUser(m.token, {
      method: 'POST',
      url: '/api/family-members',
      payload,
      headers: { ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers },
    } as InjectOptions),
  );

async function familyRows(m: Member) {
  const [p] = await t.database.db.select().from(participants).where(eq(participants.userId, m.id));
  if (!p) return { count: 0, rows: [] };
  const rows = await t.database.db.select().from(familyMembers).where(eq(familyMembers.participantId, p.id));
  return { count: p.familyMemberCount, rows };
}

/** A new session for the same member at the injected clock. */
async function resume(m: Member) {
  const { authorization } = await freshSessionHeaders(t, m.id);
  m.token = authorization.slice('Bearer '.length);
}

const keyRow = async (m: Member, key: string) =>
  (await t.database.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, m.id), eq(idempotencyKeys.key, key))))[0];

describe('Idempotency-Key on POST /api/family-members', () => {
  it('answers a repeat after completion with the first answer, marked replayed, and creates nothing more', async () => {
    const m = await signedInMember(t.app);
    const first = await add(m, 'key-replay-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await add(m, 'key-replay-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.json()).toEqual(first.json());
    const stored = await familyRows(m);
    expect(stored.rows).toHaveLength(1);
    expect(stored.count).toBe(1);
    expect(await keyRow(m, 'key-replay-1')).toMatchObject({ statusCode: 201, responseBody: first.json() });
  });

  it('makes exactly one family member from the same request sent five times at once', async () => {
    const m = await signedInMember(t.app);
    const answers = await Promise.all(Array.from({ length: 5 }, () => add(m, 'key-concurrent')));
    for (const res of answers) expect(res.statusCode).toBe(201);
    const ids = new Set(answers.map((res) => (res.json() as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    const stored = await familyRows(m);
    expect(stored.rows).toHaveLength(1);
    expect(stored.count).toBe(1);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const m = await signedInMember(t.app);
    expect((await add(m, 'key-reused')).statusCode).toBe(201);
    const res = await add(m, 'key-reused', { ...valid, firstName: 'Alex' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'idempotency_key_reused' });
    expect((await familyRows(m)).rows).toHaveLength(1);
  });

  it('treats the body as its meaning: key order and surrounding spaces the form trims are the same request', async () => {
    const m = await signedInMember(t.app);
    expect((await add(m, 'key-same-meaning')).statusCode).toBe(201);
    const res = await add(m, 'key-same-meaning', { relationship: 'Child', dob: '2015-06-01', lastName: 'Rivera ', firstName: ' Jamie' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect((await familyRows(m)).rows).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['a space', 'a b'],
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'a\u0001b'],
  ])('refuses a malformed key (%s) with 400 and creates nothing', async (_name, key) => {
    const m = await signedInMember(t.app);
    const res = await add(m, key);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'idempotency_key_invalid' });
    expect((await familyRows(m)).rows).toHaveLength(0);
  });

  it('accepts 255 visible ASCII characters', async () => {
    const m = await signedInMember(t.app);
    const key = '!~'.repeat(127) + 'Z';
    expect((await add(m, key)).statusCode).toBe(201);
    expect((await add(m, key)).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps keys per user: another member with the same key gets their own family member', async () => {
    const a = await signedInMember(t.app);
    const b = await signedInMember(t.app);
    const first = await add(a, 'shared-key');
    const second = await add(b, 'shared-key', { ...valid, firstName: 'Robin' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect((second.json() as { id: string }).id).not.toBe((first.json() as { id: string }).id);
    expect((await familyRows(a)).rows.map((r) => r.firstName)).toEqual(['Jamie']);
    expect((await familyRows(b)).rows.map((r) => r.firstName)).toEqual(['Robin']);
  });

  it('stays optional: without the header every request runs', async () => {
    const m = await signedInMember(t.app);
    expect((await add(m, undefined)).statusCode).toBe(201);
    expect((await add(m, undefined)).statusCode).toBe(201);
    expect((await familyRows(m)).rows).toHaveLength(2);
  });

  it('stores a 4xx answer and replays it', async () => {
    const m = await signedInMember(t.app);
    for (let i = 0; i < 20; i += 1) expect((await add(m, undefined)).statusCode).toBe(201);
    // At the limit of 20 the create is refused: a final answer for this request.
    const first = await add(m, 'key-limit', { ...valid, firstName: 'Alex' });
    expect(first.statusCode).toBe(409);
    const [oldest] = (await familyRows(m)).rows;
    expect((await t.app.inject(asUser(m.token, { method: 'DELETE', url: `/api/family-members/${oldest!.id}` }))).statusCode).toBe(204);
    const again = await add(m, 'key-limit', { ...valid, firstName: 'Alex' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await familyRows(m)).rows).toHaveLength(19);
  });

  it('ignores a key after 24 hours and the purge deletes it', async () => {
    const m = await signedInMember(t.app);
    expect((await add(m, 'key-expiring')).statusCode).toBe(201);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS - 1000);
    // Sessions end long before a day; the same member signs in again.
    await resume(m);
    expect((await add(m, 'key-expiring', { ...valid, firstName: 'Alex' })).statusCode).toBe(422);
    t.clock.advance(1000);
    await resume(m);
    // 24 h on: the key is free again, for any request.
    const later = await add(m, 'key-expiring', { ...valid, firstName: 'Alex' });
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await familyRows(m)).rows.map((r) => r.firstName).sort()).toEqual(['Alex', 'Jamie']);

    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1);
    await deleteKeysBefore(t.database.db, new Date(t.clock().getTime() - IDEMPOTENCY_KEY_TTL_MS));
    expect(await keyRow(m, 'key-expiring')).toBeUndefined();
  });

  it('takes over a running row left by a crash once it is older than the stale window', async () => {
    const m = await signedInMember(t.app);
    // What a process that died mid-request leaves behind: the claim, no answer, no family member.
    await t.database.db.insert(idempotencyKeys).values({
      userId: m.id,
      key: 'key-crashed',
      requestHash: idempotencyRequestHash('POST', '/api/family-members', valid),
      statusCode: null,
      createdAt: t.clock(),
    });
    t.clock.advance(IDEMPOTENCY_STALE_MS);
    const res = await add(m, 'key-crashed');
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect((await familyRows(m)).rows).toHaveLength(1);
    expect(await keyRow(m, 'key-crashed')).toMatchObject({ statusCode: 201, createdAt: t.clock() });
    expect((await add(m, 'key-crashed')).headers['idempotent-replayed']).toBe('true');
    expect((await familyRows(m)).rows).toHaveLength(1);
  });

  it('never runs a repeat while the first is still running: a bounded wait, then 409 with Retry-After', async () => {
    const m = await signedInMember(t.app);
    await t.database.db.insert(idempotencyKeys).values({
      userId: m.id,
      key: 'key-running',
      requestHash: idempotencyRequestHash('POST', '/api/family-members', valid),
      statusCode: null,
      createdAt: t.clock(),
    });
    const res = await add(m, 'key-running');
    expect(res.statusCode).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: expect.any(String), code: 'idempotency_in_progress' });
    expect((await familyRows(m)).rows).toHaveLength(0);
  }, 15_000);

  it('does not keep a 5xx: the row is released and a retry runs again', async () => {
    const m = await signedInMember(t.app);
    const failed = await add(m, 'key-5xx', valid, { 'x-test-fail': '1' });
    expect(failed.statusCode).toBe(500);
    expect(await keyRow(m, 'key-5xx')).toBeUndefined();
    const retry = await add(m, 'key-5xx');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('the other create calls', () => {
  it('lists only routes that exist, every one of them an authenticated POST', () => {
    const table = new Map(t.app.routeTable.map((r) => [`${r.method} ${r.url}`, r.access]));
    for (const route of IDEMPOTENT_ROUTES) {
      expect(route.startsWith('POST ')).toBe(true);
      expect(table.get(route)).toMatch(/^(member|admin)$/);
    }
  });

  it('POST /api/admin/employers: a retry gets the first answer, one employer', async () => {
    const admin = await signedInAdmin(t);
    const create = () =>
      t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/employers', payload: { name: 'Idempotent Widgets Ltd' }, headers: { 'idempotency-key': 'employer-1' } }));
    const [a, b] = await Promise.all([create(), create()]);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json()).toEqual(a.json());
    const rows = await t.database.db.select().from(companies).where(eq(companies.name, 'Idempotent Widgets Ltd'));
    expect(rows).toHaveLength(1);
    // Keys are per user: the same key from a member on a member route is another key.
    const m = await signedInMember(t.app);
    expect((await add(m, 'employer-1')).statusCode).toBe(201);
  });
});
