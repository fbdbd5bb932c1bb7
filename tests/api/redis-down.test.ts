/**
 * The shared counter store (Redis) out of reach: sign-in and registration, which need the
 * rate limits and the lockout, fail closed and fast with a 503 (never a 500, never a
 * ten-second wait); signed-in members, who need no counters, are still served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../src/db/schema';
import { RedisCounterStore } from '../../src/server/lib/counter-store';
import { type TestApp, createTestApp, freshSessionHeaders } from './support/test-app';

// Nothing listens on this port (of the hardening ports 4205-4215, 4214 is never used).
const down = new RedisCounterStore('redis://127.0.0.1:4214', 'wellhaven-test-down:');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ counters: down });
});
afterAll(async () => {
  await t?.close();
  await down.close().catch(() => undefined);
});

describe('with Redis out of reach', () => {
  it('refuses sign-in and registration fast with a 503 and Retry-After', async () => {
    for (const [url, payload] of [
      ['/api/auth/signin', { email: 'someone@example.test', password: 'some password here' }],
      ['/api/auth/register', { firstName: 'Red', lastName: 'Is', email: 'redis.down@example.test', company: 'Acme', lhmpId: 'LQ54329', password: 'a long passphrase' }],
    ] as const) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'POST', url, payload });
      expect(performance.now() - started, url).toBeLessThan(3000);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ error: 'Service temporarily unavailable. Please try again shortly.', code: 'unavailable' });
    }
  });

  it('keeps serving signed-in members, who need no counters', async () => {
    // Registration needs Redis, so the member and the session are written directly.
    const [company] = await t.database.db.insert(companies).values({ name: 'Redis Down Employer' }).returning({ id: companies.id });
    const [user] = await t.database.db
      .insert(users)
      .values({ firstName: 'Redis', lastName: 'Down', email: 'redis.down.member@example.test', companyId: company!.id, lhmpId: 'LQ54330', passwordHash: 'unused' })
      .returning({ id: users.id });
    const res = await t.app.inject({ url: '/api/auth/me', headers: await freshSessionHeaders(t, user!.id) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});
