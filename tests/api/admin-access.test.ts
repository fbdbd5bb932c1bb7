import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, sessions, users } from '../../src/db/schema';
import { ensureAdmin, setAdminRole } from '../../src/server/modules/auth/admin-bootstrap';
import { type TestApp, asUser, createTestApp, registerMember, signedInAdmin, signedInMember, totpCode } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const employers = (token: string) => t.app.inject(asUser(token, { method: 'GET', url: '/api/admin/employers' }));
const signIn = (email: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password }, remoteAddress: ip });

describe('lockout under parallel guessing', () => {
  it('verifies at most 5 guesses however many arrive at once, and refuses even the right password in the burst', async () => {
    const m = await registerMember(t.app);
    const guesses = Array.from({ length: 30 }, (_, i) => signIn(m.email, `wrong password ${i}`, `192.0.2.${i + 1}`));
    const results = await Promise.all([...guesses, signIn(m.email, m.password, '192.0.2.200')]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 200)).toHaveLength(0);
  });

  it("never locks an account over the member's own simultaneous sign-ins", async () => {
    const m = await registerMember(t.app);
    const results = await Promise.all(Array.from({ length: 8 }, () => signIn(m.email, m.password)));
    for (const r of results) expect([200, 429]).toContain(r.statusCode);
    expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(5);
    expect((await signIn(m.email, m.password)).statusCode).toBe(200);
  });

  it('limits Admin Access guesses the same way', async () => {
    const admin = await signedInAdmin(t, { elevate: false });
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: { email: admin.email, password: `wrong ${i}` } })),
      ),
    );
    const statuses = attempts.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 403).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
    const locked = attempts.find((r) => r.statusCode === 429)!;
    expect(locked.headers['retry-after']).toBeDefined();
    // Admins get the same progressive throttle: after the free failures, one more sets a wait
    // that even the right password must sit out.
    const access = (password: string) => t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: { email: admin.email, password } }));
    for (let i = statuses.filter((s) => s === 403).length; i < 6; i += 1) expect((await access(`wrong again ${i}`)).statusCode).toBe(403);
    const right = await access(admin.password);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBe('1');
    t.clock.advance(1000);
    expect((await access(admin.password)).statusCode).toBe(200);
  });
});

describe('admin step-up', () => {
  it('is bound to one new session: the token that asked is revoked, and another sign-in is not elevated', async () => {
    const admin = await signedInAdmin(t);
    expect(admin.token).not.toBe(admin.signedInToken);
    expect((await employers(admin.token)).statusCode).toBe(200);
    expect((await employers(admin.signedInToken)).statusCode).toBe(401);
    // The admin now has a factor: signing in again takes the code too (the next step's; this one is used).
    const other = await signIn(admin.email, admin.password);
    expect(other.json()).toEqual({ status: 'mfa_required', challenge: expect.any(String) });
    t.clock.advance(30_000);
    const second = await t.app.inject({ method: 'POST', url: '/api/auth/signin/mfa', payload: { challenge: other.json().challenge, code: totpCode(t, admin.mfa.secret) } });
    expect(second.statusCode, second.body).toBe(200);
    expect((await employers(second.json().token)).statusCode).toBe(403);
    expect((await employers(admin.token)).statusCode).toBe(200);
  });

  it('expires an hour after the step-up', async () => {
    const admin = await signedInAdmin(t);
    const me = () => t.app.inject(asUser(admin.token, { method: 'GET', url: '/api/auth/me' }));
    for (const step of [10, 10, 10, 10, 10, 9]) {
      t.clock.advance(step * 60 * 1000);
      expect((await me()).json().session.adminElevated).toBe(true);
    }
    t.clock.advance(60 * 1000);
    expect((await employers(admin.token)).statusCode).toBe(403);
    expect((await me()).json().session.adminElevated).toBe(false);
  });

  it('ends when the role is revoked and needs a new step-up when granted again', async () => {
    const admin = await signedInAdmin(t);
    expect((await employers(admin.token)).statusCode).toBe(200);
    await setAdminRole(t.database.db, admin.email, false, t.clock());
    expect((await employers(admin.token)).statusCode).toBe(403);
    await setAdminRole(t.database.db, admin.email, true, t.clock());
    expect((await employers(admin.token)).statusCode).toBe(403);
    const revoked = await t.database.db.select().from(events).where(eq(events.type, 'admin.role.revoked'));
    expect(revoked.some((e) => (e.payloadJson as { userId?: string }).userId === admin.id)).toBe(true);
  });
});

describe('ensureAdmin (ADMIN_EMAIL / ADMIN_PASSWORD at start)', () => {
  it('creates an administrator with the lowest free programme ID, even when a member took LQ99999', async () => {
    await registerMember(t.app, { lhmpId: 'LQ99999' });
    const email = `boot.${Date.now()}@example.test`;
    expect(await ensureAdmin(t.database.db, { email, password: 'Sturdy admin pass 1', companyName: 'Program Administration', brandName: 'Wellhaven' })).toBe('created');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.role).toBe('admin');
    expect(row!.lhmpId).toMatch(/^LQ\d{5}$/);
    expect(row!.lhmpId).not.toBe('LQ99999');
  });

  it('promotes and re-passwords an existing account, revoking its sessions', async () => {
    const m = await signedInMember(t.app);
    expect(await ensureAdmin(t.database.db, { email: m.email.toUpperCase(), password: 'A brand new admin pass', companyName: 'Program Administration', brandName: 'Wellhaven' })).toBe('promoted');
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(401);
    expect((await signIn(m.email, m.password)).statusCode).toBe(401);
    const fresh = await signIn(m.email, 'A brand new admin pass');
    expect(fresh.json().user.role).toBe('admin');
    const live = await t.database.db.select().from(sessions).where(eq(sessions.userId, m.id));
    expect(live.filter((s) => s.revokedAt === null)).toHaveLength(1);
  });

  it('refuses a common password', async () => {
    await expect(ensureAdmin(t.database.db, { email: 'x@example.test', password: 'password123', companyName: 'P', brandName: 'Wellhaven' })).rejects.toThrow(/too common/);
  });

  it('refuses a password the policy refuses, saying why, and creates nothing', async () => {
    const email = `refused.${Date.now()}@example.test`;
    await expect(ensureAdmin(t.database.db, { email, password: 'Wellhaven-admin-2026', companyName: 'P', brandName: 'Wellhaven' })).rejects.toThrow(
      'Invalid configuration:\n  - ADMIN_PASSWORD: Password must not contain the name of this service',
    );
    await expect(ensureAdmin(t.database.db, { email, password: 'Password1!', companyName: 'P', brandName: 'Wellhaven' })).rejects.toThrow(/too easy to guess/);
    expect(await t.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('counts the bootstrap address as verified, created or promoted (the operator vouches for it)', async () => {
    const email = `vouched.${Date.now()}@example.test`;
    await ensureAdmin(t.database.db, { email, password: 'Sturdy admin pass 1', companyName: 'P', brandName: 'Wellhaven' }, t.clock());
    const [created] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(created!.emailVerifiedAt).toEqual(t.clock());
    const m = await signedInMember(t.app);
    const [before] = await t.database.db.select().from(users).where(eq(users.id, m.id));
    expect(before!.emailVerifiedAt).toBeNull();
    await ensureAdmin(t.database.db, { email: m.email, password: 'Sturdy admin pass 1', companyName: 'P', brandName: 'Wellhaven' }, t.clock());
    const [after] = await t.database.db.select().from(users).where(eq(users.id, m.id));
    expect(after!.emailVerifiedAt).toEqual(t.clock());
  });
});

describe('session housekeeping', () => {
  it('deletes sessions that ended over a day ago and keeps live ones', async () => {
    const { deleteEndedSessions } = await import('../../src/server/modules/auth/auth.repository');
    const ended = await signedInMember(t.app);
    await t.app.inject(asUser(ended.token, { method: 'POST', url: '/api/auth/signout' }));
    t.clock.advance(25 * 60 * 60 * 1000);
    const live = await signedInMember(t.app);
    const deleted = await deleteEndedSessions(t.database.db, new Date(t.clock().getTime() - 24 * 60 * 60 * 1000));
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await t.database.db.select().from(sessions);
    expect(left.some((s) => s.userId === ended.id)).toBe(false);
    expect(left.some((s) => s.userId === live.id)).toBe(true);
    expect((await t.app.inject(asUser(live.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(200);
  });
});
