/**
 * Fixes from the security review of sign-in throttling and the account links: an in-flight
 * mark left by a crash expires on a fixed window; a new password (reset or set-password link)
 * clears the password throttles; reset-password and verify-email are limited per IP, and each
 * password link allows a few tries; a link used by two requests at once wins once; the
 * bootstrap administrator promoted over someone else's registration keeps nothing of theirs.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, mfaRecoveryCodes, oneTimeTokens, users } from '../../src/db/schema';
import { MemoryCounterStore } from '../../src/server/lib/counter-store';
import { newToken, sha256Hex } from '../../src/server/lib/crypto';
import { ensureAdmin } from '../../src/server/modules/auth/admin-bootstrap';
import { createThrottle, throttleKeys } from '../../src/server/modules/auth/throttle';
import { latestMail, mailsTo } from './support/outbox';
import { type TestApp, adminAccess, createTestApp, registerMember, testClock } from './support/test-app';

const HOUR = 60 * 60 * 1000;
/** Passes the password policy for the test members (no names, employer or brand in it). */
const NEW_PASSWORD = 'Lantern orbit quietly 42';

const clock = testClock();
const store = new MemoryCounterStore(clock);
const throttle = createThrottle(store);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, counters: store });
});
afterAll(async () => {
  await t?.close();
  await store.close();
});

const post = (url: string, payload: object, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'POST', url, payload, remoteAddress });
const signIn = (email: string, password: string) => post('/api/auth/signin', { email, password });
async function resetLink(email: string) {
  expect((await post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
  return (await latestMail(t, email, 'reset_password')).token!;
}
/** Failures recorded straight on a throttle key (settled with nothing in flight). */
async function fail(key: string, times: number) {
  for (let i = 0; i < times; i += 1) await throttle.settle(key, false);
}

describe('sign-in throttle', () => {
  it('forgets an in-flight mark a crashed instance left behind after a minute, even while sign-ins keep being refused', async () => {
    const m = await registerMember(t.app);
    for (let i = 0; i < 5; i += 1) expect((await signIn(m.email, 'wrong password!')).statusCode).toBe(401);
    // Another instance claimed an attempt and died before settling it.
    expect(await throttle.claim(throttleKeys.signIn(m.email))).toBe(0);
    for (let i = 0; i < 6; i += 1) {
      expect((await signIn(m.email, m.password)).statusCode).toBe(429);
      clock.advance(10_000);
    }
    const res = await signIn(m.email, m.password);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('a new password from a link', () => {
  it.each(['reset_password', 'set_password'] as const)(
    'clears the sign-in and Admin Access throttles of the account, not the second-factor one (%s)',
    async (purpose) => {
      const m = await registerMember(t.app);
      for (let i = 0; i < 6; i += 1) expect((await signIn(m.email, 'wrong password!')).statusCode).toBe(401);
      expect((await signIn(m.email, m.password)).statusCode).toBe(429);
      await fail(throttleKeys.adminAccess(m.id), 7);
      await fail(throttleKeys.mfa(m.id), 7);
      let token: string;
      if (purpose === 'reset_password') token = await resetLink(m.email);
      else {
        token = newToken();
        await t.database.db.insert(oneTimeTokens).values({ userId: m.id, purpose, tokenHash: sha256Hex(token), expiresAt: new Date(clock().getTime() + HOUR) });
      }
      const res = await post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      // At once, though the wait set by the wrong passwords has not run out.
      expect((await signIn(m.email, NEW_PASSWORD)).statusCode).toBe(200);
      expect(await throttle.state(throttleKeys.adminAccess(m.id))).toEqual({ failures: 0, waitMs: 0 });
      // The link proves the mailbox, not the authenticator app: wrong codes stay counted.
      expect((await throttle.state(throttleKeys.mfa(m.id))).failures).toBe(7);
    },
  );

  it('leaves the throttle alone when the new password is refused', async () => {
    const m = await registerMember(t.app);
    for (let i = 0; i < 6; i += 1) await signIn(m.email, 'wrong password!');
    const token = await resetLink(m.email);
    expect((await post('/api/auth/reset-password', { token, password: 'password123' })).statusCode).toBe(400);
    expect((await throttle.state(throttleKeys.signIn(m.email))).failures).toBe(6);
  });
});

describe('reset-password and verify-email limits', () => {
  it('limits both per IP (AUTH_RATE_LIMIT_PER_IP a minute), before any token is looked at', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '4' } });
    try {
      for (const [url, payload] of [
        ['/api/auth/reset-password', { token: newToken(), password: NEW_PASSWORD }],
        ['/api/auth/verify-email', { token: newToken() }],
      ] as const) {
        const send = (remoteAddress: string) => limited.app.inject({ method: 'POST', url, payload, remoteAddress });
        for (let i = 0; i < 4; i += 1) expect((await send('10.7.7.7')).statusCode, url).toBe(400);
        const refused = await send('10.7.7.7');
        expect(refused.statusCode, url).toBe(429);
        expect(refused.json()).toEqual({ error: expect.stringMatching(/wait/), code: 'rate_limited' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect((await send('10.7.7.8')).statusCode, url).toBe(400);
      }
      limited.clock.advance(60_000);
      expect((await limited.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: newToken() }, remoteAddress: '10.7.7.7' })).statusCode).toBe(400);
    } finally {
      await limited.close();
    }
  });

  it('allows 5 tries an hour with one password link; the link stays unused and a new one works', async () => {
    const m = await registerMember(t.app);
    const token = await resetLink(m.email);
    for (let i = 0; i < 5; i += 1) expect((await post('/api/auth/reset-password', { token, password: 'password123' })).statusCode).toBe(400);
    const refused = await post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many tries with this link. Ask for a new one, or wait an hour and try again.', code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(m.email, m.password)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, sha256Hex(token)));
    expect(row!.usedAt).toBeNull();
    const fresh = await resetLink(m.email);
    expect((await post('/api/auth/reset-password', { token: fresh, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('lets exactly one of many simultaneous uses of a link set the password', async () => {
    const m = await registerMember(t.app);
    const token = await resetLink(m.email);
    const passwords = Array.from({ length: 8 }, (_, i) => `${NEW_PASSWORD} ${String.fromCharCode(97 + i)}x`);
    const results = await Promise.all(passwords.map((password) => post('/api/auth/reset-password', { token, password })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const s of statuses) expect([200, 400, 429]).toContain(s);
    const winner = passwords[statuses.indexOf(200)]!;
    expect((await signIn(m.email, winner)).statusCode).toBe(200);
    const resets = await t.database.db.select().from(events).where(and(eq(events.type, 'password.reset'), eq(events.actorUserId, m.id)));
    expect(resets).toHaveLength(1);
    expect((await mailsTo(t, m.email)).filter((mail) => mail.template === 'password_changed')).toHaveLength(1);
  });
});

describe('ensureAdmin over an account someone else registered first', () => {
  it('resets their second factor and recovery codes and ends every link they hold', async () => {
    const m = await registerMember(t.app);
    const verifyToken = (await latestMail(t, m.email, 'verify_email')).token!;
    const resetToken = await resetLink(m.email);
    await t.database.db.update(users).set({ mfaSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', mfaEnabledAt: clock(), mfaLastStep: 1 }).where(eq(users.id, m.id));
    await t.database.db.insert(mfaRecoveryCodes).values([{ userId: m.id, codeHash: sha256Hex('first'), createdAt: clock() }, { userId: m.id, codeHash: sha256Hex('second'), createdAt: clock() }]);
    const adminPassword = 'Sturdy admin pass 1';
    expect(await ensureAdmin(t.database.db, { email: m.email, password: adminPassword, companyName: 'Program Administration', brandName: 'Wellhaven' }, clock())).toBe('promoted');

    const [row] = await t.database.db.select().from(users).where(eq(users.id, m.id));
    expect(row).toMatchObject({ mfaSecret: null, mfaPendingSecret: null, mfaEnabledAt: null, mfaLastStep: null, role: 'admin' });
    expect(await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, m.id))).toHaveLength(0);
    const reset = await post('/api/auth/reset-password', { token: resetToken, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error).toMatch(/expired/);
    expect((await post('/api/auth/verify-email', { token: verifyToken })).json().error).toMatch(/expired/);

    // The administrator signs in with the configured password alone and sets up a new factor.
    const signedIn = await signIn(m.email, adminPassword);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { token } = signedIn.json() as { token: string };
    expect((await adminAccess(t, token, { email: m.email, password: adminPassword })).json()).toMatchObject({ status: 'mfa_setup' });
  });
});

describe('forgot password from many addresses of one IPv6 /56', () => {
  it('counts them as one caller, whichever /64 of it they come from', async () => {
    const m = await registerMember(t.app);
    for (let i = 1; i <= 5; i += 1) expect((await post('/api/auth/forgot-password', { email: m.email }, `2001:db8:5:${i}::${i}`)).statusCode).toBe(200);
    expect((await mailsTo(t, m.email)).filter((mail) => mail.template === 'reset_password')).toHaveLength(3);
    // The next /56 (2001:db8:5:100::/56) is another caller.
    expect((await post('/api/auth/forgot-password', { email: m.email }, '2001:db8:5:100::1')).statusCode).toBe(200);
    expect((await mailsTo(t, m.email)).filter((mail) => mail.template === 'reset_password')).toHaveLength(4);
  });
});
