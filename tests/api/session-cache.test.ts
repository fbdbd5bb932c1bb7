/**
 * The session cache on one instance (src/server/modules/auth/session-cache.ts): a resolved
 * session is served from memory, yet every change that ends it or changes what it says is
 * refused or shown at once, and the absolute and idle limits stay exact by the clock. Counts
 * the SQL statements each request costs (a logger on the app's database handle).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema';
import { sha256Hex } from '../../src/server/lib/crypto';
import { revokeAdmin } from '../../src/server/modules/auth/operator';
import { latestMail } from './support/outbox';
import { statementCounter } from './support/statements';
import { type TestApp, asUser, createTestApp, freshSessionHeaders, registerMember, signedInAdmin, signedInMember } from './support/test-app';

let t: TestApp;
let sql: ReturnType<typeof statementCounter>;
beforeAll(async () => {
  t = await createTestApp();
  sql = statementCounter(t.database.db);
});
afterAll(async () => {
  await t?.close();
});

const get = (token: string, url: string) => t.app.inject(asUser(token, { method: 'GET', url }));
const me = (token: string) => get(token, '/api/auth/me');
const statementsOf = async (token: string, url: string, status = 200) =>
  sql.during(async () => {
    const res = await get(token, url);
    expect(res.statusCode, res.body).toBe(status);
  });

describe('the session cache', () => {
  it('is on by default (SESSION_CACHE_TTL_MS 5 s) on the embedded and single-instance set-up', () => {
    expect(t.app.sessionCache.enabled).toBe(true);
  });

  it('serves GET /api/auth/me from memory: one statement for the first request, none after', async () => {
    const m = await signedInMember(t.app);
    expect(await statementsOf(m.token, '/api/auth/me')).toHaveLength(1);
    for (let i = 0; i < 3; i += 1) expect(await statementsOf(m.token, '/api/auth/me')).toEqual([]);
    // Past the TTL the database is asked again (by the app's clock).
    t.clock.advance(5000);
    expect(await statementsOf(m.token, '/api/auth/me')).toHaveLength(1);
  });

  it('costs GET /api/family-members one prepared statement (the session from memory)', async () => {
    const m = await signedInMember(t.app);
    const add = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Ada', lastName: 'Kid', dob: '2015-04-01', relationship: 'Child' } }));
    expect(add.statusCode, add.body).toBe(201);
    await me(m.token);
    const statements = await statementsOf(m.token, '/api/family-members');
    expect(statements).toHaveLength(1);
    // By the participant the session knows: no join.
    expect(statements[0]).toMatch(/from "family_members" where "family_members"."participant_id" = \$1/);
    expect((await get(m.token, '/api/family-members')).json().familyMembers).toMatchObject([{ firstName: 'Ada', relationship: 'Child' }]);
    expect(await statementsOf(m.token, '/api/members/me/profile')).toHaveLength(1);
  });

  it('lists the family of a session opened before its user was enrolled (the participant comes later)', async () => {
    const m = await registerMember(t.app);
    const headers = await freshSessionHeaders(t, m.id);
    const list = () => t.app.inject({ method: 'GET', url: '/api/family-members', headers });
    expect((await list()).json()).toEqual({ familyMembers: [] });
    const add = await t.app.inject({ method: 'POST', url: '/api/family-members', headers, payload: { firstName: 'Bo', lastName: 'Kid', dob: '2016-02-03', relationship: 'Child' } });
    expect(add.statusCode, add.body).toBe(201);
    // The cached session still says "no participant": the list finds it through the user.
    expect((await list()).json().familyMembers).toMatchObject([{ firstName: 'Bo' }]);
  });

  it('refuses a signed-out token at once on the same instance', async () => {
    const m = await signedInMember(t.app);
    await me(m.token);
    expect(await statementsOf(m.token, '/api/auth/me')).toEqual([]);
    expect((await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(200);
    expect((await me(m.token)).statusCode).toBe(401);
  });

  it('refuses the other sessions at once after a password change; the one that changed it goes on', async () => {
    const m = await signedInMember(t.app);
    const other = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } })).json().token as string;
    await me(m.token);
    await me(other);
    expect(await statementsOf(other, '/api/auth/me')).toEqual([]);
    const changed = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/me/password', payload: { currentPassword: m.password, newPassword: 'a quite different passphrase' } }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(m.token)).statusCode).toBe(200);
  });

  it('refuses one device signed out from another, and all others, at once', async () => {
    const m = await signedInMember(t.app);
    const signIn = async () => (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } })).json().token as string;
    const [second, third] = [await signIn(), await signIn()];
    for (const token of [m.token, second, third]) await me(token);
    const secondId = (await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, sha256Hex(second))))[0]!.id;
    expect((await t.app.inject(asUser(m.token, { method: 'DELETE', url: `/api/me/sessions/${secondId}` }))).statusCode).toBe(204);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(200);
    expect((await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/me/sessions/revoke-others' }))).statusCode).toBe(200);
    expect((await me(third)).statusCode).toBe(401);
    expect((await me(m.token)).statusCode).toBe(200);
  });

  it('refuses the admin routes at once when the operator revokes the role (npm run admin -- revoke)', async () => {
    const admin = await signedInAdmin(t);
    expect((await get(admin.token, '/api/admin/employers')).statusCode).toBe(200);
    expect(await statementsOf(admin.token, '/api/auth/me')).toEqual([]);
    const result = await revokeAdmin({ db: t.database.db, clock: t.clock, counters: undefined }, admin.email);
    expect(result.exitCode).toBe(0);
    expect((await get(admin.token, '/api/admin/employers')).statusCode).toBe(403);
    expect((await me(admin.token)).json()).toMatchObject({ user: { role: 'member' }, session: { adminElevated: false } });
  });

  it("shows the step-up's end in /me at its hour, from the session as held", async () => {
    const admin = await signedInAdmin(t);
    const [row] = await t.database.db.select({ at: sessions.adminElevatedAt }).from(sessions).where(eq(sessions.tokenHash, sha256Hex(admin.token)));
    // To a second before the step-up's hour ends, in steps the idle limit lets the session live through.
    const lastElevatedSecond = row!.at!.getTime() + 60 * 60 * 1000 - 1000;
    while (t.clock().getTime() < lastElevatedSecond) {
      t.clock.advance(Math.min(10 * 60 * 1000, lastElevatedSecond - t.clock().getTime()));
      expect((await me(admin.token)).statusCode).toBe(200);
    }
    const before = await me(admin.token);
    expect(before.json().session.adminElevated).toBe(true);
    t.clock.advance(1000);
    // Held for a second (the cache's TTL is 5 s): no statement, and no longer stepped up.
    expect(await statementsOf(admin.token, '/api/auth/me')).toEqual([]);
    const after = await me(admin.token);
    expect(after.json()).toEqual({ ...before.json(), session: { ...before.json().session, adminElevated: false } });
    expect((await get(admin.token, '/api/admin/employers')).statusCode).toBe(403);
  });

  it('answers /me with the same text while nothing it says changes, and the new one once it does', async () => {
    const m = await signedInMember(t.app);
    const first = await me(m.token);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await me(m.token)).body).toBe(first.body);
    expect(first.json().user.language).toBeNull();
    const choose = await t.app.inject(asUser(m.token, { method: 'PATCH', url: '/api/me/preferences', payload: { language: 'es' } }));
    expect(choose.statusCode, choose.body).toBe(200);
    expect((await me(m.token)).json()).toEqual({ ...first.json(), user: { ...first.json().user, language: 'es' } });
  });

  it("moves /me's idle end on at the once-a-minute touch, even while the session is held", async () => {
    const m = await signedInMember(t.app);
    const idleEnd = async () => Date.parse((await me(m.token)).json().session.idleExpiresAt);
    const first = await idleEnd();
    t.clock.advance(58_000);
    expect(await idleEnd()).toBe(first);
    // Held for 3 s (under the cache's 5 s), but a touch is due: read, touched and held anew.
    t.clock.advance(3000);
    expect((await idleEnd()) - first).toBe(61_000);
  });

  it('shows a verified address in /me at once', async () => {
    const m = await signedInMember(t.app);
    expect((await me(m.token)).json().account.emailVerified).toBe(false);
    const { token } = await latestMail(t, m.email, 'verify_email');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } })).statusCode).toBe(200);
    expect((await me(m.token)).json().account.emailVerified).toBe(true);
  });

  it('keeps the absolute limit exact on a cached session: refused at expiresAt, not a millisecond later', async () => {
    const m = await signedInMember(t.app);
    const token = (await t.app.sessionTokens.get()).mint();
    const now = t.clock();
    const userId = m.id;
    await t.database.db.insert(sessions).values({ userId, tokenHash: sha256Hex(token), signed: true, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + 3000) });
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(2999);
    expect(await statementsOf(token, '/api/auth/me')).toEqual([]);
    t.clock.advance(1);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('writes lastSeenAt at most once a minute and keeps the idle limit exact', async () => {
    const m = await signedInMember(t.app);
    const writes = async () => (await statementsOf(m.token, '/api/auth/me')).filter((s) => s.startsWith('update "sessions"')).length;
    let total = 0;
    for (let second = 0; second < 60; second += 4) {
      total += await writes();
      t.clock.advance(4000);
    }
    // None in the first minute, one at 60 s after sign-in, then none again for a minute.
    expect(total).toBe(0);
    expect(await writes()).toBe(1);
    t.clock.advance(4000);
    expect(await writes()).toBe(0);
    const [row] = await t.database.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.tokenHash, sha256Hex(m.token)));
    const lastSeen = row!.lastSeenAt.getTime();
    // Idle: still live a millisecond before 15 minutes of silence, refused at 15 minutes.
    t.clock.set(new Date(lastSeen + 15 * 60 * 1000 - 1));
    expect((await me(m.token)).statusCode).toBe(200);
    t.clock.set(new Date(t.clock().getTime() + 15 * 60 * 1000));
    expect((await me(m.token)).statusCode).toBe(401);
  });
});
