/**
 * Authorization for EVERY /api route, generated from `app.routeTable` (which the auth plugin
 * fills as routes register, and which refuses a route without an access level). A new route
 * is covered the moment it is registered; a new access level fails `expectationFor` until
 * someone decides what each caller may do.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/server/plugins/auth';
import { CALLERS, callerSessions, expectationFor } from './support/callers';
import { createTestApp, registerMember } from './support/test-app';

// Top-level await: the route table must exist while the tests are being collected.
const t = await createTestApp();
const routes: RouteEntry[] = [...t.app.routeTable];
// Fastify answers HEAD for every GET; the same guard must hold there.
const cases = [
  ...routes,
  ...routes.filter((r) => r.method === 'GET').map((r) => ({ ...r, method: 'HEAD' })),
].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));

const callers = callerSessions(t);

beforeAll(async () => {
  const member = await registerMember(t.app);
  const admin = await registerMember(t.app);
  await callers.setUp(member, admin);
});
afterAll(async () => {
  await t.close();
});

/** Path parameters become fresh ids; a body route gets `{}`. */
function requestFor(route: RouteEntry) {
  const url = route.url.replace(/:[A-Za-z0-9_]+/g, () => randomUUID()).replace(/\*$/, 'anything');
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  return { method: route.method as 'GET', url, ...(hasBody ? { payload: {} } : {}) };
}

describe('the route table', () => {
  it('holds every route of the app, each with an access level and an expectation for every caller', () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const url of ['/api/admin/employers', '/api/admin/employers/:companyId', '/api/admin/employers/:companyId/employees', '/api/admin/employees/:userId']) {
      expect(routes).toContainEqual({ method: 'GET', url, access: 'admin' });
    }
    expect(routes).toContainEqual({ method: 'POST', url: '/api/admin/access', access: 'member' });
    for (const route of routes) {
      expect(['public', 'member', 'admin']).toContain(route.access);
      for (const caller of CALLERS) expect(() => expectationFor(route.access, caller)).not.toThrow();
    }
  });

  it('holds the ID card routes (issue 11) at their access levels', () => {
    expect(routes).toContainEqual({ method: 'GET', url: '/api/me/cards', access: 'member' });
    expect(routes).toContainEqual({ method: 'POST', url: '/api/cards/verify', access: 'public' });
    expect(routes).toContainEqual({ method: 'GET', url: '/api/admin/employers/:companyId/card', access: 'admin' });
    expect(routes).toContainEqual({ method: 'PUT', url: '/api/admin/employers/:companyId/card', access: 'admin' });
  });

  it('puts every /api/admin route except the step-up itself behind the admin guard', () => {
    const adminArea = routes.filter((r) => r.url.startsWith('/api/admin/') && r.url !== '/api/admin/access');
    expect(adminArea.length).toBeGreaterThanOrEqual(4);
    for (const route of adminArea) expect(route, `${route.method} ${route.url}`).toMatchObject({ access: 'admin' });
  });
});

describe.each(cases)('$method $url ($access)', (route) => {
  it.each(CALLERS)('as %s', async (caller) => {
    const res = await t.app.inject({ ...requestFor(route), headers: await callers.headersFor(caller) });
    const expected = expectationFor(route.access, caller);
    if (expected === 'allowed') {
      expect(res.statusCode, res.body).not.toBe(401);
      expect(res.statusCode, res.body).not.toBe(403);
      expect(res.statusCode, res.body).toBeLessThan(500);
    } else {
      expect(res.statusCode, res.body).toBe(expected);
      if (route.method !== 'HEAD') expect(res.json()).toEqual({ error: expect.any(String), code: expected === 401 ? 'unauthenticated' : 'forbidden' });
    }
  });
});

// Outside /api (so outside the route table): the card key is public, whoever asks.
describe('GET /.well-known/wellhaven-card-key (public)', () => {
  it.each(CALLERS)('as %s', async (caller) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url: '/.well-known/wellhaven-card-key', headers: await callers.headersFor(caller) });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});
