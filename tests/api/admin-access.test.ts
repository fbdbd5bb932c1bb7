import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, sessions, users } from '../../src/db/schema';
import { ensureAdmin, setAdminRole } from '../../src/server/modules/auth/admin-bootstrap';
import { type TestApp, asUser, createTestApp, registerMember, signedInAdmin, signedInMember } from './support/test-app';

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
    const right = await t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: { email: admin.email, password: admin.password } }));
    expect(right.statusCode).toBe(429);
  });
});

describe('admin step-up', () => {
  it('is bound to one session', async () => {
    const admin = await signedInAdmin(t);
    expect((await employers(admin.token)).statusCode).toBe(200);
    const other = await signIn(admin.email, admin.password);
    expect((await employers(other.json().token)).statusCode).toBe(403);
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
    expect(await ensureAdmin(t.database.db, { email, password: 'Bootstrap admin pass 1', companyName: 'Program Administration' })).toBe('created');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.role).toBe('admin');
    expect(row!.lhmpId).toMatch(/^LQ\d{5}$/);
    expect(row!.lhmpId).not.toBe('LQ99999');
  });

  it('promotes and re-passwords an existing account, revoking its sessions', async () => {
    const m = await signedInMember(t.app);
    expect(await ensureAdmin(t.database.db, { email: m.email.toUpperCase(), password: 'A brand new admin pass', companyName: 'Program Administration' })).toBe('promoted');
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(401);
    expect((await signIn(m.email, m.password)).statusCode).toBe(401);
    const fresh = await signIn(m.email, 'A brand new admin pass');
    expect(fresh.json().user.role).toBe('admin');
    const live = await t.database.db.select().from(sessions).where(eq(sessions.userId, m.id));
    expect(live.filter((s) => s.revokedAt === null)).toHaveLength(1);
  });

  it('refuses a common password', async () => {
    await expect(ensureAdmin(t.database.db, { email: 'x@example.test', password: 'password123', companyName: 'P' })).rejects.toThrow(/too common/);
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
