import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, loginAudits, participants, sessions, users } from '../../src/db/schema';
import { messages } from '../../src/shared/messages/index';
import { asUser, createTestApp, newMember, registerMember, signedInAdmin, signedInMember, totpCode, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const countUsers = async () => (await t.database.db.select({ id: users.id }).from(users)).length;

describe('POST /api/auth/register', () => {
  it('creates the account with the programme ID upper-cased and the email lower-cased', async () => {
    const data = newMember({ email: '  Mixed.Case@Example.TEST ', lhmpId: 'lq54321' });
    const res = await post('/api/auth/register', data);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'mixed.case@example.test', lhmpId: 'LQ54321', company: 'Acme Test Employer', role: 'member' });
    expect(JSON.stringify(body)).not.toMatch(/argon2|passwordHash/);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'mixed.case@example.test'));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.emailVerifiedAt).toBeNull();
  });

  it('finds the employer by normalised name instead of creating a duplicate', async () => {
    const a = await registerMember(t.app, { company: 'Normal Co Ltd' });
    const b = await registerMember(t.app, { company: '  normal   co LTD ' });
    const [ua] = await t.database.db.select().from(users).where(eq(users.id, a.id));
    const [ub] = await t.database.db.select().from(users).where(eq(users.id, b.id));
    expect(ub!.companyId).toBe(ua!.companyId);
  });

  it.each([
    ['firstName', { firstName: '' }, 'First name is required'],
    ['lastName', { lastName: '   ' }, 'Last name is required'],
    ['email', { email: 'not-an-email' }, 'Valid email is required'],
    ['company', { company: '' }, 'Company is required'],
    ['lhmpId', { lhmpId: 'LQ1234' }, 'LHMP ID must be exactly 7 characters'],
    ['lhmpId', { lhmpId: 'AB12345' }, "LHMP ID must start with 'LQ' followed by 5 digits"],
    ['password', { password: 'short' }, 'Password must be at least 8 characters'],
    ['password', { password: 'x'.repeat(129) }, 'Password must be 128 characters or less'],
    ['password', { password: 'password123' }, 'This password is too common'],
    ['firstName', { firstName: 'Ann\u202Eevil' }, 'Must not contain control or invisible characters'],
    ['company', { company: 'Acme\u0007 Corp' }, 'Must not contain control or invisible characters'],
  ])('refuses a bad %s with the spec message and stores nothing', async (field, override, message) => {
    const before = await countUsers();
    const res = await post('/api/auth/register', newMember(override));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
    expect(await countUsers()).toBe(before);
  });

  it('rejects wrong types and malformed JSON with 400 and the error shape', async () => {
    const wrongType = await post('/api/auth/register', { ...newMember(), firstName: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().fields).toHaveProperty('firstName');
    const malformed = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed request body', code: 'bad_request' });
  });

  it('answers 413 for an oversized body', async () => {
    const res = await post('/api/auth/register', { ...newMember(), firstName: 'x'.repeat(200_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large', code: 'payload_too_large' });
  });

  it('answers 409 for a duplicate email or programme ID', async () => {
    const existing = await registerMember(t.app);
    const dupEmail = await post('/api/auth/register', newMember({ email: existing.email.toUpperCase() }));
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json()).toEqual({ error: 'An account with this email already exists', code: 'conflict', fields: { email: 'An account with this email already exists' } });
    const dupId = await post('/api/auth/register', newMember({ lhmpId: existing.lhmpId.toLowerCase() }));
    expect(dupId.statusCode).toBe(409);
    expect(dupId.json().fields).toHaveProperty('lhmpId');
  });

  it('ignores unknown fields (no role escalation through the body)', async () => {
    const data = { ...newMember(), role: 'admin', id: '00000000-0000-0000-0000-000000000000' };
    const res = await post('/api/auth/register', data);
    expect(res.statusCode).toBe(201);
    expect(res.json().user.role).toBe('member');
  });
});

describe('POST /api/auth/signin', () => {
  it('signs in, enrols at the first sign-in and stamps lastLoginAt each time', async () => {
    const m = await registerMember(t.app);
    const first = await post('/api/auth/signin', { email: m.email, password: m.password });
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({ email: m.email, firstName: m.firstName, lhmpId: m.lhmpId, company: 'Acme Test Employer', role: 'member' });
    // 32 random bytes and their 16-byte signature, base64url (session-tokens.ts).
    expect(first.json().token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const [p1] = await t.database.db.select().from(participants).where(eq(participants.userId, m.id));
    expect(p1!.enrolledAt).toEqual(t.clock());
    t.clock.advance(60_000);
    await post('/api/auth/signin', { email: m.email, password: m.password });
    const [p2] = await t.database.db.select().from(participants).where(eq(participants.userId, m.id));
    expect(p2!.enrolledAt).toEqual(p1!.enrolledAt);
    expect(p2!.lastLoginAt).toEqual(t.clock());
  });

  it('stores only the token hash', async () => {
    const m = await signedInMember(t.app);
    const rows = await t.database.db.select().from(sessions);
    expect(rows.some((s) => s.tokenHash === m.token)).toBe(false);
    expect(rows.every((s) => /^[0-9a-f]{64}$/.test(s.tokenHash))).toBe(true);
  });

  it('answers an unknown email exactly as a wrong password, and audits both', async () => {
    const m = await registerMember(t.app);
    const wrong = await post('/api/auth/signin', { email: m.email, password: 'wrong password!' }, { 'user-agent': 'UA-test' });
    const unknown = await post('/api/auth/signin', { email: `nobody.${m.email}`, password: 'wrong password!' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'unauthenticated' });
    const audits = await t.database.db.select().from(loginAudits).where(eq(loginAudits.userId, m.id));
    expect(audits.map((a) => a.result)).toContain('bad_password');
    const a = audits.find((x) => x.result === 'bad_password')!;
    expect(a.ipMasked).toBe('127.0.0.0/24');
    expect(a.userAgentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.userAgentHash).not.toContain('UA-test');
    const unknownAudits = await t.database.db.select().from(loginAudits).where(eq(loginAudits.result, 'unknown_email'));
    expect(unknownAudits.length).toBeGreaterThan(0);
  });

  it('validates with the spec messages', async () => {
    const res = await post('/api/auth/signin', { email: 'nope', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ email: 'Valid email is required', password: 'Password is required' });
  });

  it('throttles an account progressively after 5 failures, the same for unknown emails, and lets the owner in once the attacker stops', async () => {
    for (const known of [true, false]) {
      const m = known ? await registerMember(t.app) : { ...newMember(), password: 'whatever1' };
      const wrong = () => post('/api/auth/signin', { email: m.email, password: 'wrong password!' });
      for (let i = 0; i < 6; i += 1) expect((await wrong()).statusCode).toBe(401);
      // Each failure past the fifth doubles the wait: 1 s, 2 s, 4 s, 8 s.
      for (const seconds of [1, 2, 4, 8]) {
        const waiting = await post('/api/auth/signin', { email: m.email, password: m.password });
        expect(waiting.statusCode).toBe(429);
        expect(waiting.headers['retry-after']).toBe(String(seconds));
        expect(waiting.json()).toEqual({ error: messages.auth.server.locked, code: 'rate_limited' });
        t.clock.advance(seconds * 1000);
        expect((await wrong()).statusCode).toBe(401);
      }
      // The attacker stops; the owner waits out the last delay and gets in (an unknown email still gets 401).
      t.clock.advance(16_000);
      expect((await post('/api/auth/signin', { email: m.email, password: m.password })).statusCode).toBe(known ? 200 : 401);
    }
    // Refused attempts are counted on one row per account (or, for an unknown email, per masked
    // IP) and window, not one row each (tests/api/login-audits.test.ts checks the counts).
    const lockedAudits = await t.database.db.select().from(loginAudits).where(eq(loginAudits.result, 'locked'));
    expect(lockedAudits.filter((a) => a.userId !== null && a.dedupKey?.startsWith(`locked:user:${a.userId}:`))).toHaveLength(1);
    expect(lockedAudits.filter((a) => a.userId === null && a.dedupKey?.startsWith('locked:ip:127.0.0.0/24:'))).toHaveLength(1);
  });

  it('answers a throttled known and unknown email alike', async () => {
    const m = await registerMember(t.app);
    const unknown = `nobody.${m.email}`;
    const answers = [];
    for (const email of [m.email, unknown]) {
      for (let i = 0; i < 6; i += 1) await post('/api/auth/signin', { email, password: 'wrong password!' });
      answers.push(await post('/api/auth/signin', { email, password: 'wrong password!' }));
    }
    expect(answers.map((a) => a.statusCode)).toEqual([429, 429]);
    expect(answers[0]!.body).toBe(answers[1]!.body);
    expect(answers[0]!.headers['retry-after']).toBe(answers[1]!.headers['retry-after']);
  });

  it('caps the wait at 15 minutes however long the guessing goes on, and a success resets it', async () => {
    const m = await registerMember(t.app);
    let retryAfter = 0;
    for (let i = 0; i < 30; i += 1) {
      const res = await post('/api/auth/signin', { email: m.email, password: 'wrong password!' });
      expect([401, 429]).toContain(res.statusCode);
      if (res.statusCode === 429) {
        retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
        t.clock.advance(retryAfter * 1000);
      }
    }
    expect(retryAfter).toBe(15 * 60);
    const waiting = await post('/api/auth/signin', { email: m.email, password: m.password });
    expect(waiting.headers['retry-after']).toBe(String(15 * 60));
    t.clock.advance(15 * 60 * 1000);
    expect((await post('/api/auth/signin', { email: m.email, password: m.password })).statusCode).toBe(200);
    // Forgotten on success: a later typo costs nothing.
    expect((await post('/api/auth/signin', { email: m.email, password: 'wrong password!' })).statusCode).toBe(401);
    expect((await post('/api/auth/signin', { email: m.email, password: m.password })).statusCode).toBe(200);
  });

  it('forgets failures after a quiet day', async () => {
    const m = await registerMember(t.app);
    for (let i = 0; i < 6; i += 1) await post('/api/auth/signin', { email: m.email, password: 'wrong password!' });
    t.clock.advance(24 * 60 * 60 * 1000);
    // Five free failures again: none of them waits.
    for (let i = 0; i < 5; i += 1) expect((await post('/api/auth/signin', { email: m.email, password: 'wrong password!' })).statusCode).toBe(401);
    expect((await post('/api/auth/signin', { email: m.email, password: m.password })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('GET /api/auth/me returns the session user and slides the idle window', async () => {
    const m = await signedInMember(t.app);
    const me = await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }));
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(m.email);
    expect(me.headers['cache-control']).toBe('no-store');
    t.clock.advance(14 * 60 * 1000);
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(200);
    t.clock.advance(14 * 60 * 1000);
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(200);
  });

  it('refuses an idle-expired token with 401', async () => {
    const m = await signedInMember(t.app);
    t.clock.advance(15 * 60 * 1000);
    const res = await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Authentication required', code: 'unauthenticated' });
  });

  it('ends every session at 12 hours however active', async () => {
    const m = await signedInMember(t.app);
    for (let i = 0; i < 12 * 6 - 1; i += 1) {
      t.clock.advance(10 * 60 * 1000);
      expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(200);
    }
    t.clock.advance(10 * 60 * 1000);
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(401);
  });

  it('sign-out revokes the token', async () => {
    const m = await signedInMember(t.app);
    const out = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }));
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(401);
    expect((await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(401);
  });

  it('accepts the token only as a bearer header, never from the query string', async () => {
    const m = await signedInMember(t.app);
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/me?token=${m.token}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Token ${m.token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer garbage-garbage-garbage-garbage' } })).statusCode).toBe(401);
  });
});

describe('per-IP rate limit', () => {
  it('limits sign-in and registration attempts per IP per minute', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '3' } });
    try {
      const attempt = () => limited.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'a@b.test', password: 'x' }, remoteAddress: '198.51.100.7' });
      for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error).toMatch(/wait/);
      const other = await limited.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'a@b.test', password: 'x' }, remoteAddress: '203.0.113.9' });
      expect(other.statusCode).toBe(401);
      limited.clock.advance(60_000);
      expect((await attempt()).statusCode).toBe(401);
      const audits = await limited.database.db.select().from(loginAudits).where(eq(loginAudits.result, 'rate_limited'));
      expect(audits).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });
});

describe('admin access step-up', () => {
  it('denies a member and records the denial', async () => {
    const m = await signedInMember(t.app);
    const res = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/admin/access', payload: { email: m.email, password: m.password } }));
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Access denied - invalid admin credentials');
    const other = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/admin/access', payload: { email: 'someone@else.test', password: 'x' } }));
    expect(other.json().error).toBe('Access denied - you must be logged in as the admin user');
    const denied = await t.database.db.select().from(events).where(eq(events.type, 'admin.access.denied'));
    expect(denied.filter((e) => e.actorUserId === m.id)).toHaveLength(2);
  });

  it('needs a session', async () => {
    const res = await post('/api/admin/access', { email: 'a@b.test', password: 'x' });
    expect(res.statusCode).toBe(401);
  });

  it('denies a member even with a code, and never offers a member a factor', async () => {
    const m = await signedInMember(t.app);
    const res = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/admin/access', payload: { email: m.email, password: m.password, code: '123456' } }));
    expect([res.statusCode, res.json().error]).toEqual([403, 'Access denied - invalid admin credentials']);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, m.id));
    expect(row).toMatchObject({ mfaPendingSecret: null, mfaSecret: null });
    expect((await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(200);
  });

  it('answers an admin with the second-factor contract: mfa_setup, then with the code a new token', async () => {
    const admin = await signedInAdmin(t, { elevate: false });
    const creds = { email: admin.email.toUpperCase(), password: admin.password };
    const offer = await t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: creds }));
    expect(offer.json()).toEqual({ status: 'mfa_setup', secret: expect.stringMatching(/^[A-Z2-7]+$/), otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\//) });
    const granted = await t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: { ...creds, code: totpCode(t, offer.json().secret) } }));
    expect(granted.json()).toEqual({ status: 'granted', token: expect.any(String), recoveryCodes: expect.any(Array) });
    expect((await t.app.inject(asUser(admin.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(401);
    const me = await t.app.inject(asUser(granted.json().token, { method: 'GET', url: '/api/auth/me' }));
    expect(me.json().session.adminElevated).toBe(true);
    expect(me.json().account.mfaEnabled).toBe(true);
  });

  it('documents both answers of sign-in and the three of Admin Access in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const answer = (path: string) => doc.paths[path].post.responses['200'].content['application/json'].schema;
    const signInVariants = answer('/api/auth/signin').anyOf as { required: string[] }[];
    expect(signInVariants.map((v) => v.required.sort())).toEqual([['token', 'user'], ['challenge', 'status']]);
    const accessVariants = answer('/api/admin/access').oneOf as { properties: { status: { enum: string[] } } }[];
    expect(accessVariants.map((v) => v.properties.status.enum[0])).toEqual(['mfa_setup', 'mfa_required', 'granted']);
    expect(answer('/api/auth/signin/mfa').required.sort()).toEqual(['token', 'user']);
    expect(doc.paths['/api/admin/access'].post.requestBody.content['application/json'].schema.properties.code).toBeDefined();
  });
});

describe('logs', () => {
  it('never contain a password, token or password hash', async () => {
    const m = await signedInMember(t.app);
    await t.app.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }));
    const all = t.logs.join('\n');
    expect(t.logs.length).toBeGreaterThan(0);
    expect(all).not.toContain(m.password);
    expect(all).not.toContain(m.token);
    expect(all).not.toContain('$argon2id$');
  });
});
