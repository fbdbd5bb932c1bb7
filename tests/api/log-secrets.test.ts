/**
 * No secret in any log line, over a whole session at the most verbose level: registration,
 * good and bad sign-ins, the admin step-up, every route in the route table (generated, with
 * valid and damaged input), tokens put where they do not belong (query string, malformed
 * headers), failures that log errors (the database out of reach), and sign-out. Every
 * captured line is scanned for every password, token, token hash, password hash and the
 * audit secret used.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client';
import { buildApp, loggerOptions } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { sha256Hex } from '../../src/server/lib/crypto';
import { setAdminRole } from '../../src/server/modules/auth/admin-bootstrap';
import { totpCodeAt } from '../../src/server/modules/auth/totp';
import { type Pools, type RouteSchemas, captureRoutes, damagedObject, validSamples } from './support/fuzz';
import { newMember, openTestDatabase, testClock } from './support/test-app';

const AUDIT_SECRET = `audit-secret-${randomUUID()}`;
const lines: string[] = [];
const stream = new Writable({
  write(chunk, _enc, cb) {
    lines.push(String(chunk));
    cb();
  },
});
const env = { NODE_ENV: 'test', SERVE_CLIENT: '0', AUTH_RATE_LIMIT_PER_IP: '10000', AUDIT_HMAC_SECRET: AUDIT_SECRET, LOG_LEVEL: 'trace' };
const config = loadConfig(env);
const clock = testClock();

async function start(database: Database, onRoutes?: (app: FastifyInstance) => void) {
  const app = await buildApp({ config, database, clock, logger: loggerOptions(config, stream) });
  onRoutes?.(app);
  await app.ready();
  return app;
}

let capture!: ReturnType<typeof captureRoutes>;
const database = await openTestDatabase();
const app = await start(database, (a) => {
  capture = captureRoutes(a);
});
const routes = [...app.routeTable];
const schemasOf = (method: string, url: string): RouteSchemas => capture.schemas.get(`${method} ${url}`) ?? {};

const secrets = new Set<string>([AUDIT_SECRET]);
/** Remembers a token and its stored hash as secrets. */
const remember = (token: string) => {
  secrets.add(token);
  secrets.add(sha256Hex(token));
  return token;
};

async function json(method: string, url: string, payload?: unknown, token?: string, target = app) {
  return target.inject({
    method: method as 'GET',
    url,
    headers: { 'user-agent': 'log-scan', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

async function signIn(email: string, password: string, target = app) {
  const res = await json('POST', '/api/auth/signin', { email, password }, undefined, target);
  return res.statusCode === 200 ? remember((res.json() as { token: string }).token) : undefined;
}

let memberToken = '';
let adminToken = '';
const member = newMember({ password: `member pass ${randomUUID()}` });
const admin = newMember({ password: `admin pass ${randomUUID()}` });

beforeAll(async () => {
  for (const p of [member.password, admin.password]) secrets.add(p);
  expect((await json('POST', '/api/auth/register', member)).statusCode).toBe(201);
  expect((await json('POST', '/api/auth/register', admin)).statusCode).toBe(201);
  await setAdminRole(database.db, admin.email, true);
  memberToken = (await signIn(member.email, member.password))!;
  adminToken = (await signIn(admin.email, admin.password))!;
  expect(memberToken && adminToken).toBeTruthy();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await database.dropDatabase();
});

describe('a whole session at log level trace', () => {
  it('signs in wrongly and rightly, steps up, and walks every route with valid and damaged input', async () => {
    const wrong = [`wrong password ${randomUUID()}`, `another wrong ${randomUUID()}`];
    for (const p of wrong) {
      secrets.add(p);
      expect((await json('POST', '/api/auth/signin', { email: member.email, password: p })).statusCode).toBe(401);
      expect((await json('POST', '/api/auth/signin', { email: `nobody.${randomUUID()}@example.test`, password: p })).statusCode).toBe(401);
      expect((await json('POST', '/api/admin/access', { email: admin.email, password: p }, adminToken)).statusCode).toBe(403);
    }
    // The step-up: a secret to scan, a wrong code, the right one; a new token and recovery codes come back.
    const offer = await json('POST', '/api/admin/access', { email: admin.email, password: admin.password }, adminToken);
    expect(offer.statusCode).toBe(200);
    const secret = (offer.json() as { secret: string }).secret;
    secrets.add(secret);
    expect((await json('POST', '/api/admin/access', { email: admin.email, password: admin.password, code: 'wrong-code-x' }, adminToken)).statusCode).toBe(403);
    const granted = await json('POST', '/api/admin/access', { email: admin.email, password: admin.password, code: totpCodeAt(secret, clock()) }, adminToken);
    expect(granted.statusCode).toBe(200);
    adminToken = remember((granted.json() as { token: string }).token);
    for (const code of (granted.json() as { recoveryCodes: string[] }).recoveryCodes) secrets.add(code);
    // Two-step sign-in with the same factor: the challenge is a secret too.
    const challenge = (await json('POST', '/api/auth/signin', { email: admin.email, password: admin.password })).json() as { challenge: string };
    remember(challenge.challenge);
    clock.advance(30_000);
    const second = await json('POST', '/api/auth/signin/mfa', { challenge: challenge.challenge, code: totpCodeAt(secret, clock()) });
    expect(second.statusCode).toBe(200);
    remember((second.json() as { token: string }).token);
    // Registration refusals carry the password too.
    const refused = newMember({ email: member.email, password: `refused pass ${randomUUID()}` });
    secrets.add(refused.password);
    expect((await json('POST', '/api/auth/register', refused)).statusCode).toBe(409);

    const ids = (await database.db.execute(sql`select id::text as id from family_members union all select id::text from popups union all select id::text from users union all select id::text from companies`)) as unknown as { rows: { id: string }[] };
    const pools: Pools = { ids: ids.rows.map((r) => r.id), emails: [member.email] };
    let calls = 0;
    for (const route of routes) {
      const token = route.access === 'admin' ? adminToken : route.access === 'member' ? memberToken : undefined;
      if (route.url === '/api/auth/signout') continue; // last, below
      const schemas = schemasOf(route.method, route.url);
      const bodies = schemas.body ? [...validSamples(schemas.body, pools, 3), ...fc.sample(damagedObject(schemas.body, pools), { numRuns: 3, seed: 7 })] : [undefined];
      for (const body of bodies) {
        // Any password a generated body carries is a secret too, and so is any token handed out.
        if (body && typeof body === 'object') {
          for (const [key, value] of Object.entries(body)) if (/password/i.test(key) && typeof value === 'string' && value.length >= 6 && !pools.ids.includes(value)) secrets.add(value);
        }
        for (const id of [pools.ids[0]!, randomUUID()]) {
          const res = await json(route.method, route.url.replace(/:[A-Za-z0-9_]+/g, id), body, token);
          expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBeLessThan(500);
          const issued = res.statusCode < 300 && res.body.startsWith('{') ? (res.json() as { token?: unknown }).token : undefined;
          if (typeof issued === 'string') remember(issued);
          calls += 1;
        }
      }
    }
    expect(calls).toBeGreaterThan(routes.length);
  });

  it('puts tokens and passwords where they do not belong: query strings, malformed headers, bodies of routes without one', async () => {
    const query = `token=${memberToken}&access_token=${adminToken}&password=${encodeURIComponent(member.password)}`;
    for (const url of ['/api/auth/me', '/api/family-members', '/api/admin/employers', '/api/config', '/no-such-page']) {
      await app.inject({ url: `${url}?${query}`, headers: { 'user-agent': 'log-scan' } });
    }
    for (const authorization of [`Bearer ${memberToken} `, `Basic ${Buffer.from(`${member.email}:${member.password}`).toString('base64')}`, `Token ${adminToken}`, memberToken]) {
      const res = await app.inject({ url: '/api/auth/me', headers: { authorization, cookie: `token=${memberToken}` } });
      expect(res.statusCode).toBe(401);
    }
    await json('POST', '/api/auth/signout', { token: memberToken, password: member.password }, adminToken);
  });

  it('logs failures without their parameters: every route with the database out of reach', async () => {
    const down = await openDatabase({ databaseUrl: 'postgres://wellhaven@127.0.0.1:1/none', connectTimeoutMs: 500, poolMax: 2 });
    const broken = await start(down);
    try {
      const statuses = new Set<number>();
      for (const route of broken.routeTable) {
        const token = route.access === 'public' ? undefined : memberToken;
        const body = route.url === '/api/auth/register' ? newMember({ password: member.password }) : route.url === '/api/auth/signin' ? { email: member.email, password: member.password } : {};
        const res = await json(route.method, route.url.replace(/:[A-Za-z0-9_]+/g, randomUUID()), route.method === 'GET' ? undefined : body, token, broken);
        statuses.add(res.statusCode);
      }
      expect(statuses).toContain(503);
      expect([...statuses].every((s) => s < 500 || s === 503), [...statuses].join(',')).toBe(true);
    } finally {
      await broken.close();
      await down.close();
    }
  });

  it('redacts a second-factor code in anything logged (a recovery code works until used), and keeps an error’s own code (as errorCode)', async () => {
    const recoveryCode = `${randomUUID().slice(0, 5)}-${randomUUID().slice(0, 5)}`;
    secrets.add(recoveryCode);
    app.log.warn({ body: { email: member.email, code: recoveryCode }, err: { message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' } }, 'code redaction probe');
    const line = lines.find((l) => l.includes('code redaction probe'));
    expect(JSON.parse(line!)).toMatchObject({ body: { email: member.email, code: '[Redacted]' }, err: { errorCode: 'ECONNREFUSED' } });
  });

  it('signs out, and no captured line holds a password, token, token hash, password hash or the audit secret', async () => {
    expect((await json('POST', '/api/auth/signout', undefined, memberToken)).statusCode).toBe(200);
    const hashes = (await database.db.execute(sql`select password_hash as h from users`)) as unknown as { rows: { h: string }[] };
    for (const { h } of hashes.rows) secrets.add(h);
    // Links in queued mail (verification, reset) carry single-use tokens: secrets too.
    const mail = (await database.db.execute(sql`select text_body as b from outbox where text_body is not null`)) as unknown as { rows: { b: string }[] };
    for (const { b } of mail.rows) for (const [, token] of b.matchAll(/[?&]token=([A-Za-z0-9_-]+)/g)) remember(token!);
    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(200);
    // The log really is verbose: requests, responses and the refused sign-ins are there.
    expect(all).toContain('incoming request');
    expect(all).toContain('/api/auth/signin');
    // Failures are still logged usefully: the driver's reason, without the query's parameters.
    expect(lines.some((l) => l.includes('database unavailable') && l.includes('ECONNREFUSED'))).toBe(true);
    const leaks: string[] = [];
    for (const secret of secrets) {
      const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
      const line = lines.find((l) => forms.some((f) => l.includes(f)));
      if (line) leaks.push(`${secret.slice(0, 10)}… in ${line.slice(0, 400)}`);
    }
    expect(all).not.toMatch(/\$argon2id\$/);
    expect(leaks).toEqual([]);
    console.log(`log scan (${process.env.TEST_DB ?? 'pglite'}): ${lines.length} lines, ${secrets.size} secrets, 0 found`);
  });
});
