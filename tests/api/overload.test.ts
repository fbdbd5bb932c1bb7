/**
 * Overload and abuse (issue 14): the bounded password-hash pool (src/server/lib/hash-pool.ts)
 * on every request path that hashes or checks a password, and the per-IP limits keyed by an
 * IPv6 /56. The hasher is a fake whose calls wait for the test to let them finish, so which
 * request runs, waits or is refused is decided by the pool, never by timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../src/shared/messages/index';
import type { PasswordHasher } from '../../src/server/lib/hash-pool';
import { setAdminRole } from '../../src/server/modules/auth/admin-bootstrap';
import { latestMail } from './support/outbox';
import { type TestApp, asUser, createTestApp, newMember, registerMember, signedInMember } from './support/test-app';

/** A fake hasher (`fake$<password>`) whose calls, while the gate is closed, wait until it opens. */
function gatedHasher() {
  let closed = false;
  let started = 0;
  const held: Array<() => void> = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const enter = async () => {
    started += 1;
    for (const w of waiters.filter((x) => started >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    if (closed) await new Promise<void>((resolve) => held.push(resolve));
  };
  const hasher: PasswordHasher = {
    hash: async (password) => {
      await enter();
      return `fake$${password}`;
    },
    verify: async (passwordHash, password) => {
      await enter();
      return passwordHash === `fake$${password}`;
    },
  };
  return {
    hasher,
    /** Hashes started since the gate last closed. */
    get started() {
      return started;
    },
    close() {
      closed = true;
      started = 0;
    },
    open() {
      closed = false;
      for (const release of held.splice(0)) release();
    },
    /** Resolves once `n` hashes have started since the gate closed. */
    whenStarted(n: number) {
      return started >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
  };
}

type Gate = ReturnType<typeof gatedHasher>;

/** The test app with the fake hasher and the pool's size set; closing opens the gate first. */
async function startApp(env: Record<string, string>, gate: Gate): Promise<TestApp> {
  const t = await createTestApp({ env, passwordHasher: gate.hasher });
  return {
    ...t,
    close: async () => {
      gate.open();
      await t.close();
    },
  };
}

const signIn = (app: FastifyInstance, credentials: { email: string; password: string }, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: credentials.email, password: credentials.password }, remoteAddress });

/** The first of `answers` to arrive, with its index. */
const firstOf = <T>(answers: Promise<T>[]) => Promise.race(answers.map((p, i) => p.then((answer) => ({ answer, i }))));

const busy = { error: messages.auth.server.busy, code: 'unavailable' };

describe('the password-hash pool (1 running, 1 waiting)', () => {
  const gate = gatedHasher();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' }, gate);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the third concurrent sign-in at once with 503 and Retry-After, and the waiting one still succeeds', async () => {
    const members = [await registerMember(t.app), await registerMember(t.app), await registerMember(t.app)];
    gate.close();
    const answers = members.map((m) => signIn(t.app, m));
    // While the one running hash is held, the only answer that can come is the refusal.
    const first = await firstOf(answers);
    expect(first.answer.statusCode).toBe(503);
    expect(first.answer.headers['retry-after']).toBe('1');
    expect(first.answer.json()).toEqual(busy);
    expect(gate.started).toBe(1);
    gate.open();
    const all = await Promise.all(answers);
    expect(all.map((a) => a.statusCode).sort()).toEqual([200, 200, 503]);
    // The refused member was not counted as a failure: they sign in at once, five free failures intact.
    const refused = members[first.i]!;
    for (let i = 0; i < 5; i += 1) expect((await signIn(t.app, { ...refused, password: 'wrong password!' })).statusCode).toBe(401);
    expect((await signIn(t.app, refused)).statusCode).toBe(200);
  });

  it('lets a member signing in from elsewhere in while one address floods: the flood gives up its newest waiting place', async () => {
    const member = await registerMember(t.app);
    const flood = [await registerMember(t.app), await registerMember(t.app), await registerMember(t.app)];
    gate.close();
    const floodAnswers = flood.map((m) => signIn(t.app, m, '198.51.100.66'));
    // The pool is full once the flood's third request is refused.
    const refusedFlood = await firstOf(floodAnswers);
    expect(refusedFlood.answer.statusCode).toBe(503);
    const mine = signIn(t.app, member, '203.0.113.10');
    // The member takes the flood's waiting place: that flood request is refused now, not the member.
    const displaced = await firstOf(floodAnswers.filter((_, i) => i !== refusedFlood.i));
    expect(displaced.answer.statusCode).toBe(503);
    expect(displaced.answer.headers['retry-after']).toBe('1');
    gate.open();
    expect((await mine).statusCode).toBe(200);
    expect((await Promise.all(floodAnswers)).map((a) => a.statusCode).sort()).toEqual([200, 503, 503]);
  });
});

describe('every request path that hashes or checks a password takes a place (1 running, none waiting)', () => {
  const gate = gatedHasher();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '0' }, gate);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with Retry-After at once on registration, reset, change, Admin Access and two-step set-up while the pool is full', async () => {
    const member = await signedInMember(t.app);
    const admin = await signedInMember(t.app);
    await setAdminRole(t.database.db, admin.email, true);
    const reset = await registerMember(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: reset.email } })).statusCode).toBe(200);
    const { token: resetToken } = await latestMail(t, reset.email, 'reset_password');
    const holder = await registerMember(t.app);

    gate.close();
    const held = signIn(t.app, holder);
    await gate.whenStarted(1);
    const newPassword = 'Lantern orbit quietly 42';
    const attempts = {
      register: t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember() }),
      signIn: signIn(t.app, member, '203.0.113.20'),
      resetPassword: t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: resetToken, password: newPassword } }),
      changePassword: t.app.inject(asUser(member.token, { method: 'POST', url: '/api/me/password', payload: { currentPassword: member.password, newPassword } })),
      adminAccess: t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: { email: admin.email, password: admin.password } })),
      mfaSetup: t.app.inject(asUser(member.token, { method: 'POST', url: '/api/me/mfa/setup', payload: { password: member.password } })),
    };
    // All answered while the one hash is still held: none waited for it.
    const answers = await Promise.all(Object.entries(attempts).map(async ([name, p]) => [name, await p] as const));
    expect(gate.started).toBe(1);
    for (const [name, res] of answers) {
      expect([name, res.statusCode, res.headers['retry-after'], res.json()]).toEqual([name, 503, '1', busy]);
    }
    gate.open();
    expect((await held).statusCode).toBe(200);

    // Nothing was done or counted: each works now, the reset link included.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: resetToken, password: newPassword } })).statusCode).toBe(200);
    expect((await t.app.inject(asUser(member.token, { method: 'POST', url: '/api/me/password', payload: { currentPassword: member.password, newPassword } }))).statusCode).toBe(200);
    expect((await t.app.inject(asUser(admin.token, { method: 'POST', url: '/api/admin/access', payload: { email: admin.email, password: admin.password } }))).json().status).toBe('mfa_setup');
  });
});

describe('per-IP limits key IPv6 clients by /56', () => {
  const gate = gatedHasher();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ AUTH_RATE_LIMIT_PER_IP: '3' }, gate);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A new unknown email each time: the per-account throttle (5 free failures) stays out of the way. */
  const anyone = () => ({ email: newMember().email, password: 'wrong password!' });

  it('makes 24 addresses in different /64s of one /56 share one limit', async () => {
    const codes = [];
    for (let i = 0; i < 24; i += 1) codes.push((await signIn(t.app, anyone(), `2001:db8:1:5a${i.toString(16).padStart(2, '0')}:${i + 1}::${i + 2}`)).statusCode);
    expect(codes.slice(0, 3)).toEqual([401, 401, 401]);
    expect(new Set(codes.slice(3))).toEqual(new Set([429]));
  });

  it('keeps addresses in different /56s apart, and an IPv4 client over IPv4-mapped IPv6 as one client', async () => {
    const codes = [];
    for (let i = 0; i < 24; i += 1) codes.push((await signIn(t.app, anyone(), `2001:db8:2:${(i * 0x100).toString(16)}::1`)).statusCode);
    expect(new Set(codes)).toEqual(new Set([401]));
    const v4 = ['192.0.2.44', '::ffff:192.0.2.44', '192.0.2.44'];
    for (const address of v4) expect((await signIn(t.app, anyone(), address)).statusCode).toBe(401);
    expect((await signIn(t.app, anyone(), '::ffff:192.0.2.44')).statusCode).toBe(429);
  });

  it('applies the /56 to registration and the public link routes too', async () => {
    const codes = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: newMember().email }, remoteAddress: `2001:db8:3:7${i}00:${i}::1` });
      codes.push(res.statusCode);
    }
    // 2001:db8:3:7000::/56 .. 2001:db8:3:7400::/56 are five different /56s: all answered.
    expect(codes).toEqual([200, 200, 200, 200, 200]);
    const same = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: newMember().email }, remoteAddress: `2001:db8:3:88${i}0::${i + 1}` });
      same.push(res.statusCode);
    }
    expect(same).toEqual([200, 200, 200, 429, 429]);
  });
});
