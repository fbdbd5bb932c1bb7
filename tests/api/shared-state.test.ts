import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { systemClock } from '../../src/server/lib/clock';
import { type CounterStore, type Hit, MemoryCounterStore, RedisCounterStore } from '../../src/server/lib/counter-store';
import { createThrottle, throttleKeys } from '../../src/server/modules/auth/throttle';
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
  it('holds the sign-in throttle across instances', async () => {
    const m = await registerMember(t.app);
    const apps = [t.app, second];
    // Five free failures and a sixth that sets a 1 s wait (Redis's own clock), spread over both.
    for (let i = 0; i < 6; i += 1) {
      const res = await apps[i % 2]!.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: 'wrong password!' }, remoteAddress: `192.0.2.${i + 1}` });
      expect(res.statusCode).toBe(401);
    }
    for (const app of apps) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password }, remoteAddress: '192.0.2.50' });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('1');
    }
    expect((await createThrottle(storeB).state(throttleKeys.signIn(m.email))).failures).toBe(6);
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

describe('the in-process and the Redis counter stores', () => {
  it('answer the same, step by step', async () => {
    const redis = new RedisCounterStore(redisUrl, `wellhaven-test:${randomUUID()}:`);
    const memory = new MemoryCounterStore(systemClock);
    // Whole seconds: the two clocks run a few milliseconds apart between the two calls.
    const seconds = (hit: Hit) => ({ count: hit.count, resetInS: Math.round(hit.resetInMs / 1000) });
    const steps: [string, (store: CounterStore) => Promise<Hit>][] = [
      ['increment, fixed window', (s) => s.increment('f', 60_000)],
      ['increment again: the window is kept', (s) => s.increment('f', 120_000)],
      ['increment, sliding window', (s) => s.increment('s', 30_000, true)],
      ['increment again: the window restarts', (s) => s.increment('s', 90_000, true)],
      ['decrement', async (s) => (await s.decrement('f'), s.get('f'))],
      ['never below zero, window kept', async (s) => (await s.decrement('s'), await s.decrement('s'), await s.decrement('s'), s.get('s'))],
      ['decrement of a missing key', async (s) => (await s.decrement('missing'), s.get('missing'))],
      ['then an increment opens a new window', (s) => s.increment('missing', 45_000)],
      ['set', async (s) => (await s.set('w', 15_000), s.get('w'))],
      ['reset', async (s) => (await s.reset('f'), s.get('f'))],
    ];
    try {
      for (const [name, step] of steps) expect(seconds(await step(redis)), name).toEqual(seconds(await step(memory)));
    } finally {
      await redis.close();
      await memory.close();
    }
  });

  it('Redis: decrementing a missing key leaves nothing behind (no key without an expiry)', async () => {
    const prefix = `wellhaven-test:${randomUUID()}:`;
    const store = new RedisCounterStore(redisUrl, prefix);
    const raw = new Redis(redisUrl);
    try {
      // A throttle settling after its in-flight mark expired.
      await store.decrement('throttle:inflight:gone@example.test');
      expect(await raw.exists(`${prefix}throttle:inflight:gone@example.test`)).toBe(0);
      await store.increment('k', 60_000);
      await store.decrement('k');
      await store.decrement('k');
      expect(await raw.get(`${prefix}k`)).toBe('0');
      expect(await raw.pttl(`${prefix}k`)).toBeGreaterThan(0);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });

  it('Redis: refused sign-in attempts do not extend an in-flight mark left behind (a fixed window)', async () => {
    const prefix = `wellhaven-test:${randomUUID()}:`;
    const store = new RedisCounterStore(redisUrl, prefix);
    const raw = new Redis(redisUrl);
    const throttle = createThrottle(store);
    try {
      for (let i = 0; i < 5; i += 1) await throttle.settle('leak@example.test', false);
      expect(await throttle.claim('leak@example.test')).toBe(0); // never settled
      // As if 50 of its 60 seconds had passed.
      await raw.pexpire(`${prefix}throttle:inflight:leak@example.test`, 10_000);
      expect(await throttle.claim('leak@example.test')).toBeGreaterThan(0);
      expect(await raw.pttl(`${prefix}throttle:inflight:leak@example.test`)).toBeLessThanOrEqual(10_000);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });
});
