import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, signedInMember } from './support/test-app';

let t: TestApp;
let client: TestApp;
const clientDir = mkdtempSync(path.join(tmpdir(), 'wellhaven-client-'));

beforeAll(async () => {
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>');
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), `console.log(${JSON.stringify('x'.repeat(20_000))});`);
  t = await createTestApp({ env: { BRAND_NAME: 'Acme Wellness', BRAND_PRIMARY_COLOR: '#123456', HELP_VIDEO_IDS: 'abcdefgh,ijklmnop' } });
  client = await createTestApp({ env: { SERVE_CLIENT: '1', CLIENT_DIR: clientDir } });
});
afterAll(async () => {
  await t?.close();
  await client?.close();
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/config', () => {
  it('serves the public configuration only', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      brandName: 'Acme Wellness',
      brandLogoUrl: '/logo.svg',
      brandPrimaryColor: '#123456',
      vitalScanUrl: 'https://example.org/vital-scan',
      wellnessProgramUrl: 'https://example.org/daily-wellness',
      helpVideoIds: ['abcdefgh', 'ijklmnop'],
    });
    expect(res.body).not.toMatch(/SECRET|DATABASE|ADMIN_PASSWORD/i);
  });
});

describe('OpenAPI', () => {
  it('publishes an OpenAPI 3.1 document generated from the shared schemas', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/register', '/api/auth/signin', '/api/auth/me']));
    const register = doc.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'email', 'company', 'lhmpId', 'password']),
    );
    expect(JSON.stringify(doc)).not.toContain('passwordHash');
  });
});

describe('security headers', () => {
  it('sets CSP without inline script, HSTS, nosniff, referrer and permissions policies', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['permissions-policy']).toContain('microphone=(self)');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('marks authenticated answers no-store and keeps CORS closed', async () => {
    const m = await signedInMember(t.app);
    const res = await t.app.inject({ url: '/api/auth/me', headers: { ...m.auth, origin: 'https://evil.example' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/auth/me', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.statusCode).toBe(404);
  });

  it('answers unknown API paths and unused methods 404 with the error shape', async () => {
    const unknown = await t.app.inject({ url: '/api/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Not found' });
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/api/auth/me' });
    expect(wrongMethod.statusCode).toBe(404);
  });
});

describe('serving the built client', () => {
  it('serves hashed assets compressed with a long cache life', async () => {
    const br = await client.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await client.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('falls back to index.html for client routes, never for the API or missing files', async () => {
    const page = await client.app.inject({ url: '/health/get-care', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<div id="root">');
    expect((await client.app.inject({ url: '/api/missing' })).statusCode).toBe(404);
    expect((await client.app.inject({ url: '/assets/missing-123.js' })).statusCode).toBe(404);
  });
});

describe('readiness', () => {
  it('reports 503 when the database is unreachable', async () => {
    const broken = await createTestApp();
    await broken.database.close();
    const res = await broken.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
    await broken.app.close();
    await broken.database.dropDatabase();
  });
});

describe('client addresses behind a proxy', () => {
  it('ignores X-Forwarded-For unless the proxy is trusted, and then only its own hop', async () => {
    const attempt = (app: TestApp, forwarded: string) =>
      app.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'a@b.test', password: 'x' }, remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': forwarded } });
    const direct = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '2' } });
    const proxied = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '2', TRUST_PROXY: '1' } });
    try {
      // Not trusted: rotating a forged header does not escape the limit.
      const spoofed = [];
      for (let i = 0; i < 3; i += 1) spoofed.push((await attempt(direct, `198.51.100.${i}`)).statusCode);
      expect(spoofed).toEqual([401, 401, 429]);
      // One trusted hop: the address the proxy appended counts, not what the client wrote before it.
      const viaProxy = [];
      for (let i = 0; i < 3; i += 1) viaProxy.push((await attempt(proxied, `198.51.100.${i}, 203.0.113.9`)).statusCode);
      expect(viaProxy).toEqual([401, 401, 429]);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });
});
