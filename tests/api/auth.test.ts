import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, loginAudits, participants, sessions, users } from '../../src/db/schema';
import { asUser, createTestApp, newMember, registerMember, signedInMember, type TestApp } from './support/test-app';

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
    expect(malformed.json()).toEqual({ error: 'Malformed request body' });
  });

  it('answers 413 for an oversized body', async () => {
    const res = await post('/api/auth/register', { ...newMember(), firstName: 'x'.repeat(200_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large' });
  });

  it('answers 409 for a duplicate email or programme ID', async () => {
    const existing = await registerMember(t.app);
    const dupEmail = await post('/api/auth/register', newMember({ email: existing.email.toUpperCase() }));
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json()).toEqual({ error: 'An account with this email already exists', fields: { email: 'An account with this email already exists' } });
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
    expect(first.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/);
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
    expect(wrong.json()).toEqual({ error: 'Invalid email or password' });
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

  it('locks an account after 5 failures for 15 minutes, the same for unknown emails', async () => {
    for (const known of [true, false]) {
      const m = known ? await registerMember(t.app) : { ...newMember(), password: 'whatever1' };
      for (let i = 0; i < 5; i += 1) {
        expect((await post('/api/auth/signin', { email: m.email, password: 'wrong password!' })).statusCode).toBe(401);
      }
      const locked = await post('/api/auth/signin', { email: m.email, password: m.password });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error).toMatch(/wait 15 minutes/);
      expect(locked.headers['retry-after']).toBeDefined();
      t.clock.advance(15 * 60 * 1000);
      expect((await post('/api/auth/signin', { email: m.email, password: m.password })).statusCode).toBe(known ? 200 : 401);
    }
    const lockedAudits = await t.database.db.select().from(loginAudits).where(eq(loginAudits.result, 'locked'));
    expect(lockedAudits.length).toBeGreaterThanOrEqual(2);
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
    expect(res.json()).toEqual({ error: 'Authentication required' });
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
