import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../../src/db/client';
import { buildApp, loggerOptions } from '../../../src/server/app';
import { type Config, loadConfig } from '../../../src/server/config';
import type { Clock } from '../../../src/server/lib/clock';
import type { CounterStore } from '../../../src/server/lib/counter-store';
import type { PasswordHasher } from '../../../src/server/lib/hash-pool';
import { sha256Hex } from '../../../src/server/lib/crypto';
import { sessions } from '../../../src/db/schema';
import { setAdminRole } from '../../../src/server/modules/auth/admin-bootstrap';
import { totpCodeAt } from '../../../src/server/modules/auth/totp';

/** A clock tests move by hand: no sleeping. */
export function testClock(start = new Date('2026-03-02T12:00:00.000Z')) {
  let now = start.getTime();
  const clock: Clock & { advance(ms: number): void; set(d: Date): void } = Object.assign(() => new Date(now), {
    advance: (ms: number) => {
      now += ms;
    },
    set: (d: Date) => {
      now = d.getTime();
    },
  });
  return clock;
}

export type TestDatabase = Database & { dropDatabase(): Promise<void> };

/** A fresh, migrated database for one test file: in-memory PGlite, or a PostgreSQL clone. */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.DATABASE_URL!;
    const name = `wellhaven_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolMax: 5 });
    return Object.assign(database, {
      dropDatabase: async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    });
  }
  // The run's migrated template (pglite-global-setup.ts), loaded into memory: no initdb, no migrations.
  const database = await openDatabase({ loadDataDir: await openAsBlob(inject('pgliteTemplate')) });
  return Object.assign(database, { dropDatabase: async () => {} });
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  clock: ReturnType<typeof testClock>;
  /** Every log line the app wrote, raw. */
  logs: string[];
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    clock?: ReturnType<typeof testClock>;
    counters?: CounterStore;
    /** The hasher behind the hash pool (a fast fake where argon2id itself is not the point). */
    passwordHasher?: PasswordHasher;
    /** Runs after the routes are registered and before `ready()`: the last moment to add hooks. */
    beforeReady?: (app: FastifyInstance) => void;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = options.clock ?? testClock();
  const logs: string[] = [];
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    SERVE_CLIENT: '0',
    AUTH_RATE_LIMIT_PER_IP: '10000',
    AUDIT_HMAC_SECRET: 'test-secret-test-secret',
    // Tests that send a burst of registrations or sign-ins on purpose wait for the hash pool on
    // any machine (its default queue is twice the cores); tests/api/overload.test.ts sets its own.
    PASSWORD_HASH_QUEUE: '64',
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    clock,
    ...(options.counters ? { counters: options.counters } : {}),
    ...(options.passwordHasher ? { passwordHasher: options.passwordHasher } : {}),
    // The production logger (level, redaction, request serializer), written to `logs`.
    logger: loggerOptions(
      config,
      new Writable({
        write(chunk, _enc, cb) {
          logs.push(String(chunk));
          cb();
        },
      }),
    ),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    logs,
    close: async () => {
      await app.close();
      await database.close();
      await database.dropDatabase();
    },
  };
}

let seq = 0;
/** Unique, valid registration data; each call makes a new person. */
export function newMember(overrides: Partial<Record<'firstName' | 'lastName' | 'email' | 'company' | 'lhmpId' | 'password', string>> = {}) {
  seq += 1;
  const n = (process.pid * 7 + seq) % 100_000;
  return {
    firstName: 'Test',
    lastName: `Member${seq}`,
    email: `member${seq}.${randomUUID().slice(0, 8)}@example.test`,
    company: 'Acme Test Employer',
    lhmpId: `LQ${String(n).padStart(5, '0')}`,
    password: 'correct horse battery',
    ...overrides,
  };
}

export async function registerMember(app: FastifyInstance, overrides: Parameters<typeof newMember>[0] = {}) {
  const data = newMember(overrides);
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: data });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { ...data, id: (res.json() as { user: { id: string } }).user.id };
}

/** Registers and signs in a new member; returns the bearer token and the data used. */
export async function signedInMember(app: FastifyInstance, overrides: Parameters<typeof newMember>[0] = {}) {
  const member = await registerMember(app, overrides);
  const res = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: member.email, password: member.password } });
  if (res.statusCode !== 200) throw new Error(`signin failed: ${res.statusCode} ${res.body}`);
  const token = (res.json() as { token: string }).token;
  return { ...member, token, auth: { authorization: `Bearer ${token}` } };
}

export function asUser(token: string, options: InjectOptions): InjectOptions {
  return { ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } };
}

/** Sends `options` to the app with `caller`'s bearer token. */
export function injectAs(t: Pick<TestApp, 'app'>, caller: { token: string }, options: InjectOptions) {
  return t.app.inject(asUser(caller.token, options));
}

/** A well-formed id (version 4) that names no row: the 404 of every `:id` route. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The code an authenticator app shows for `secret` at the injected clock, `steps` steps (30 s each) away. */
export function totpCode(t: Pick<TestApp, 'clock'>, secret: string, steps = 0): string {
  return totpCodeAt(secret, new Date(t.clock().getTime() + steps * 30_000));
}

/** POST /api/admin/access as `token`, with or without a code. */
export function adminAccess(t: Pick<TestApp, 'app'>, token: string, body: { email: string; password: string; code?: string }) {
  return t.app.inject(asUser(token, { method: 'POST', url: '/api/admin/access', payload: body }));
}

/**
 * The whole Admin Access step-up for a signed-in admin without a factor yet: email and
 * password (answered `mfa_setup` with a secret), then the app's code for that secret at the
 * injected clock. Returns the NEW elevated token (the one that asked is revoked), the secret
 * and the ten recovery codes.
 */
export async function stepUpWithNewFactor(t: Pick<TestApp, 'app' | 'clock'>, token: string, credentials: { email: string; password: string }) {
  const offer = await adminAccess(t, token, credentials);
  if (offer.statusCode !== 200 || offer.json().status !== 'mfa_setup') throw new Error(`admin access (set-up) failed: ${offer.statusCode} ${offer.body}`);
  const secret = (offer.json() as { secret: string }).secret;
  const granted = await adminAccess(t, token, { ...credentials, code: totpCode(t, secret) });
  if (granted.statusCode !== 200 || granted.json().status !== 'granted') throw new Error(`admin access (code) failed: ${granted.statusCode} ${granted.body}`);
  const body = granted.json() as { token: string; recoveryCodes: string[] };
  return { token: body.token, secret, recoveryCodes: body.recoveryCodes };
}

/**
 * A signed-in administrator. By default stepped up through Admin Access, which now sets up
 * the second factor and hands out a NEW token: `token` is that elevated token, `mfa` the
 * factor (secret, recovery codes) and `signedInToken` the revoked one that asked.
 * `elevate: false` stops before the step-up (no factor, `token` is the sign-in's).
 */
type Registered = Awaited<ReturnType<typeof registerMember>>;
type AdminSession = Registered & { token: string; signedInToken: string; auth: { authorization: string } };
export type ElevatedAdmin = AdminSession & { mfa: { secret: string; recoveryCodes: string[] } };
export type PlainAdmin = AdminSession & { mfa: undefined };

export async function signedInAdmin(t: TestApp, options?: { elevate?: true }): Promise<ElevatedAdmin>;
export async function signedInAdmin(t: TestApp, options: { elevate: false }): Promise<PlainAdmin>;
export async function signedInAdmin(t: TestApp, options: { elevate?: boolean }): Promise<ElevatedAdmin | PlainAdmin>;
export async function signedInAdmin(t: TestApp, options: { elevate?: boolean } = {}): Promise<ElevatedAdmin | PlainAdmin> {
  const member = await registerMember(t.app);
  await setAdminRole(t.database.db, member.email, true);
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: member.email, password: member.password } });
  if (res.statusCode !== 200) throw new Error(`admin sign-in failed: ${res.statusCode} ${res.body}`);
  const signedInToken = (res.json() as { token: string }).token;
  if (options.elevate === false) {
    return { ...member, token: signedInToken, signedInToken, mfa: undefined, auth: { authorization: `Bearer ${signedInToken}` } };
  }
  const { token, ...mfa } = await stepUpWithNewFactor(t, signedInToken, member);
  return { ...member, token, signedInToken, mfa, auth: { authorization: `Bearer ${token}` } };
}

/**
 * Bearer headers for a brand-new session of `userId`, written straight to the database (no
 * argon2 work), so a case that signs out or steps up cannot leak into the next one.
 */
export async function freshSessionHeaders(t: TestApp, userId: string, options: { elevated?: boolean } = {}) {
  const token = (await t.app.sessionTokens.get()).mint();
  const now = t.clock();
  await t.database.db.insert(sessions).values({
    userId,
    tokenHash: sha256Hex(token),
    signed: true,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 60 * 60 * 1000),
    adminElevatedAt: options.elevated ? now : null,
  });
  return { authorization: `Bearer ${token}` };
}
