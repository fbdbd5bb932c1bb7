import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, users } from '../../src/db/schema';
import { MemoryCounterStore, RedisCounterStore } from '../../src/server/lib/counter-store';
import { EXIT, type OperatorContext, grantAdmin, revokeAdmin, unlockAccount } from '../../src/server/modules/auth/operator';
import { type TestApp, asUser, createTestApp, registerMember, testClock } from './support/test-app';

/** The operator CLI's commands (npm run admin -- grant|revoke|unlock EMAIL), called as functions. */
const clock = testClock();
const store = new MemoryCounterStore(clock);
let t: TestApp;
let ctx: OperatorContext;
beforeAll(async () => {
  t = await createTestApp({ clock, counters: store });
  ctx = { db: t.database.db, clock, counters: store };
});
afterAll(async () => {
  await t?.close();
});

const verify = (id: string, at = new Date('2026-02-20T09:15:00Z')) => t.database.db.update(users).set({ emailVerifiedAt: at }).where(eq(users.id, id));
const roleOf = async (id: string) => (await t.database.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]!.role;
const auditsOf = async (type: string, userId: string) =>
  (await t.database.db.select().from(events).where(eq(events.type, type))).filter((e) => (e.payloadJson as { userId?: string }).userId === userId);
const signIn = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });

describe('grant', () => {
  it('refuses an unverified account with exit code 65, after showing its employer and dates, and changes nothing', async () => {
    const m = await registerMember(t.app, { company: 'Quillfeather Foods' });
    const result = await grantAdmin(ctx, m.email);
    expect(result.exitCode).toBe(EXIT.refused);
    const text = result.lines.join('\n');
    expect(text).toContain('Employer:       Quillfeather Foods');
    expect(text).toContain(`Created:        2026-03-02 12:00:00 UTC`);
    expect(text).toContain('Email verified: not verified');
    expect(text).toMatch(/Refused: .* has not verified its email address/);
    expect(await roleOf(m.id)).toBe('member');
    expect(await auditsOf('admin.role.granted', m.id)).toHaveLength(0);
  });

  it('grants a verified account, printing its employer, creation and verification dates first, audited', async () => {
    const m = await registerMember(t.app, { company: 'Quillfeather Foods' });
    await verify(m.id);
    const result = await grantAdmin(ctx, m.email.toUpperCase());
    expect(result.exitCode).toBe(EXIT.ok);
    expect(result.lines).toEqual([
      `Account:        ${m.firstName} ${m.lastName} <${m.email}>`,
      'Employer:       Quillfeather Foods',
      'Created:        2026-03-02 12:00:00 UTC',
      'Email verified: 2026-02-20 09:15:00 UTC',
      'Role:           member',
      `Granted the admin role to ${m.email}.`,
    ]);
    expect(await roleOf(m.id)).toBe('admin');
    expect(await auditsOf('admin.role.granted', m.id)).toHaveLength(1);
    // Granting again changes nothing and audits nothing.
    expect((await grantAdmin(ctx, m.email)).lines.at(-1)).toMatch(/already has the admin role/);
    expect(await auditsOf('admin.role.granted', m.id)).toHaveLength(1);
  });

  it('answers exit code 1 for an unknown email', async () => {
    const result = await grantAdmin(ctx, `nobody.${randomUUID()}@example.test`);
    expect(result.exitCode).toBe(EXIT.notFound);
    expect(result.lines[0]).toMatch(/^No account with email/);
  });
});

describe('revoke', () => {
  it('takes the role away, audited, and ends the step-up', async () => {
    const m = await registerMember(t.app);
    await verify(m.id);
    await grantAdmin(ctx, m.email);
    const result = await revokeAdmin(ctx, m.email);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(result.lines.at(-1)).toBe(`Revoked the admin role from ${m.email}.`);
    expect(await roleOf(m.id)).toBe('member');
    expect(await auditsOf('admin.role.revoked', m.id)).toHaveLength(1);
    expect((await revokeAdmin(ctx, m.email)).lines.at(-1)).toMatch(/does not have the admin role/);
  });
});

describe('unlock', () => {
  async function throttled(m: { email: string; password: string }) {
    // Ten failures, sitting out each wait: the next wait is 16 s.
    for (let failures = 0; failures < 10; ) {
      const res = await signIn(m.email, 'wrong password!');
      if (res.statusCode === 401) failures += 1;
      else clock.advance(Number(res.headers['retry-after']) * 1000);
    }
    const waiting = await signIn(m.email, m.password);
    expect(waiting.statusCode).toBe(429);
    return Number(waiting.headers['retry-after']);
  }

  it('clears the throttle of the account at once, audited', async () => {
    const m = await registerMember(t.app);
    const wait = await throttled(m);
    expect(wait).toBe(16);
    const result = await unlockAccount(ctx, m.email);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(result.lines.at(-1)).toMatch(new RegExp(`^Unlocked ${m.email.replace(/\./g, '\\.')}: forgot 10 failed attempt\\(s\\) and a wait of 16 s\\.$`));
    expect((await signIn(m.email, m.password)).statusCode).toBe(200);
    const audits = await auditsOf('account.unlocked', m.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.payloadJson).toMatchObject({ via: 'cli', failures: 10 });
  });

  it('clears the Admin Access throttle too', async () => {
    const m = await registerMember(t.app);
    await verify(m.id);
    await grantAdmin(ctx, m.email);
    const { token } = (await signIn(m.email, m.password)).json();
    const access = (password: string) => t.app.inject(asUser(token, { method: 'POST', url: '/api/admin/access', payload: { email: m.email, password } }));
    for (let i = 0; i < 6; i += 1) expect((await access(`wrong ${i}`)).statusCode).toBe(403);
    expect((await access(m.password)).statusCode).toBe(429);
    expect((await unlockAccount(ctx, m.email)).exitCode).toBe(EXIT.ok);
    expect((await access(m.password)).statusCode).toBe(200);
  });

  it('says so when there was nothing to clear', async () => {
    const m = await registerMember(t.app);
    expect((await unlockAccount(ctx, m.email)).lines.at(-1)).toBe(`Unlocked ${m.email}: it had no failed attempts on record.`);
  });

  it('without REDIS_URL says honestly that it cannot reach the running server, exit code 69, nothing audited', async () => {
    const m = await registerMember(t.app);
    await throttled(m);
    const result = await unlockAccount({ ...ctx, counters: undefined }, m.email);
    expect(result.exitCode).toBe(EXIT.unavailable);
    expect(result.lines.join('\n')).toMatch(/cannot reach.*\n.*restarting the server clears it/);
    expect((await signIn(m.email, m.password)).statusCode).toBe(429);
    expect(await auditsOf('account.unlocked', m.id)).toHaveLength(0);
  });

  it('reaches the servers through Redis: a separate process with its own connection unlocks', async () => {
    const prefix = `wellhaven-test:${randomUUID()}:`;
    const serverStore = new RedisCounterStore(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    const cliStore = new RedisCounterStore(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    const server = await createTestApp({ counters: serverStore });
    try {
      const m = await registerMember(server.app);
      const signInThere = (password: string) => server.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password } });
      for (let i = 0; i < 6; i += 1) expect((await signInThere('wrong password!')).statusCode).toBe(401);
      // Redis keeps its own time: the 1 s wait set by the sixth failure is still running.
      expect((await signInThere(m.password)).statusCode).toBe(429);
      const result = await unlockAccount({ db: server.database.db, clock: server.clock, counters: cliStore }, m.email);
      expect(result.lines.at(-1)).toMatch(/forgot 6 failed attempt/);
      expect((await signInThere(m.password)).statusCode).toBe(200);
      const audits = await server.database.db.select().from(events).where(and(eq(events.type, 'account.unlocked')));
      expect(audits.some((e) => (e.payloadJson as { userId?: string }).userId === m.id)).toBe(true);
    } finally {
      await server.close();
      await serverStore.close();
      await cliStore.close();
    }
  });
});

describe('the command line (src/server/admin-cli.ts)', () => {
  it('answers a name from Object.prototype (constructor, toString) with the usage and exit code 64, touching nothing', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'wellhaven-cli-'));
    try {
      for (const name of ['constructor', 'toString']) {
        const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
          execFile(
            path.resolve('node_modules/.bin/tsx'),
            ['src/server/admin-cli.ts', name, 'someone@example.test'],
            { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' }, timeout: 20_000 },
            (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
          );
        });
        expect(result.code, `${name}: ${result.stderr}`).toBe(EXIT.usage);
        expect(result.stderr).toMatch(/^Usage: npm run admin -- <command> EMAIL/);
        expect(result.stderr).not.toMatch(/TypeError/);
      }
      // Refused before the database was opened.
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // Two cold tsx starts, each allowed 20 s on a loaded machine.
  }, 60_000);
});
