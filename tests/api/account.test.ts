/**
 * The account lifecycle over HTTP: email verification (registration link, resend, expiry,
 * single use), forgot and reset password (enumeration-safe answer, limits, expiry, single use,
 * every session revoked), change password (other sessions revoked, this one kept), and the
 * signed-in devices list (device summaries, revoking one or all others, never another
 * member's). Links are read from the outbox as the email would carry them.
 */
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, oneTimeTokens, outbox, sessions, users } from '../../src/db/schema';
import { newToken, sha256Hex } from '../../src/server/lib/crypto';
import { latestMail, mailsTo } from './support/outbox';
import { asUser, createTestApp, newMember, registerMember, signedInMember, type TestApp } from './support/test-app';

const HOUR = 60 * 60 * 1000;
const UA = {
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
};
/** Passes the password policy for the test members (no names, employer or brand in it). */
const NEW_PASSWORD = 'Lantern orbit quietly 42';
const OTHER_PASSWORD = 'Granite kettle umbrella 9';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function signIn(email: string, password: string, userAgent = UA.android) {
  const res = await post('/api/auth/signin', { email, password }, { 'user-agent': userAgent });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { token: string }).token;
}

const signInStatus = async (email: string, password: string) => (await post('/api/auth/signin', { email, password })).statusCode;
const meStatus = async (token: string) => (await t.app.inject(asUser(token, { url: '/api/auth/me' }))).statusCode;
const me = async (token: string) => (await t.app.inject(asUser(token, { url: '/api/auth/me' }))).json() as { account: { emailVerified: boolean; mfaEnabled: boolean } };
const userRow = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
const eventsOf = async (type: string, userId: string) =>
  t.database.db.select().from(events).where(and(eq(events.type, type), eq(events.actorUserId, userId)));
const forgot = (email: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress });

describe('verified email', () => {
  it('registration queues a single-use 24 h link whose token is stored only as its SHA-256', async () => {
    const member = await registerMember(t.app);
    const mail = await latestMail(t, member.email, 'verify_email');
    expect(mail.path).toMatch(/^\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    const rows = await t.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'verify_email', tokenHash: sha256Hex(mail.token!), usedAt: null });
    expect(rows[0]!.expiresAt.getTime() - t.clock().getTime()).toBe(24 * HOUR);
    expect(JSON.stringify(rows)).not.toContain(mail.token);
  });

  it('verifies the address once, says so, and answers a second use with "already used"', async () => {
    const member = await signedInMember(t.app);
    expect((await me(member.token)).account).toEqual({ emailVerified: false, mfaEnabled: false });
    const { token } = await latestMail(t, member.email, 'verify_email');
    const res = await post('/api/auth/verify-email', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ emailVerified: true });
    expect((await userRow(member.id)).emailVerifiedAt).toEqual(t.clock());
    expect((await me(member.token)).account.emailVerified).toBe(true);
    expect(await eventsOf('user.email_verified', member.id)).toHaveLength(1);

    const again = await post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: expect.stringContaining('already been used'), code: 'validation' });
  });

  it('refuses a link after 24 hours as expired, and accepts it a second before', async () => {
    const early = await registerMember(t.app);
    const late = await registerMember(t.app);
    const earlyToken = (await latestMail(t, early.email, 'verify_email')).token;
    const lateToken = (await latestMail(t, late.email, 'verify_email')).token;
    t.clock.advance(24 * HOUR - 1000);
    expect((await post('/api/auth/verify-email', { token: earlyToken })).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await post('/api/auth/verify-email', { token: lateToken });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/expired/);
    expect((await userRow(late.id)).emailVerifiedAt).toBeNull();
  });

  it('refuses an unknown token, and a token of another purpose, with a message that says the link is not valid', async () => {
    for (const token of [newToken(), 'abc']) {
      const res = await post('/api/auth/verify-email', { token });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/not valid/);
    }
    const member = await registerMember(t.app);
    expect((await forgot(member.email)).statusCode).toBe(200);
    const reset = await latestMail(t, member.email, 'reset_password');
    expect((await post('/api/auth/verify-email', { token: reset.token })).json().error).toMatch(/not valid/);
    expect((await post('/api/auth/verify-email', {})).statusCode).toBe(400);
  });

  it('resends a fresh link that replaces the older one, up to 3 times an hour', async () => {
    const member = await signedInMember(t.app);
    const first = await latestMail(t, member.email, 'verify_email');
    for (let i = 0; i < 3; i += 1) {
      const res = await post('/api/auth/verify-email/resend', undefined, member.auth);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'sent' });
    }
    const limited = await post('/api/auth/verify-email/resend', undefined, member.auth);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/wait/);
    expect((await mailsTo(t, member.email)).filter((m) => m.template === 'verify_email')).toHaveLength(4);

    const latest = await latestMail(t, member.email, 'verify_email');
    expect((await post('/api/auth/verify-email', { token: first.token })).json().error).toMatch(/expired/);
    expect((await post('/api/auth/verify-email', { token: latest.token })).statusCode).toBe(200);
    // Verified: nothing more is sent, and the answer says why.
    const after = await post('/api/auth/verify-email/resend', undefined, member.auth);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ status: 'already_verified' });
    expect((await mailsTo(t, member.email)).filter((m) => m.template === 'verify_email')).toHaveLength(4);
  });

  it('lets a member resend again once the hour has passed', async () => {
    const member = await signedInMember(t.app);
    for (let i = 0; i < 3; i += 1) expect((await post('/api/auth/verify-email/resend', undefined, member.auth)).statusCode).toBe(200);
    expect((await post('/api/auth/verify-email/resend', undefined, member.auth)).statusCode).toBe(429);
    t.clock.advance(HOUR);
    const token = await signIn(member.email, member.password);
    expect((await post('/api/auth/verify-email/resend', undefined, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
  });

  it('reports two-step sign-in in /me from users.mfa_enabled_at', async () => {
    const member = await signedInMember(t.app);
    await t.database.db.update(users).set({ mfaEnabledAt: t.clock() }).where(eq(users.id, member.id));
    expect((await me(member.token)).account).toEqual({ emailVerified: false, mfaEnabled: true });
  });
});

describe('forgot password', () => {
  it('answers the same for an address with and without an account, and mails only the real one', async () => {
    const member = await registerMember(t.app);
    const nobody = newMember().email;
    const known = await forgot(member.email);
    const unknown = await forgot(nobody);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ message: expect.stringContaining("If an account exists for that email, we've sent a link") });
    expect(await mailsTo(t, nobody)).toHaveLength(0);
    const mail = await latestMail(t, member.email, 'reset_password');
    expect(mail.path).toMatch(/^\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const [row] = await t.database.db.select().from(oneTimeTokens).where(and(eq(oneTimeTokens.userId, member.id), eq(oneTimeTokens.purpose, 'reset_password')));
    expect(row!.tokenHash).toBe(sha256Hex(mail.token!));
    expect(row!.expiresAt.getTime() - t.clock().getTime()).toBe(HOUR);
  });

  it('does the same work either way: one audit row each, and about the same time', async () => {
    const member = await registerMember(t.app);
    const audits = async () =>
      (await t.database.db.execute(sql`select count(*)::int as n from events where type = 'password.reset_requested'`)) as unknown as { rows: { n: number }[] };
    const before = (await audits()).rows[0]!.n;
    const times = { known: [] as number[], unknown: [] as number[] };
    // Alternating, each address under its own per-email limit (3 an hour): new addresses each round.
    for (let round = 0; round < 6; round += 1) {
      const realOne = round % 3 === 0 ? member : await registerMember(t.app);
      for (const [kind, email] of [['known', realOne.email], ['unknown', newMember().email]] as const) {
        const start = performance.now();
        expect((await forgot(email)).statusCode).toBe(200);
        times[kind].push(performance.now() - start);
      }
      if (round % 3 === 2) t.clock.advance(HOUR);
    }
    expect((await audits()).rows[0]!.n - before).toBe(12);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [k, u] = [median(times.known), median(times.unknown)];
    // No password hashing or other heavy work on one side only: well under a hash's 30+ ms.
    expect(Math.abs(k - u), `known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`).toBeLessThan(Math.max(15, 0.5 * Math.max(k, u)));
  });

  it('past 3 requests an hour for one address from one IP answers the same 200 and sends nothing; another IP still gets a link', async () => {
    const member = await registerMember(t.app);
    const nobody = newMember().email;
    const resetMails = async () => (await mailsTo(t, member.email)).filter((m) => m.template === 'reset_password');
    for (const email of [member.email, nobody]) {
      const answers = [];
      for (let i = 0; i < 5; i += 1) answers.push(await forgot(email, '10.1.0.1'));
      for (const res of answers) {
        // No 429: refusing would confirm nothing, but would let anyone keep a member from ever getting a link.
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(answers[0]!.body);
        expect(res.headers['retry-after']).toBeUndefined();
      }
    }
    expect(await resetMails()).toHaveLength(3);
    const limited = (await t.database.db.select().from(events).where(eq(events.type, 'password.reset_requested'))).filter(
      (e) => (e.payloadJson as { limited?: string }).limited === 'address_and_ip',
    );
    expect(limited.length).toBeGreaterThanOrEqual(4);
    // Requests from one place do not use up the allowance of the owner, who asks from elsewhere.
    expect((await forgot(member.email, '10.1.0.2')).statusCode).toBe(200);
    expect(await resetMails()).toHaveLength(4);
    t.clock.advance(HOUR);
    expect((await forgot(member.email, '10.1.0.1')).statusCode).toBe(200);
    expect(await resetMails()).toHaveLength(5);
  });

  it('sends at most 10 links an hour to one address from all IPs together, silently past that', async () => {
    const member = await registerMember(t.app);
    for (let i = 0; i < 12; i += 1) expect((await forgot(member.email, `10.2.0.${i + 1}`)).statusCode).toBe(200);
    expect((await mailsTo(t, member.email)).filter((m) => m.template === 'reset_password')).toHaveLength(10);
  });

  it('limits requests per IP', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '4' } });
    try {
      const send = (email: string, remoteAddress: string) => limited.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress });
      for (let i = 0; i < 4; i += 1) expect((await send(newMember().email, '10.9.9.9')).statusCode).toBe(200);
      const refused = await send(newMember().email, '10.9.9.9');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send(newMember().email, '10.9.8.1')).statusCode).toBe(200);
      limited.clock.advance(60_000);
      expect((await send(newMember().email, '10.9.9.9')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('reset password', () => {
  it('sets the new password once, ends every session, verifies the address and sends a notice', async () => {
    const member = await registerMember(t.app);
    const sessionsBefore = [await signIn(member.email, member.password), await signIn(member.email, member.password, UA.iphone)];
    expect((await forgot(member.email)).statusCode).toBe(200);
    const { token } = await latestMail(t, member.email, 'reset_password');
    // A sign-in half-way through two-step, begun with the old password.
    const challengeHash = sha256Hex(newToken());
    await t.database.db.insert(oneTimeTokens).values({ userId: member.id, purpose: 'mfa_challenge', tokenHash: challengeHash, expiresAt: new Date(t.clock().getTime() + 5 * 60_000) });
    t.clock.advance(60_000);
    const res = await post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    for (const s of sessionsBefore) expect(await meStatus(s)).toBe(401);
    expect(await signInStatus(member.email, member.password)).toBe(401);
    expect(await signInStatus(member.email, NEW_PASSWORD)).toBe(200);
    const row = await userRow(member.id);
    expect(row.passwordChangedAt).toEqual(t.clock());
    expect(row.emailVerifiedAt).toEqual(t.clock());
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    const notice = await latestMail(t, member.email);
    expect(notice.template).toBe('password_changed');
    expect(notice.token).toBeUndefined();
    const [challenge] = await t.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, challengeHash));
    expect(challenge!.expiresAt.getTime()).toBeLessThanOrEqual(t.clock().getTime());
    const [event] = await eventsOf('password.reset', member.id);
    expect(event!.payloadJson).toMatchObject({ via: 'reset_password', sessionsRevoked: 2 });

    const again = await post('/api/auth/reset-password', { token, password: OTHER_PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatch(/already been used/);
    expect(await signInStatus(member.email, OTHER_PASSWORD)).toBe(401);
  });

  it('refuses a link after an hour as expired, and a link replaced by a newer one', async () => {
    const member = await registerMember(t.app);
    await forgot(member.email);
    const older = (await latestMail(t, member.email, 'reset_password')).token;
    await forgot(member.email);
    const newer = (await latestMail(t, member.email, 'reset_password')).token;
    expect(newer).not.toBe(older);
    expect((await post('/api/auth/reset-password', { token: older, password: NEW_PASSWORD })).json().error).toMatch(/expired/);
    t.clock.advance(HOUR);
    const res = await post('/api/auth/reset-password', { token: newer, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/expired/);
    expect(await signInStatus(member.email, member.password)).toBe(200);
  });

  it('applies the password policy on the field and leaves the link usable', async () => {
    const member = await registerMember(t.app, { firstName: 'Philippa' });
    await forgot(member.email);
    const { token } = await latestMail(t, member.email, 'reset_password');
    for (const [password, message] of [
      ['short', 'Password must be at least 8 characters'],
      ['password123', undefined],
      ['Philippa-rocks-2026', undefined],
    ] as const) {
      const res = await post('/api/auth/reset-password', { token, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().fields.password, password).toEqual(message ?? expect.any(String));
    }
    expect((await post('/api/auth/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('accepts a set-password link (the bootstrap administrator) with the expiry its row says, and not a verification link', async () => {
    const member = await registerMember(t.app);
    const verifyToken = (await latestMail(t, member.email, 'verify_email')).token;
    expect((await post('/api/auth/reset-password', { token: verifyToken, password: NEW_PASSWORD })).json().error).toMatch(/not valid/);
    const token = newToken();
    await t.database.db.insert(oneTimeTokens).values({ userId: member.id, purpose: 'set_password', tokenHash: sha256Hex(token), expiresAt: new Date(t.clock().getTime() + 72 * HOUR) });
    t.clock.advance(48 * HOUR);
    const res = await post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(await signInStatus(member.email, NEW_PASSWORD)).toBe(200);
    expect((await userRow(member.id)).emailVerifiedAt).not.toBeNull();
    expect((await eventsOf('password.reset', member.id))[0]!.payloadJson).toMatchObject({ via: 'set_password' });
  });

  it('lets only one of two simultaneous uses of a link win', async () => {
    const member = await registerMember(t.app);
    await forgot(member.email);
    const { token } = await latestMail(t, member.email, 'reset_password');
    const results = await Promise.all([
      post('/api/auth/reset-password', { token, password: NEW_PASSWORD }),
      post('/api/auth/reset-password', { token, password: OTHER_PASSWORD }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = results[0]!.statusCode === 200 ? NEW_PASSWORD : OTHER_PASSWORD;
    expect(await signInStatus(member.email, winner)).toBe(200);
  });
});

describe('change password', () => {
  it('needs the current password (a 400 on its field, the session kept)', async () => {
    const member = await signedInMember(t.app);
    const res = await post('/api/me/password', { currentPassword: 'not my password', newPassword: NEW_PASSWORD }, member.auth);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Your current password is not correct', code: 'validation', fields: { currentPassword: 'Your current password is not correct' } });
    expect(await meStatus(member.token)).toBe(200);
    expect(await eventsOf('password.change.denied', member.id)).toHaveLength(1);
    expect(await signInStatus(member.email, member.password)).toBe(200);
  });

  it('applies the policy to the new password and refuses the current one again', async () => {
    const member = await signedInMember(t.app);
    const weak = await post('/api/me/password', { currentPassword: member.password, newPassword: 'password123' }, member.auth);
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().fields)).toEqual(['newPassword']);
    const same = await post('/api/me/password', { currentPassword: member.password, newPassword: member.password }, member.auth);
    expect(same.statusCode).toBe(400);
    expect(same.json().fields).toEqual({ newPassword: 'Choose a password different from your current one' });
  });

  it('changes it, signs out the other devices, keeps this one, and ends a pending reset link', async () => {
    const member = await signedInMember(t.app);
    const other = await signIn(member.email, member.password, UA.windows);
    await forgot(member.email);
    const pendingReset = (await latestMail(t, member.email, 'reset_password')).token;
    const res = await post('/api/me/password', { currentPassword: member.password, newPassword: NEW_PASSWORD }, member.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ otherSessionsRevoked: 1 });
    expect(await meStatus(member.token)).toBe(200);
    expect(await meStatus(other)).toBe(401);
    expect(await signInStatus(member.email, member.password)).toBe(401);
    expect(await signInStatus(member.email, NEW_PASSWORD)).toBe(200);
    expect((await latestMail(t, member.email)).template).toBe('password_changed');
    expect((await userRow(member.id)).passwordChangedAt).toEqual(t.clock());
    expect(await eventsOf('password.changed', member.id)).toHaveLength(1);
    expect((await post('/api/auth/reset-password', { token: pendingReset, password: OTHER_PASSWORD })).statusCode).toBe(400);
  });

  it('is rate limited: 5 tries per 15 minutes', async () => {
    const member = await signedInMember(t.app);
    for (let i = 0; i < 5; i += 1) expect((await post('/api/me/password', { currentPassword: `wrong ${i}`, newPassword: NEW_PASSWORD }, member.auth)).statusCode).toBe(400);
    const limited = await post('/api/me/password', { currentPassword: member.password, newPassword: NEW_PASSWORD }, member.auth);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await signInStatus(member.email, NEW_PASSWORD)).toBe(401);
  });
});

describe('signed-in devices', () => {
  type Listed = { id: string; device: string | null; createdAt: string; lastSeenAt: string; current: boolean };
  const list = async (token: string) => {
    const res = await t.app.inject(asUser(token, { url: '/api/me/sessions' }));
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { sessions: Listed[] }).sessions;
  };

  it('lists every live session with a device summary from the user agent, this one first and marked', async () => {
    const member = await registerMember(t.app);
    const android = await signIn(member.email, member.password, UA.android);
    t.clock.advance(1000);
    await signIn(member.email, member.password, UA.iphone);
    await signIn(member.email, member.password, UA.windows);
    await signIn(member.email, member.password, 'curl/8.1');
    const listed = await list(android);
    expect(listed).toHaveLength(4);
    expect(listed[0]).toMatchObject({ device: 'Chrome on Android', current: true });
    expect(listed.slice(1).map((s) => s.device).sort()).toEqual(['Firefox on Windows', 'Safari on iOS', null].sort());
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    // The raw user agent is stored nowhere in the session rows.
    const raw = (await t.database.db.execute(sql`select s::text as row from sessions s where s.user_id = ${member.id}`)) as unknown as { rows: { row: string }[] };
    for (const { row } of raw.rows) expect(row).not.toMatch(/Mozilla|AppleWebKit|curl/);
  });

  it('leaves out revoked and idle sessions', async () => {
    const member = await registerMember(t.app);
    const current = await signIn(member.email, member.password);
    const ended = await signIn(member.email, member.password);
    expect((await post('/api/auth/signout', undefined, { authorization: `Bearer ${ended}` })).statusCode).toBe(200);
    const idle = await signIn(member.email, member.password);
    expect(await meStatus(idle)).toBe(200);
    for (let i = 0; i < 16; i += 1) {
      t.clock.advance(60_000);
      expect(await meStatus(current)).toBe(200);
    }
    const listed = await list(current);
    expect(listed.map((s) => s.current)).toEqual([true]);
  });

  it('signs out one other device by id; the id then answers 404', async () => {
    const member = await registerMember(t.app);
    const mine = await signIn(member.email, member.password);
    const other = await signIn(member.email, member.password, UA.iphone);
    const target = (await list(mine)).find((s) => !s.current)!;
    const res = await t.app.inject(asUser(mine, { method: 'DELETE', url: `/api/me/sessions/${target.id}` }));
    expect(res.statusCode, res.body).toBe(204);
    expect(await meStatus(other)).toBe(401);
    expect(await meStatus(mine)).toBe(200);
    expect((await list(mine)).map((s) => s.id)).not.toContain(target.id);
    const again = await t.app.inject(asUser(mine, { method: 'DELETE', url: `/api/me/sessions/${target.id}` }));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Session not found', code: 'not_found' });
    expect(await eventsOf('session.revoked', member.id)).toHaveLength(1);
  });

  it('signs out all other devices and keeps this one', async () => {
    const member = await registerMember(t.app);
    const mine = await signIn(member.email, member.password);
    const others = [await signIn(member.email, member.password, UA.iphone), await signIn(member.email, member.password, UA.windows)];
    const res = await post('/api/me/sessions/revoke-others', undefined, { authorization: `Bearer ${mine}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    for (const s of others) expect(await meStatus(s)).toBe(401);
    expect(await meStatus(mine)).toBe(200);
    expect((await list(mine)).map((s) => s.current)).toEqual([true]);
    expect((await post('/api/me/sessions/revoke-others', undefined, { authorization: `Bearer ${mine}` })).json()).toEqual({ revoked: 0 });
  });

  it("never shows or revokes another member's sessions: their id is a 404 exactly like an unknown one", async () => {
    const a = await signedInMember(t.app);
    const b = await signedInMember(t.app);
    const bSessions = await list(b.token);
    const bRowsBefore = await t.database.db.select().from(sessions).where(eq(sessions.userId, b.id));
    const aList = await list(a.token);
    for (const s of bSessions) expect(aList.map((x) => x.id)).not.toContain(s.id);
    const unknown = await t.app.inject(asUser(a.token, { method: 'DELETE', url: `/api/me/sessions/${crypto.randomUUID()}` }));
    for (const s of bSessions) {
      const res = await t.app.inject(asUser(a.token, { method: 'DELETE', url: `/api/me/sessions/${s.id}` }));
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    expect((await post('/api/me/sessions/revoke-others', { sessionId: bSessions[0]!.id, userId: b.id }, a.auth)).statusCode).toBe(200);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, b.id))).toEqual(bRowsBefore);
    expect(await meStatus(b.token)).toBe(200);
    expect(await meStatus(a.token)).toBe(200);
  });
});

describe('mail and tokens', () => {
  it('keeps every link out of the audit trail', async () => {
    const member = await registerMember(t.app);
    await forgot(member.email);
    const tokens = (await mailsTo(t, member.email)).map((m) => m.token).filter(Boolean) as string[];
    expect(tokens).toHaveLength(2);
    const all = (await t.database.db.execute(sql`select coalesce(string_agg(payload_json::text, ' '), '') as text from events`)) as unknown as { rows: { text: string }[] };
    for (const token of tokens) {
      expect(all.rows[0]!.text).not.toContain(token);
      expect(all.rows[0]!.text).not.toContain(sha256Hex(token));
    }
    expect(await t.database.db.select().from(outbox).where(eq(outbox.toAddress, member.email))).toHaveLength(2);
  });
});
