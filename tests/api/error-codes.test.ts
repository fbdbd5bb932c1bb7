/**
 * Error bodies carry a code from the one shared list, and a malformed id in a path is a 404 on
 * every route (docs/decisions/error-codes.md); the OpenAPI document says who may call what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorBodySchema } from '#shared/errors';
import type { RouteEntry } from '../../src/server/plugins/auth';
import { createTestApp, signedInAdmin, signedInMember } from './support/test-app';

const t = await createTestApp();
const routes: RouteEntry[] = [...t.app.routeTable];
const withIds = routes.filter((r) => /:\w+/.test(r.url));
let member: Awaited<ReturnType<typeof signedInMember>>;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  member = await signedInMember(t.app);
  admin = await signedInAdmin(t);
});
afterAll(async () => {
  await t.close();
});

const headersFor = (route: RouteEntry) => (route.access === 'admin' ? admin.auth : route.access === 'member' ? member.auth : {});
/** A body of the route's own type: the content-type parsers run before the path is validated. */
function bodyFor(route: RouteEntry) {
  if (route.url.endsWith('/roster')) return { payload: 'programme_id,first_name,last_name\n', headers: { 'content-type': 'text/csv' } };
  return ['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {};
}

describe('a malformed id in a path', () => {
  it('has routes to check', () => {
    expect(withIds.length).toBeGreaterThan(10);
  });

  it.each(withIds.map((r) => [`${r.method} ${r.url}`, r] as const))('%s answers 404 not_found, never 400', async (_name, route) => {
    for (const bad of ['not-an-id', '42', `00000000-0000-4000-8000-000000000000x`, '%00', 'x'.repeat(150)]) {
      const url = route.url.replace(/:\w+/g, bad);
      const { headers, ...payload } = { headers: {}, ...bodyFor(route) };
      const res = await t.app.inject({ method: route.method as 'GET', url, headers: { ...headersFor(route), ...headers }, ...payload });
      expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBe(404);
      const body = res.json();
      expect(body, url).toMatchObject({ code: 'not_found', error: expect.any(String) });
      expect(body, url).not.toHaveProperty('fields');
    }
  });
});

describe('every error body has a code from the list', () => {
  it('framework refusals: unknown route, malformed JSON, too large, wrong content type, bad URL', async () => {
    const answers = [
      [await t.app.inject({ url: '/api/nope' }), 404, 'not_found'],
      [await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'content-type': 'application/json' }, payload: '{' }), 400, 'bad_request'],
      [await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'x'.repeat(2_000_000) }) }), 413, 'payload_too_large'],
      [await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'content-type': 'application/xml' }, payload: '<a/>' }), 415, 'unsupported_media_type'],
      [await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'not an email' } }), 400, 'validation'],
      [await t.app.inject({ url: '/api/auth/me' }), 401, 'unauthenticated'],
      [await t.app.inject({ url: '/api/admin/employers', headers: member.auth }), 403, 'forbidden'],
      [await t.app.inject({ url: '/api/%E0%A4%A' }), 400, 'bad_request'],
      [await t.app.inject({ url: `/api/family-members/${'a'.repeat(300)}`, method: 'DELETE', headers: member.auth }), 414, 'uri_too_long'],
    ] as const;
    for (const [res, status, code] of answers) {
      expect(res.statusCode, res.body).toBe(status);
      expect(ErrorBodySchema.safeParse(res.json()).success, res.body).toBe(true);
      expect(res.json().code, res.body).toBe(code);
    }
  });

  it('is one list: every code is distinct and snake_case', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

describe('the OpenAPI document', () => {
  it('gives every operation a summary, a unique operationId and the security its access needs', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { summary?: string; operationId?: string; security?: unknown[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const ids = new Set<string>();
    for (const route of routes.filter((r) => r.url !== '/api/openapi.json')) {
      const operation = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation!.summary, route.url).toMatch(/^[A-Z]/);
      expect(operation!.operationId, route.url).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(operation!.operationId!), operation!.operationId).toBe(false);
      ids.add(operation!.operationId!);
      expect(operation!.security, `${route.method} ${route.url}`).toEqual(route.access === 'public' ? [] : [{ bearer: [] }]);
    }
  });
});
