/**
 * The database out of reach: every route, generated from the route table, fails fast with a
 * 503 and Retry-After (never a 500, never a hang), /readyz says so, and liveness and
 * metrics still answer. (Recovery without a restart, a crash and a hang of a real server
 * are measured by `npm run test:pg-restart`.)
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { newToken } from '../../src/server/lib/crypto';

let database: Database;
let app: FastifyInstance;
beforeAll(async () => {
  // Port 1 on loopback: nothing listens, so every connection is refused.
  database = await openDatabase({ databaseUrl: 'postgres://wellhaven@127.0.0.1:1/none', connectTimeoutMs: 500, poolMax: 2 });
  app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', SERVE_CLIENT: '0', AUDIT_HMAC_SECRET: 'test-secret-test-secret' }), database, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('with the database out of reach', () => {
  it('answers every route that needs it with a fast 503 and Retry-After, and none with a 500', async () => {
    let unavailable = 0;
    for (const route of app.routeTable) {
      const started = performance.now();
      const res = await app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:[A-Za-z0-9_]+/g, randomUUID()),
        headers: route.access === 'public' ? {} : { authorization: `Bearer ${newToken()}` },
        ...(route.method === 'GET' ? {} : { payload: route.url === '/api/auth/signin' ? { email: 'a@example.test', password: 'some password' } : {} }),
      });
      const where = `${route.method} ${route.url}`;
      expect(performance.now() - started, where).toBeLessThan(2500);
      expect([200, 400, 503], `${where}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 503) {
        unavailable += 1;
        expect(res.headers['retry-after'], where).toBe('5');
        expect(res.json(), where).toEqual({ error: 'Service temporarily unavailable. Please try again shortly.', code: 'unavailable' });
      }
    }
    // Every guarded route looks the session up first.
    expect(unavailable).toBeGreaterThanOrEqual(app.routeTable.filter((r) => r.access !== 'public').length);
  });

  it('reports not ready, yet alive, and still serves metrics', async () => {
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="503"\} 1/);
  });
});
