/**
 * Object-level access, generated from the route table: member A aims every member route at
 * every object member B owns (B's user, participant, family members, popup states, sessions,
 * employer), puts B's ids into bodies and queries, and must never read or change any of it.
 * Each route first proves, with A's own objects, that the same request works; then B's ids
 * must give a 404, B's rows must be byte-for-byte unchanged, and nothing of B's (ids, e-mail,
 * family names, token) may appear in any answer to A. Scenario tests follow for popup
 * states and sessions, whose ownership is by caller rather than by id.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/server/lib/crypto';
import type { RouteEntry } from '../../src/server/plugins/auth';
import { type Pools, type RouteSchemas, captureRoutes, validSamples } from './support/fuzz';
import { asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember } from './support/test-app';

let capture!: ReturnType<typeof captureRoutes>;
const t = await createTestApp({
  beforeReady: (app) => {
    capture = captureRoutes(app);
  },
});
const routes = [...t.app.routeTable].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
for (const route of routes) await t.app.inject({ method: route.method as 'GET', url: route.url.replace(/:[A-Za-z0-9_]+/g, randomUUID()) });
const schemasOf = (route: RouteEntry): RouteSchemas => capture.schemas.get(`${route.method} ${route.url}`) ?? {};

// Every route a member may call (admin routes let an elevated admin see everyone by design).
const memberRoutes = routes.filter((r) => r.access === 'member');
const withParams = memberRoutes.filter((r) => r.url.includes(':'));

type Member = Awaited<ReturnType<typeof signedInMember>>;
let a: Member;
let b: Member;
const owned = { a: [] as string[], b: [] as string[] };
const shared: string[] = [];
let bSecrets: string[] = [];
const cells = { checked: 0 };

const tag = randomUUID().slice(0, 8);
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** Every row that belongs to a user, as text, in a stable order. */
async function ownedRows(userId: string): Promise<string> {
  const r = await t.database.db.execute(sql`
    select string_agg(x, '|' order by x) as rows from (
      select u::text as x from users u where u.id = ${userId}
      union all select p::text from participants p where p.user_id = ${userId}
      union all select f::text from family_members f join participants p on p.id = f.participant_id where p.user_id = ${userId}
      union all select s::text from user_popup_states s where s.user_id = ${userId}
      union all select (s.id, s.user_id, s.token_hash, s.created_at, s.expires_at, s.revoked_at, s.admin_elevated_at)::text from sessions s where s.user_id = ${userId}
    ) owned`);
  return rowsOf<{ rows: string }>(r)[0]!.rows;
}

/** Ids of everything a user owns. */
async function ownedIds(userId: string): Promise<string[]> {
  const r = await t.database.db.execute(sql`
    select id::text as id from users where id = ${userId}
    union all select id::text from participants where user_id = ${userId}
    union all select f.id::text from family_members f join participants p on p.id = f.participant_id where p.user_id = ${userId}
    union all select id::text from user_popup_states where user_id = ${userId}
    union all select id::text from sessions where user_id = ${userId}`);
  return rowsOf<{ id: string }>(r).map((row) => row.id);
}

/** A fresh session for A per request: sign-out in one cell must not end the next. */
const asA = (): Promise<Record<string, string>> => freshSessionHeaders(t, a.id);

/** Valid bodies for a route, from its own schema (fixed seed). */
function validBodies(route: RouteEntry, pools: Pools): unknown[] {
  const schema = schemasOf(route).body;
  if (!schema) return [undefined];
  return validSamples(schema, pools, 15);
}

/** B's ids under every id-like key, for bodies and queries (mass assignment). */
const smuggled = () => ({ id: owned.b[2], userId: b.id, participantId: owned.b[1], memberId: b.id, ownerId: b.id, companyId: owned.b.at(-1), sessionId: owned.b.at(-2) });

function expectNothingOfB(body: string, where: string) {
  for (const secret of bSecrets) expect(body.includes(secret), `${where} leaked ${secret.slice(0, 12)}…`).toBe(false);
}

beforeAll(async () => {
  a = await signedInMember(t.app, { company: `Object Access A ${tag}` });
  b = await signedInMember(t.app, { company: `Object Access B ${tag}` });
  for (const [m, who] of [[a, 'A'], [b, 'B']] as const) {
    for (let i = 0; i < 4; i += 1) {
      const res = await t.app.inject(
        asUser(m.token, { method: 'POST', url: '/api/family-members', payload: { firstName: `${who}first${i}${tag}`, lastName: `${who}last${i}${tag}`, dob: '2001-02-03', relationship: 'Child' } }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
  }
  // Popups are shared objects; each member's state in them is not.
  const admin = await signedInAdmin(t);
  const now = t.clock().getTime();
  for (let i = 0; i < 6; i += 1) {
    const res = await t.app.inject(
      asUser(admin.token, {
        method: 'POST',
        url: '/api/admin/popups',
        payload: { title: `Shared ${i}`, message: 'Reminder', target: 'home', startAt: new Date(now - 3_600_000).toISOString(), endAt: new Date(now + 86_400_000).toISOString(), isActive: true, maxSnoozes: 3, priority: 10 - i },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    shared.push((res.json() as { id: string }).id);
  }
  for (const id of shared.slice(0, 3)) {
    expect((await t.app.inject(asUser(b.token, { method: 'POST', url: `/api/popups/${id}/snooze` }))).statusCode).toBe(200);
  }
  owned.a = await ownedIds(a.id);
  owned.b = await ownedIds(b.id);
  const company = rowsOf<{ id: string }>(await t.database.db.execute(sql`select company_id::text as id from users where id = ${b.id}`))[0]!.id;
  owned.b.push(company);
  bSecrets = [...owned.b.filter((id) => id !== company), b.email, b.token, sha256Hex(b.token), `Bfirst0${tag}`, `Blast3${tag}`];
  expect(owned.b.length).toBeGreaterThanOrEqual(10);
});

afterAll(async () => {
  console.log(`object access (${process.env.TEST_DB ?? 'pglite'}): ${cells.checked} cells over ${memberRoutes.length} member routes and ${owned.b.length} of B's objects`);
  await t.close();
});

describe('the generated object-level matrix', () => {
  it('covers every member route, and every member route with a path parameter', () => {
    expect(memberRoutes.length).toBeGreaterThanOrEqual(8);
    expect(withParams.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['PUT /api/family-members/:id', 'DELETE /api/family-members/:id', 'POST /api/popups/:id/snooze', 'POST /api/popups/:id/complete', 'DELETE /api/me/sessions/:sessionId']),
    );
  });

  describe.each(withParams)('$method $url', (route) => {
    it("works on A's own or shared objects, and gives A a 404 and no change for every object of B's", async () => {
      const pools: Pools = { ids: [...owned.a, ...shared], emails: [a.email] };
      const fill = (id: string) => route.url.replace(/:[A-Za-z0-9_]+/g, id);
      // Control: the same request succeeds on an object A may use, so a 404 below is ownership.
      let body: unknown;
      let control: number | undefined;
      search: for (const candidate of validBodies(route, pools)) {
        for (const id of [...owned.a, ...shared]) {
          const res = await t.app.inject({ method: route.method as 'PUT', url: fill(id), headers: await asA(), ...(candidate !== undefined ? { payload: candidate as object } : {}) });
          if (res.statusCode < 300) {
            body = candidate;
            control = res.statusCode;
            break search;
          }
        }
      }
      expect(control, `no object of A's or shared one made ${route.method} ${route.url} succeed`).toBeDefined();

      for (const id of owned.b) {
        const before = await ownedRows(b.id);
        const payload = body !== undefined && typeof body === 'object' ? { ...smuggled(), ...(body as object) } : body;
        const res = await t.app.inject({ method: route.method as 'PUT', url: fill(id), headers: await asA(), ...(payload !== undefined ? { payload: payload as object } : {}) });
        const where = `${route.method} ${fill(id)} as A`;
        expect(res.statusCode, `${where}: ${res.body}`).toBe(404);
        expect(await ownedRows(b.id), `${where} changed B's rows`).toBe(before);
        expectNothingOfB(res.body, where);
        cells.checked += 1;
      }
    });
  });

  describe.each(memberRoutes.filter((r) => !r.url.includes(':')))('$method $url', (route) => {
    it("never shows A anything of B's, even with B's ids smuggled into the body and query", async () => {
      // B's ids go in under id-like keys (smuggled below), never as the text of a field that
      // is echoed back; B's e-mail is offered where a route takes one.
      const pools: Pools = { ids: [], emails: [b.email] };
      const query = new URLSearchParams(Object.entries(smuggled()).map(([k, v]) => [k, String(v)])).toString();
      for (const candidate of validBodies(route, pools).slice(0, 5)) {
        const before = await ownedRows(b.id);
        const payload = candidate !== undefined && typeof candidate === 'object' && candidate !== null ? { ...smuggled(), ...candidate } : candidate;
        const res = await t.app.inject({ method: route.method as 'GET', url: `${route.url}?${query}`, headers: await asA(), ...(payload !== undefined ? { payload: payload as object } : {}) });
        const where = `${route.method} ${route.url} as A`;
        expect(res.statusCode, `${where}: ${res.body}`).toBeLessThan(500);
        expect(await ownedRows(b.id), `${where} changed B's rows`).toBe(before);
        expectNothingOfB(res.body, where);
        cells.checked += 1;
      }
    });
  });
});

describe('family members', () => {
  it("lists only A's own, and A's additions never land on B", async () => {
    const listA = (await t.app.inject({ url: '/api/family-members', headers: await asA() })).json() as { familyMembers: { id: string }[] };
    const aFamily = new Set(owned.a);
    for (const fm of listA.familyMembers) expect(aFamily.has(fm.id) || !owned.b.includes(fm.id)).toBe(true);
    const counts = rowsOf<{ bad: number }>(
      await t.database.db.execute(sql`select count(*)::int as bad from participants p where p.family_member_count <> (select count(*) from family_members f where f.participant_id = p.id)`),
    );
    expect(counts[0]!.bad).toBe(0);
    const bList = (await t.app.inject(asUser(b.token, { url: '/api/family-members' }))).json() as { familyMembers: { firstName: string }[] };
    expect(bList.familyMembers.map((f) => f.firstName).sort()).toEqual([0, 1, 2, 3].map((i) => `Bfirst${i}${tag}`));
  });
});

describe('popup states', () => {
  it("keeps each member's snoozes and completions to themselves", async () => {
    const popup = shared[5]!;
    const stateOf = async (userId: string) =>
      rowsOf<{ snooze_count: number; completed: boolean }>(
        await t.database.db.execute(sql`select snooze_count, completed_at is not null as completed from user_popup_states where user_id = ${userId} and popup_id = ${popup}`),
      )[0];
    expect((await t.app.inject(asUser(b.token, { method: 'POST', url: `/api/popups/${popup}/snooze` }))).statusCode).toBe(200);
    expect((await t.app.inject(asUser(b.token, { method: 'POST', url: `/api/popups/${popup}/snooze` }))).statusCode).toBe(200);
    const bBefore = await ownedRows(b.id);
    const snoozed = await t.app.inject({ method: 'POST', url: `/api/popups/${popup}/snooze`, headers: await asA() });
    expect(snoozed.json()).toMatchObject({ id: popup, snoozeCount: 1 });
    expect((await t.app.inject({ method: 'POST', url: `/api/popups/${popup}/complete`, headers: await asA() })).statusCode).toBe(200);
    expect(await ownedRows(b.id)).toBe(bBefore);
    expect(await stateOf(b.id)).toEqual({ snooze_count: 2, completed: false });
    expect(await stateOf(a.id)).toMatchObject({ completed: true });
    const bActive = (await t.app.inject(asUser(b.token, { url: '/api/popups/active' }))).json() as { popups: { id: string; snoozeCount: number }[] };
    expect(bActive.popups.find((p) => p.id === popup)).toMatchObject({ snoozeCount: 2 });
  });
});

describe('sessions', () => {
  it("stay out of another member's device list, and A's device routes never revoke or change anything of B's", async () => {
    // B signed in on two more devices; A on one more, and knows B's session ids and password.
    const bHeaders = [await freshSessionHeaders(t, b.id), await freshSessionHeaders(t, b.id)];
    const bIds = rowsOf<{ id: string }>(await t.database.db.execute(sql`select id::text as id from sessions where user_id = ${b.id} and revoked_at is null`)).map((r) => r.id);
    expect(bIds.length).toBeGreaterThanOrEqual(3);
    const aHeaders = await asA();
    const other = await asA();
    const bBefore = await ownedRows(b.id);

    const listed = await t.app.inject({ url: '/api/me/sessions', headers: aHeaders });
    expect(listed.statusCode).toBe(200);
    expectNothingOfB(listed.body, 'GET /api/me/sessions as A');
    const unknown = await t.app.inject({ method: 'DELETE', url: `/api/me/sessions/${randomUUID()}`, headers: aHeaders });
    expect(unknown.statusCode).toBe(404);
    for (const id of bIds) {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/me/sessions/${id}`, headers: aHeaders, payload: { userId: b.id } });
      expect(res.statusCode, `DELETE B's session ${id} as A`).toBe(404);
      expect(res.body, 'the same answer as an unknown id').toBe(unknown.body);
      cells.checked += 1;
    }
    const others = await t.app.inject({ method: 'POST', url: '/api/me/sessions/revoke-others', headers: aHeaders, payload: { userId: b.id, sessionId: bIds[0] } });
    expect(others.statusCode).toBe(200);
    expect((others.json() as { revoked: number }).revoked).toBeGreaterThanOrEqual(1);
    expect((await t.app.inject({ url: '/api/auth/me', headers: other })).statusCode).toBe(401);
    // B's password typed as A's current one changes nothing of anybody's.
    const change = await t.app.inject({ method: 'POST', url: '/api/me/password', headers: aHeaders, payload: { currentPassword: b.password, newPassword: 'Lantern orbit quietly 42', userId: b.id } });
    expect([400, 429]).toContain(change.statusCode);
    expectNothingOfB(change.body, 'POST /api/me/password as A');
    cells.checked += 3;

    expect(await ownedRows(b.id), "A's device routes changed B's rows").toBe(bBefore);
    for (const headers of [...bHeaders, asUser(b.token, {}).headers as Record<string, string>]) {
      expect((await t.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(200);
    }
    const bList = (await t.app.inject(asUser(b.token, { url: '/api/me/sessions' }))).json() as { sessions: { id: string }[] };
    expect(bList.sessions.map((s) => s.id).sort()).toEqual([...bIds].sort());
  });

  it("are never reachable by another member: not by id, hash or sign-out, and revoking one leaves the other", async () => {
    const bSessions = rowsOf<{ id: string; token_hash: string }>(await t.database.db.execute(sql`select id::text as id, token_hash from sessions where user_id = ${b.id}`));
    expect(bSessions.length).toBeGreaterThan(0);
    for (const s of bSessions) {
      for (const forged of [s.id, s.token_hash, s.id.replace(/-/g, ''), s.token_hash.slice(0, 43)]) {
        const res = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${forged}` } });
        expect(res.statusCode, forged).toBe(401);
      }
    }
    const aToken = await asA();
    const me = await t.app.inject({ url: '/api/auth/me', headers: aToken });
    expect(me.json()).toMatchObject({ user: { id: a.id } });
    expectNothingOfB(me.body, 'GET /api/auth/me as A');
    const bBefore = await ownedRows(b.id);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: aToken, payload: { sessionId: bSessions[0]!.id, userId: b.id } })).statusCode).toBe(200);
    expect(await ownedRows(b.id)).toBe(bBefore);
    expect((await t.app.inject(asUser(b.token, { url: '/api/auth/me' }))).json()).toMatchObject({ user: { id: b.id } });
    expect((await t.app.inject({ url: '/api/auth/me', headers: aToken })).statusCode).toBe(401);
    // B's own sign-out ends B's session and nothing of A's.
    const aOther = await asA();
    expect((await t.app.inject(asUser(b.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(200);
    expect((await t.app.inject(asUser(b.token, { url: '/api/auth/me' }))).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: aOther })).statusCode).toBe(200);
    cells.checked += bSessions.length * 4 + 3;
  });
});

describe('ID cards', () => {
  const plan = { a: `Plan A ${tag}`, b: `Plan B ${tag}` };
  let companies: { a: string; b: string };
  let adminHeaders: Record<string, string>;
  const companyOf = async (userId: string) => rowsOf<{ id: string }>(await t.database.db.execute(sql`select company_id::text as id from users where id = ${userId}`))[0]!.id;
  const cardRow = async (companyId: string) =>
    rowsOf<{ row: string | null }>(await t.database.db.execute(sql`select (select c::text from employer_cards c where c.company_id = ${companyId}) as row`))[0]!.row;

  beforeAll(async () => {
    companies = { a: await companyOf(a.id), b: await companyOf(b.id) };
    adminHeaders = (await signedInAdmin(t)).auth;
    for (const who of ['a', 'b'] as const) {
      const res = await t.app.inject({ method: 'PUT', url: `/api/admin/employers/${companies[who]}/card`, headers: adminHeaders, payload: { planName: plan[who], groupNumber: `G-${who}` } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("gives A only A's own cards and A's employer's details, whatever A smuggles in", async () => {
    const query = new URLSearchParams(Object.entries(smuggled()).map(([k, v]) => [k, String(v)])).toString();
    for (const url of ['/api/me/cards', `/api/me/cards?${query}`]) {
      const res = await t.app.inject({ url, headers: await asA() });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { details: { planName: string }; cards: { name: string; lhmpId: string; token: string }[] };
      expect(body.details.planName).toBe(plan.a);
      // One card for A and one per family member A has now (the matrix above added some).
      const family = (await t.app.inject({ url: '/api/family-members', headers: await asA() })).json() as { familyMembers: { firstName: string; lastName: string }[] };
      expect(body.cards.slice(1).map((c) => c.name).sort()).toEqual(family.familyMembers.map((f) => `${f.firstName} ${f.lastName}`).sort());
      for (const card of body.cards) expect(card.lhmpId).toBe(a.lhmpId);
      expect(res.body.includes(plan.b)).toBe(false);
      expectNothingOfB(res.body, `GET ${url} as A`);
      cells.checked += 1;
    }
  });

  it("refuses members the admin card routes, for B's employer and their own, and changes nothing", async () => {
    for (const companyId of [companies.b, companies.a]) {
      const before = await cardRow(companyId);
      const read = await t.app.inject({ url: `/api/admin/employers/${companyId}/card`, headers: await asA() });
      expect(read.statusCode).toBe(403);
      expect(read.body.includes(plan.b)).toBe(false);
      const write = await t.app.inject({ method: 'PUT', url: `/api/admin/employers/${companyId}/card`, headers: await asA(), payload: { planName: 'Hijacked' } });
      expect(write.statusCode).toBe(403);
      expect(await cardRow(companyId)).toBe(before);
      cells.checked += 2;
    }
    const bCards = (await t.app.inject({ url: '/api/me/cards', headers: await freshSessionHeaders(t, b.id) })).json() as { details: { planName: string } };
    expect(bCards.details.planName).toBe(plan.b);
  });

  it("verifies B's card for anyone, and says no more than the card itself carries", async () => {
    const bHeaders = await freshSessionHeaders(t, b.id);
    const token = ((await t.app.inject({ url: '/api/me/cards', headers: bHeaders })).json() as { cards: { token: string }[] }).cards[0]!.token;
    const res = await t.app.inject({ method: 'POST', url: '/api/cards/verify', headers: await asA(), payload: { token, userId: b.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true, lhmpId: b.lhmpId, planName: plan.b });
    for (const secret of [b.email, b.id, ...owned.b]) expect(res.body.includes(secret)).toBe(false);
    cells.checked += 1;
  });
});
