import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { RedisCounterStore } from '../../src/server/lib/counter-store';
import { type TestApp, asUser, createTestApp, registerMember, signedInMember } from './support/test-app';

/**
 * Two server instances on one database and one Redis, as behind a load balancer:
 * lockouts and rate limits hold across them, and a revoked session is refused by both.
 */
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let t: TestApp;
let second: FastifyInstance;
let storeA: RedisCounterStore;
let storeB: RedisCounterStore;

beforeAll(async () => {
  const prefix = `wellhaven-test:${randomUUID()}:`;
  storeA = new RedisCounterStore(redisUrl, prefix);
  storeB = new RedisCounterStore(redisUrl, prefix);
  t = await createTestApp({ counters: storeA, env: { AUTH_RATE_LIMIT_PER_IP: '8' } });
  second = await buildApp({
    config: loadConfig({ NODE_ENV: 'test', SERVE_CLIENT: '0', AUTH_RATE_LIMIT_PER_IP: '8', AUDIT_HMAC_SECRET: 'test-secret-test-secret' }),
    database: t.database,
    clock: t.clock,
    counters: storeB,
    logger: false,
  });
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await storeA?.close();
  await storeB?.close();
});

describe('several instances sharing Redis', () => {
  it('holds the account lockout across instances', async () => {
    const m = await registerMember(t.app);
    const apps = [t.app, second];
    for (let i = 0; i < 5; i += 1) {
      const res = await apps[i % 2]!.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: 'wrong password!' }, remoteAddress: `192.0.2.${i + 1}` });
      expect(res.statusCode).toBe(401);
    }
    for (const app of apps) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password }, remoteAddress: '192.0.2.50' });
      expect(res.statusCode).toBe(429);
    }
  });

  it('refuses parallel guesses past the limit across instances without locking out the member', async () => {
    const m = await registerMember(t.app);
    const apps = [t.app, second];
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        apps[i % 2]!.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password }, remoteAddress: `192.0.2.${100 + i}` }),
      ),
    );
    for (const r of results) expect([200, 429]).toContain(r.statusCode);
    const again = await second.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password }, remoteAddress: '192.0.2.99' });
    expect(again.statusCode).toBe(200);
  });

  it('counts the per-IP limit across instances', async () => {
    const ip = '198.51.100.77';
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const app = i % 2 === 0 ? t.app : second;
      const res = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: `x${i}@y.test`, password: 'whatever' }, remoteAddress: ip });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(8);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });

  it('refuses a session revoked on one instance on the other at once', async () => {
    const m = await signedInMember(t.app);
    expect((await second.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(200);
    expect((await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(200);
    expect((await second.inject(asUser(m.token, { method: 'GET', url: '/api/auth/me' }))).statusCode).toBe(401);
  });
});
