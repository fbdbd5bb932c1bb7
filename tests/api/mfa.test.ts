/**
 * Second factor (TOTP, RFC 6238) for the admin step-up and for members' own sign-in, against
 * the injected clock: set-up, codes used once (also when two requests carry one code at the
 * same moment), the ±1 step window, recovery codes, the new token at step-up, the sign-in
 * challenge (expiry, single use, wrong codes), turning it off, and the operator's reset.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, loginAudits, mfaRecoveryCodes, oneTimeTokens, sessions, users } from '../../src/db/schema';
import { messages } from '../../src/shared/messages/index';
import { sha256Hex } from '../../src/server/lib/crypto';
import { MemoryCounterStore } from '../../src/server/lib/counter-store';
import { createMailer } from '../../src/server/modules/mail/mailer';
import { resetMfaCommand } from '../../src/server/modules/auth/mfa-operator';
import { resetMfa } from '../../src/server/modules/auth/mfa.service';
import { createThrottle, throttleKeys } from '../../src/server/modules/auth/throttle';
import { recoveryCodeHash, totpStep } from '../../src/server/modules/auth/totp';
import { latestMail } from './support/outbox';
import { type TestApp, adminAccess, asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember, testClock, totpCode } from './support/test-app';

const x = messages.mfa.server;
const a = messages.auth.adminAccess;

let t: TestApp;
/** The app's counter store, so the operator's reset-mfa can reach the throttle as it does with REDIS_URL. */
let store: MemoryCounterStore;
beforeAll(async () => {
  const clock = testClock();
  store = new MemoryCounterStore(clock);
  t = await createTestApp({ clock, counters: store });
});
afterAll(async () => {
  await t?.close();
});

const STEP_MS = 30_000;
const employers = (token: string) => t.app.inject(asUser(token, { method: 'GET', url: '/api/admin/employers' }));
const me = (token: string) => t.app.inject(asUser(token, { method: 'GET', url: '/api/auth/me' }));
const signIn = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
const signInMfa = (challenge: string, code: string) => t.app.inject({ method: 'POST', url: '/api/auth/signin/mfa', payload: { challenge, code } });
const mfaCall = (token: string, method: 'GET' | 'POST', path: string, payload?: object) =>
  t.app.inject(asUser(token, { method, url: `/api/me/mfa${path}`, ...(payload ? { payload } : {}) }));
const userRow = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
const eventsOf = async (type: string, actor: string) =>
  (await t.database.db.select().from(events).where(and(eq(events.type, type), eq(events.actorUserId, actor)))).map((e) => e.payloadJson);
const tokenOf = (res: { json(): unknown }) => (res.json() as { token: string }).token;
/** Moves the clock to a step nobody has used yet, so a test's codes are its own. */
const nextQuietStep = () => t.clock.advance(10 * STEP_MS);

/** A member with two-step sign-in turned on through /api/me/mfa; returns the secret and recovery codes. */
async function memberWithFactor() {
  const m = await signedInMember(t.app);
  const offer = await mfaCall(m.token, 'POST', '/setup', { password: m.password });
  expect(offer.statusCode, offer.body).toBe(200);
  const { secret } = offer.json() as { secret: string };
  const confirmed = await mfaCall(m.token, 'POST', '/confirm', { code: totpCode(t, secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { ...m, secret, recoveryCodes: (confirmed.json() as { recoveryCodes: string[] }).recoveryCodes };
}

describe('Admin Access with a second factor', () => {
  it('first set-up: offers a secret (the same one on a repeat call), then grants a NEW token and ten recovery codes, audited', async () => {
    const admin = await signedInAdmin(t, { elevate: false });
    const creds = { email: admin.email, password: admin.password };
    const offer = await adminAccess(t, admin.token, creds);
    expect(offer.statusCode).toBe(200);
    const { secret, otpauthUrl } = offer.json() as { secret: string; otpauthUrl: string };
    expect(Object.keys(offer.json()).sort()).toEqual(['otpauthUrl', 'secret', 'status']);
    expect(offer.json().status).toBe('mfa_setup');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(decodeURIComponent(url.pathname)).toBe(`/Wellhaven:${admin.email}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Wellhaven', secret, algorithm: 'SHA1', digits: '6', period: '30' });
    expect(await userRow(admin.id)).toMatchObject({ mfaPendingSecret: secret, mfaSecret: null, mfaEnabledAt: null });
    // A repeat call (the dialog closed and opened again) offers the same secret: the app already holds it.
    expect((await adminAccess(t, admin.token, creds)).json()).toEqual({ status: 'mfa_setup', secret, otpauthUrl });

    const wrong = await adminAccess(t, admin.token, { ...creds, code: totpCode(t, secret, 3) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe(x.invalidCode);
    // On the code field, as at sign-in and in Security (the dialog's code step puts it there).
    expect(wrong.json().fields).toEqual({ code: x.invalidCode });
    expect((await me(admin.token)).statusCode).toBe(200);

    const granted = await adminAccess(t, admin.token, { ...creds, code: totpCode(t, secret) });
    expect(granted.statusCode, granted.body).toBe(200);
    const body = granted.json() as { status: string; token: string; recoveryCodes: string[] };
    expect(Object.keys(body).sort()).toEqual(['recoveryCodes', 'status', 'token']);
    expect(body.status).toBe('granted');
    expect(body.token).not.toBe(admin.token);
    expect(body.recoveryCodes).toHaveLength(10);
    expect(new Set(body.recoveryCodes).size).toBe(10);

    // The new token is elevated; the one that asked is dead (a token leaked before the step-up stays a member's at most).
    expect((await employers(body.token)).statusCode).toBe(200);
    expect((await me(admin.token)).statusCode).toBe(401);
    expect((await employers(admin.token)).statusCode).toBe(401);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, admin.id));
    expect(rows).toHaveLength(2);
    expect(rows.find((s) => s.tokenHash === sha256Hex(admin.token))).toMatchObject({ revokedAt: t.clock(), adminElevatedAt: null });
    expect(rows.find((s) => s.tokenHash === sha256Hex(body.token))).toMatchObject({ revokedAt: null, adminElevatedAt: t.clock() });

    // Stored: the confirmed secret, its step as used, recovery codes only as SHA-256.
    expect(await userRow(admin.id)).toMatchObject({ mfaSecret: secret, mfaPendingSecret: null, mfaEnabledAt: t.clock(), mfaLastStep: totpStep(t.clock()) });
    const stored = await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, admin.id));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(body.recoveryCodes.map(recoveryCodeHash).sort());
    for (const code of body.recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code);

    expect(await eventsOf('admin.mfa.setup_started', admin.id)).toHaveLength(2);
    expect(await eventsOf('admin.mfa.enabled', admin.id)).toEqual([{ ip: '127.0.0.0/24', via: 'admin_access' }]);
    const grantedEvents = await eventsOf('admin.access.granted', admin.id);
    expect(grantedEvents).toEqual([expect.objectContaining({ via: 'setup', ip: '127.0.0.0/24' })]);
    expect(await eventsOf('admin.access.denied', admin.id)).toEqual([expect.objectContaining({ reason: 'bad_mfa_code' })]);

    // From now on the step-up only asks for the code: no secret is ever shown again.
    expect((await adminAccess(t, body.token, creds)).json()).toEqual({ status: 'mfa_required' });
  });

  it('checks identity and password first, with the same messages, and spends no code on a wrong password', async () => {
    const admin = await signedInAdmin(t);
    nextQuietStep();
    const code = totpCode(t, admin.mfa.secret);
    const notMe = await adminAccess(t, admin.token, { email: 'someone.else@example.test', password: admin.password, code });
    expect([notMe.statusCode, notMe.json().error]).toEqual([403, a.notAdminUser]);
    const badPassword = await adminAccess(t, admin.token, { email: admin.email, password: 'not the password', code });
    expect([badPassword.statusCode, badPassword.json().error]).toEqual([403, a.invalidAdmin]);
    const member = await signedInMember(t.app);
    const notAdmin = await adminAccess(t, member.token, { email: member.email, password: member.password, code });
    expect([notAdmin.statusCode, notAdmin.json().error]).toEqual([403, a.invalidAdmin]);
    // The code was never looked at: it still works.
    expect((await adminAccess(t, admin.token, { email: admin.email, password: admin.password, code })).json()).toMatchObject({ status: 'granted' });
  });

  it('accepts a code one step either side of the clock and refuses two, each step once', async () => {
    const admin = await signedInAdmin(t);
    const creds = { email: admin.email, password: admin.password };
    nextQuietStep();
    let token = admin.token;
    const tryCode = async (steps: number) => {
      const res = await adminAccess(t, token, { ...creds, code: totpCode(t, admin.mfa.secret, steps) });
      if (res.statusCode === 200) token = tokenOf(res);
      return res.statusCode;
    };
    expect(await tryCode(-2)).toBe(403);
    expect(await tryCode(2)).toBe(403);
    expect(await tryCode(-1)).toBe(200);
    expect(await tryCode(-1)).toBe(403);
    expect(await tryCode(0)).toBe(200);
    expect(await tryCode(0)).toBe(403);
    expect(await tryCode(1)).toBe(200);
    // Once the step ahead is used, the present and the past are spent too (steps only move forward).
    expect(await tryCode(1)).toBe(403);
    expect(await tryCode(0)).toBe(403);
    t.clock.advance(STEP_MS);
    expect(await tryCode(0)).toBe(403);
    expect(await tryCode(1)).toBe(200);
    expect((await userRow(admin.id)).mfaLastStep).toBe(totpStep(t.clock()) + 1);
  });

  it('lets exactly one of two simultaneous step-ups with one code through', async () => {
    const admin = await signedInAdmin(t);
    nextQuietStep();
    const code = totpCode(t, admin.mfa.secret);
    const [one, two] = await Promise.all([freshSessionHeaders(t, admin.id), freshSessionHeaders(t, admin.id)]);
    const body = { email: admin.email, password: admin.password, code };
    const results = await Promise.all(
      [one, two].map((headers) => t.app.inject({ method: 'POST', url: '/api/admin/access', headers, payload: body })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    // Same for a recovery code.
    const recovery = admin.mfa.recoveryCodes[0]!;
    const [three, four] = await Promise.all([freshSessionHeaders(t, admin.id), freshSessionHeaders(t, admin.id)]);
    const again = await Promise.all(
      [three, four].map((headers) => t.app.inject({ method: 'POST', url: '/api/admin/access', headers, payload: { ...body, code: recovery } })),
    );
    expect(again.map((r) => r.statusCode).sort()).toEqual([200, 403]);
  });

  it('gives one session one new token, even for two right codes at once', async () => {
    const admin = await signedInAdmin(t);
    nextQuietStep();
    const creds = { email: admin.email, password: admin.password };
    const results = await Promise.all([
      adminAccess(t, admin.token, { ...creds, code: totpCode(t, admin.mfa.secret) }),
      adminAccess(t, admin.token, { ...creds, code: admin.mfa.recoveryCodes[1]! }),
    ]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200)[0]).toBeOneOf([401, 403]);
    const live = (await t.database.db.select().from(sessions).where(eq(sessions.userId, admin.id))).filter((s) => s.revokedAt === null);
    expect(live).toHaveLength(1);
  });

  it('takes each recovery code once, in any case, with or without the dash, and audits how many are left', async () => {
    const admin = await signedInAdmin(t);
    const creds = { email: admin.email, password: admin.password };
    const code = admin.mfa.recoveryCodes[4]!;
    const first = await adminAccess(t, admin.token, { ...creds, code: ` ${code.toUpperCase().replace('-', '')} ` });
    expect(first.json()).toEqual({ status: 'granted', token: expect.any(String) });
    const again = await adminAccess(t, tokenOf(first), { ...creds, code });
    expect([again.statusCode, again.json().error]).toEqual([403, x.invalidCode]);
    expect(await eventsOf('admin.mfa.recovery_code_used', admin.id)).toEqual([{ recoveryCodesLeft: 9 }]);
    expect(await eventsOf('admin.access.granted', admin.id)).toContainEqual(expect.objectContaining({ via: 'recovery_code' }));
    // Someone else's recovery code is nobody's here.
    const other = await signedInAdmin(t);
    const foreign = await adminAccess(t, tokenOf(first), { ...creds, code: other.mfa.recoveryCodes[0]! });
    expect(foreign.statusCode).toBe(403);
  });

  it('throttles wrong codes like passwords, and a right password in between does not wipe them', async () => {
    const admin = await signedInAdmin(t);
    const creds = { email: admin.email, password: admin.password };
    nextQuietStep();
    const wrong = () => adminAccess(t, admin.token, { ...creds, code: '000000' === totpCode(t, admin.mfa.secret) ? '111111' : '000000' });
    for (let i = 0; i < 3; i += 1) expect((await wrong()).statusCode).toBe(403);
    expect((await adminAccess(t, admin.token, creds)).json()).toEqual({ status: 'mfa_required' });
    for (let i = 0; i < 3; i += 1) expect((await wrong()).statusCode).toBe(403);
    const held = await adminAccess(t, admin.token, { ...creds, code: totpCode(t, admin.mfa.secret) });
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(Number(held.headers['retry-after']) * 1000);
    expect((await adminAccess(t, admin.token, { ...creds, code: totpCode(t, admin.mfa.secret) })).statusCode).toBe(200);
    const denied = await eventsOf('admin.access.denied', admin.id);
    expect(denied.filter((p) => p.reason === 'bad_mfa_code')).toHaveLength(6);
  });

  it('an admin with a factor signs in with the code too, then steps up with another', async () => {
    const admin = await signedInAdmin(t);
    nextQuietStep();
    const challenge = await signIn(admin.email, admin.password);
    expect(challenge.json()).toEqual({ status: 'mfa_required', challenge: expect.any(String) });
    const session = await signInMfa(challenge.json().challenge, totpCode(t, admin.mfa.secret));
    expect(session.statusCode, session.body).toBe(200);
    expect((await employers(tokenOf(session))).statusCode).toBe(403);
    const stepUp = await adminAccess(t, tokenOf(session), { email: admin.email, password: admin.password, code: totpCode(t, admin.mfa.secret) });
    expect(stepUp.statusCode).toBe(403);
    const next = await adminAccess(t, tokenOf(session), { email: admin.email, password: admin.password, code: totpCode(t, admin.mfa.secret, 1) });
    expect(next.statusCode).toBe(200);
    expect((await employers(tokenOf(next))).statusCode).toBe(200);
  });
});

describe('two-step sign-in for members', () => {
  it('is off by default; set-up needs the password, confirm a code; the recovery codes come once', async () => {
    const m = await signedInMember(t.app);
    expect((await mfaCall(m.token, 'GET', '')).json()).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, canDisable: true });
    expect((await me(m.token)).json().account).toMatchObject({ mfaEnabled: false });
    expect((await mfaCall(m.token, 'POST', '/confirm', { code: '123456' })).statusCode).toBe(409);

    const wrongPassword = await mfaCall(m.token, 'POST', '/setup', { password: 'not my password' });
    expect(wrongPassword.statusCode).toBe(403);
    expect(wrongPassword.json().fields).toEqual({ password: x.passwordWrong });
    expect(await eventsOf('auth.mfa.setup.denied', m.id)).toEqual([{ reason: 'bad_password' }]);

    const offer = await mfaCall(m.token, 'POST', '/setup', { password: m.password });
    expect(offer.statusCode).toBe(200);
    const { secret, otpauthUrl } = offer.json() as { secret: string; otpauthUrl: string };
    expect(otpauthUrl).toContain(encodeURIComponent(m.email));
    expect((await mfaCall(m.token, 'GET', '')).json().enabled).toBe(false);

    const wrongCode = await mfaCall(m.token, 'POST', '/confirm', { code: totpCode(t, secret, 5) });
    expect(wrongCode.statusCode).toBe(403);
    expect(wrongCode.json().fields).toEqual({ code: x.invalidCode });

    const confirmed = await mfaCall(m.token, 'POST', '/confirm', { code: totpCode(t, secret) });
    expect(confirmed.statusCode).toBe(200);
    expect((confirmed.json() as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    expect((await mfaCall(m.token, 'GET', '')).json()).toEqual({ enabled: true, enabledAt: t.clock().toISOString(), recoveryCodesLeft: 10, canDisable: true });
    expect((await me(m.token)).json().account).toMatchObject({ mfaEnabled: true });
    expect((await mfaCall(m.token, 'POST', '/setup', { password: m.password })).statusCode).toBe(409);
    expect((await mfaCall(m.token, 'POST', '/confirm', { code: totpCode(t, secret, 1) })).statusCode).toBe(409);
    expect(await eventsOf('auth.mfa.enabled', m.id)).toHaveLength(1);
    // The session that turned it on goes on.
    expect((await me(m.token)).statusCode).toBe(200);
  });

  it('answers sign-in without a factor exactly as the spec does', async () => {
    const m = await signedInMember(t.app);
    const res = await signIn(m.email, m.password);
    expect(Object.keys(res.json()).sort()).toEqual(['token', 'user']);
  });

  it('asks for the code after the password: a hashed single-use challenge, no session until the code', async () => {
    const m = await memberWithFactor();
    nextQuietStep();
    const before = await t.database.db.select().from(sessions).where(eq(sessions.userId, m.id));
    const res = await signIn(m.email, m.password);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['challenge', 'status']);
    const { challenge } = res.json() as { challenge: string };
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, m.id))).toHaveLength(before.length);
    const [row] = await t.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, sha256Hex(challenge)));
    expect(row).toMatchObject({ userId: m.id, purpose: 'mfa_challenge', usedAt: null, expiresAt: new Date(t.clock().getTime() + 5 * 60_000) });
    // The password step is a sign-in attempt too: it writes its login_audits row.
    const stepAudits = await t.database.db.select().from(loginAudits).where(and(eq(loginAudits.userId, m.id), eq(loginAudits.result, 'mfa_required')));
    expect(stepAudits).toEqual([expect.objectContaining({ companyId: expect.any(String), timestamp: t.clock(), ipMasked: '127.0.0.0/24' })]);
    // A wrong password still gets today's answer, factor or not.
    expect((await signIn(m.email, 'not the password')).json().error).toBe(messages.auth.server.invalidCredentials);

    const done = await signInMfa(challenge, totpCode(t, m.secret));
    expect(done.statusCode, done.body).toBe(200);
    expect(Object.keys(done.json()).sort()).toEqual(['token', 'user']);
    expect(done.json().user).toMatchObject({ id: m.id, email: m.email });
    // Signed, as every session token is (session-tokens.ts).
    expect(tokenOf(done)).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect((await me(tokenOf(done))).statusCode).toBe(200);
    const success = await t.database.db.select().from(loginAudits).where(and(eq(loginAudits.userId, m.id), eq(loginAudits.result, 'success')));
    expect(success.at(-1)!.timestamp).toEqual(t.clock());
    // Single use: the same challenge (with the next code) is refused.
    const reused = await signInMfa(challenge, totpCode(t, m.secret, 1));
    expect([reused.statusCode, reused.json().error]).toEqual([401, x.challengeExpired]);
    expect((await signInMfa('made-up-challenge-made-up-challenge', totpCode(t, m.secret, 1))).statusCode).toBe(401);
  });

  it('lets a challenge live five minutes', async () => {
    const m = await memberWithFactor();
    nextQuietStep();
    const early = (await signIn(m.email, m.password)).json().challenge as string;
    const late = (await signIn(m.email, m.password)).json().challenge as string;
    t.clock.advance(5 * 60_000 - 1);
    expect((await signInMfa(early, totpCode(t, m.secret))).statusCode).toBe(200);
    t.clock.advance(1);
    const expired = await signInMfa(late, totpCode(t, m.secret, 1));
    expect([expired.statusCode, expired.json().error]).toEqual([401, x.challengeExpired]);
    // The refused challenge spent no code: the same code works on a new challenge.
    const fresh = (await signIn(m.email, m.password)).json().challenge as string;
    expect((await signInMfa(fresh, totpCode(t, m.secret, 1))).statusCode).toBe(200);
  });

  it('refuses wrong and reused codes with 401, counts them, and kills the challenge after five', async () => {
    const m = await memberWithFactor();
    nextQuietStep();
    const { challenge } = (await signIn(m.email, m.password)).json() as { challenge: string };
    const right = totpCode(t, m.secret);
    const wrongCode = right === '000000' ? '999999' : '000000';
    // The code that confirmed the set-up (an earlier step) is spent.
    for (const code of [wrongCode, totpCode(t, m.secret, -10), 'nope-nope', wrongCode, wrongCode]) {
      const res = await signInMfa(challenge, code);
      expect([res.statusCode, res.json().error]).toEqual([401, x.invalidCode]);
    }
    const dead = await signInMfa(challenge, right);
    expect([dead.statusCode, dead.json().error]).toEqual([401, x.challengeExpired]);
    const audits = await t.database.db.select().from(loginAudits).where(and(eq(loginAudits.userId, m.id), eq(loginAudits.result, 'bad_mfa_code')));
    expect(audits).toHaveLength(5);
    // One more wrong code on a new challenge is past the free ones: the next attempt waits, even with the right code.
    const again = (await signIn(m.email, m.password)).json().challenge as string;
    expect((await signInMfa(again, wrongCode)).statusCode).toBe(401);
    const held = await signInMfa(again, right);
    expect(held.statusCode).toBe(429);
    t.clock.advance(Number(held.headers['retry-after']) * 1000);
    expect((await signInMfa(again, right)).statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous sign-ins with one code through', async () => {
    const m = await memberWithFactor();
    nextQuietStep();
    const [c1, c2] = [(await signIn(m.email, m.password)).json().challenge as string, (await signIn(m.email, m.password)).json().challenge as string];
    const code = totpCode(t, m.secret);
    const results = await Promise.all([signInMfa(c1, code), signInMfa(c2, code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('signs in with a recovery code once', async () => {
    const m = await memberWithFactor();
    const code = m.recoveryCodes[2]!;
    const first = await signInMfa((await signIn(m.email, m.password)).json().challenge, code);
    expect(first.statusCode).toBe(200);
    expect((await signInMfa((await signIn(m.email, m.password)).json().challenge, code)).statusCode).toBe(401);
    expect(await eventsOf('auth.mfa.recovery_code_used', m.id)).toEqual([{ recoveryCodesLeft: 9 }]);
    expect((await mfaCall(tokenOf(first), 'GET', '')).json().recoveryCodesLeft).toBe(9);
  });

  it('turns off with the password and a code; sign-in then answers { user, token } again', async () => {
    const m = await memberWithFactor();
    nextQuietStep();
    const badPassword = await mfaCall(m.token, 'POST', '/disable', { password: 'wrong password', code: totpCode(t, m.secret) });
    expect([badPassword.statusCode, badPassword.json().fields]).toEqual([403, { password: x.passwordWrong }]);
    const badCode = await mfaCall(m.token, 'POST', '/disable', { password: m.password, code: '12345' });
    expect([badCode.statusCode, badCode.json().fields]).toEqual([403, { code: x.invalidCode }]);
    expect((await mfaCall(m.token, 'GET', '')).json().enabled).toBe(true);
    const off = await mfaCall(m.token, 'POST', '/disable', { password: m.password, code: totpCode(t, m.secret) });
    expect(off.json()).toEqual({ enabled: false });
    expect(await userRow(m.id)).toMatchObject({ mfaSecret: null, mfaPendingSecret: null, mfaEnabledAt: null, mfaLastStep: null });
    expect(await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, m.id))).toHaveLength(0);
    expect(await eventsOf('auth.mfa.disabled', m.id)).toEqual([{ via: 'totp' }]);
    expect(Object.keys((await signIn(m.email, m.password)).json()).sort()).toEqual(['token', 'user']);
    expect((await mfaCall(m.token, 'POST', '/disable', { password: m.password, code: '123456' })).statusCode).toBe(409);
  });

  it('turning it on ends every other session of the account (opened with the password alone) and keeps this one', async () => {
    const m = await signedInMember(t.app);
    const otherDevice = await freshSessionHeaders(t, m.id);
    const offer = await mfaCall(m.token, 'POST', '/setup', { password: m.password });
    const { secret } = offer.json() as { secret: string };
    // A wrong code changes nothing.
    expect((await mfaCall(m.token, 'POST', '/confirm', { code: totpCode(t, secret, 5) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: otherDevice })).statusCode).toBe(200);
    expect((await mfaCall(m.token, 'POST', '/confirm', { code: totpCode(t, secret) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: otherDevice })).statusCode).toBe(401);
    expect((await me(m.token)).statusCode).toBe(200);
    expect(await eventsOf('auth.mfa.enabled', m.id)).toEqual([{ via: 'security', sessionsRevoked: 1 }]);
  });

  it('audits an administrator turning it on under Security as admin.mfa.*, as at Admin Access', async () => {
    const admin = await signedInAdmin(t, { elevate: false });
    const offer = await mfaCall(admin.token, 'POST', '/setup', { password: admin.password });
    expect(offer.statusCode).toBe(200);
    const confirmed = await mfaCall(admin.token, 'POST', '/confirm', { code: totpCode(t, (offer.json() as { secret: string }).secret) });
    expect(confirmed.statusCode).toBe(200);
    expect(await eventsOf('admin.mfa.setup_started', admin.id)).toEqual([{ via: 'security' }]);
    expect(await eventsOf('admin.mfa.enabled', admin.id)).toEqual([{ via: 'security', sessionsRevoked: 0 }]);
    expect(await eventsOf('auth.mfa.setup_started', admin.id)).toEqual([]);
    expect(await eventsOf('auth.mfa.enabled', admin.id)).toEqual([]);
  });

  it('keeps an administrator’s factor on (their step-up needs it)', async () => {
    const admin = await signedInAdmin(t);
    expect((await mfaCall(admin.token, 'GET', '')).json()).toMatchObject({ enabled: true, canDisable: false });
    const res = await mfaCall(admin.token, 'POST', '/disable', { password: admin.password, code: admin.mfa.recoveryCodes[0]! });
    expect([res.statusCode, res.json().error]).toEqual([403, x.adminMustKeep]);
    expect((await userRow(admin.id)).mfaSecret).toBe(admin.mfa.secret);
  });
});

describe('reset-mfa (operator)', () => {
  it('clears the factor and the wrong-code throttle, signs the account out everywhere, audits and mails the owner; the next step-up sets a new factor up', async () => {
    const admin = await signedInAdmin(t);
    const other = await freshSessionHeaders(t, admin.id);
    const mailer = createMailer({ clock: t.clock, publicUrl: 'http://localhost:3000', brandName: 'Wellhaven' });
    expect((await employers(admin.token)).statusCode).toBe(200);
    // Someone guessing codes has put the factor's throttle into a wait.
    nextQuietStep();
    const wrongCode = totpCode(t, admin.mfa.secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 6; i += 1) expect((await adminAccess(t, admin.token, { email: admin.email, password: admin.password, code: wrongCode })).statusCode).toBe(403);
    expect((await createThrottle(store).state(throttleKeys.mfa(admin.id))).failures).toBe(6);

    const result = await resetMfa(t.database.db, mailer, admin.email.toUpperCase(), t.clock(), store);
    expect(result).toEqual({ userId: admin.id, role: 'admin', hadFactor: true, hadPendingSetup: false, recoveryCodesLeft: 10, sessionsRevoked: 2, throttleCleared: true });
    expect(await userRow(admin.id)).toMatchObject({ mfaSecret: null, mfaPendingSecret: null, mfaEnabledAt: null, mfaLastStep: null });
    expect(await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, admin.id))).toHaveLength(0);
    expect(await createThrottle(store).state(throttleKeys.mfa(admin.id))).toEqual({ failures: 0, waitMs: 0 });
    // Every session ends: the elevated one and the plain one alike.
    expect((await me(admin.token)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: other })).statusCode).toBe(401);
    const [audit] = await t.database.db.select().from(events).where(eq(events.type, 'admin.mfa.reset'));
    expect(audit!.payloadJson).toMatchObject({ userId: admin.id, via: 'cli', hadFactor: true, sessionsRevoked: 2 });
    const mail = await latestMail(t, admin.email, 'mfa_reset');
    expect(mail.path).toBe('/login');
    // Signing in needs no code any more; the step-up offers a brand-new secret, and its first code is not held back.
    const signedIn = await signIn(admin.email, admin.password);
    expect(Object.keys(signedIn.json()).sort()).toEqual(['token', 'user']);
    const offer = await adminAccess(t, tokenOf(signedIn), { email: admin.email, password: admin.password });
    expect(offer.json().status).toBe('mfa_setup');
    expect(offer.json().secret).not.toBe(admin.mfa.secret);
    const granted = await adminAccess(t, tokenOf(signedIn), { email: admin.email, password: admin.password, code: totpCode(t, offer.json().secret as string) });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(await resetMfa(t.database.db, mailer, 'nobody@example.test', t.clock())).toBeNull();
  });

  it('is the CLI command reset-mfa, which says what it did (and that the throttle is out of its reach without REDIS_URL)', async () => {
    const admin = await signedInAdmin(t);
    const mailer = createMailer({ clock: t.clock, publicUrl: 'http://localhost:3000', brandName: 'Wellhaven' });
    const ctx = { db: t.database.db, clock: t.clock, counters: undefined };
    const done = await resetMfaCommand(ctx, mailer, admin.email);
    expect(done.exitCode).toBe(0);
    expect(done.lines).toEqual([
      `Reset the second factor of ${admin.email} (admin):`,
      '- removed the authenticator app secret',
      '- deleted the recovery codes (10 unused)',
      '- signed the account out everywhere (1 session ended)',
      expect.stringMatching(/^- its wrong authentication codes are counted in the running server's memory \(no REDIS_URL\)/),
      `- queued the "two-step sign-in was reset" notice to ${admin.email}`,
      '- recorded the event admin.mfa.reset',
      expect.stringMatching(/^Their next Admin Access sets up a new authenticator app/),
    ]);
    expect((await employers(admin.token)).statusCode).toBe(401);
    const member = await memberWithFactor();
    const withStore = await resetMfaCommand({ ...ctx, counters: store }, mailer, member.email);
    expect(withStore.lines).toEqual(expect.arrayContaining(['- signed the account out everywhere (1 session ended)', '- forgot its wrong authentication codes']));
    expect(withStore.lines.at(-1)).toMatch(/^They sign in with their password alone/);
    expect(await resetMfaCommand(ctx, mailer, 'nobody@example.test')).toEqual({ exitCode: 1, lines: ['No account with email nobody@example.test.'] });
  });
});
