import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, signedInAdmin, signedInMember } from './support/test-app';

let t: TestApp;
let client: TestApp;
const clientDir = mkdtempSync(path.join(tmpdir(), 'wellhaven-client-'));
const assetSource = `console.log(${JSON.stringify('x'.repeat(20_000))});`;
const signInTitles = { en: 'Sign In', es: 'Iniciar sesión' };
const drawnDocument = (language: string, title: string) =>
  `<!doctype html><html lang="${language}"><head><title>Wellhaven</title></head><body><div id="root"><main><h1>${title}</h1><!-- ${'screen '.repeat(60)} --></main></div></body></html>`;
const homeTitles = { en: 'Welcome back', es: 'Hola de nuevo' };

beforeAll(async () => {
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><html><head><title>Wellhaven</title><!-- ${'shell '.repeat(60)} --></head><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>`,
  );
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), assetSource);
  // The sign-in screen drawn into /login's documents at build (scripts/prerender.mjs), one per language.
  for (const [language, title] of Object.entries(signInTitles)) {
    writeFileSync(path.join(clientDir, `login.${language}.html`), drawnDocument(language, title));
  }
  // And Home into /home's, for a device that holds a session.
  for (const [language, title] of Object.entries(homeTitles)) {
    writeFileSync(path.join(clientDir, `home.${language}.html`), drawnDocument(language, title));
  }
  writeFileSync(path.join(clientDir, 'logo.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>`);
  // The build step, as `npm run build` runs it: a .br and a .gz next to every text file where smaller.
  execFileSync(process.execPath, [path.resolve('scripts/precompress.mjs'), clientDir]);
  // Written after it: a file with no compressed copy, which must then go out as it is.
  writeFileSync(path.join(clientDir, 'assets', 'late-def456.js'), `console.log(${JSON.stringify('y'.repeat(5_000))});`);
  t = await createTestApp({ env: { BRAND_NAME: 'Acme Wellness', BRAND_PRIMARY_COLOR: '#123456', HELP_VIDEO_IDS: 'abcdefgh,ijklmnop' } });
  client = await createTestApp({ env: { SERVE_CLIENT: '1', CLIENT_DIR: clientDir } });
});
afterAll(async () => {
  await t?.close();
  await client?.close();
});

/** The header set of every machine answer (JSON API, health, errors), value for value. */
const API_SET: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};
/** Headers that only mean something on an HTML document. */
const DOCUMENT_ONLY = ['referrer-policy', 'permissions-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

function expectApiHeaders(res: LightMyRequestResponse, where: string) {
  for (const [name, value] of Object.entries(API_SET)) expect(res.headers[name], `${where}: ${name}`).toBe(value);
  for (const name of DOCUMENT_ONLY) expect(res.headers[name], `${where}: ${name}`).toBeUndefined();
  expect(res.headers['x-request-id'], where).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers['access-control-allow-origin'], where).toBeUndefined();
}

function expectDocumentHeaders(res: LightMyRequestResponse, where: string) {
  const csp = res.headers['content-security-policy'] as string;
  expect(csp, where).toContain("default-src 'self'");
  expect(csp, where).toContain("script-src 'self'");
  expect(csp, where).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp, where).not.toContain('unsafe-eval');
  expect(csp, where).toContain("object-src 'none'");
  expect(csp, where).toContain("base-uri 'self'");
  expect(csp, where).toContain("frame-ancestors 'none'");
  expect(csp, where).toContain('frame-src https://www.youtube-nocookie.com');
  expect(res.headers['strict-transport-security'], where).toBe('max-age=31536000; includeSubDomains');
  expect(res.headers['x-content-type-options'], where).toBe('nosniff');
  expect(res.headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
  expect(res.headers['permissions-policy'], where).toBe('microphone=(self), camera=(), geolocation=(), payment=(), usb=(), interest-cohort=()');
  expect(res.headers['cross-origin-opener-policy'], where).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy'], where).toBe('same-origin');
  expect(res.headers['origin-agent-cluster'], where).toBe('?1');
  expect(res.headers['x-frame-options'], where).toBe('SAMEORIGIN');
  expect(res.headers['x-permitted-cross-domain-policies'], where).toBe('none');
  expect(res.headers['x-request-id'], where).toMatch(/^[0-9a-f-]{36}$/);
}

function expectAssetHeaders(res: LightMyRequestResponse, where: string) {
  expect(res.headers['x-content-type-options'], where).toBe('nosniff');
  expect(res.headers['cross-origin-resource-policy'], where).toBe('same-origin');
  expect(res.headers['strict-transport-security'], where).toBe('max-age=31536000; includeSubDomains');
  expect(res.headers['cache-control'], where).toBe('public, max-age=31536000, immutable');
  // A script or a stylesheet is not a document: none of the document's policies.
  expect(res.headers['content-security-policy'], where).toBeUndefined();
  for (const name of DOCUMENT_ONLY) expect(res.headers[name], `${where}: ${name}`).toBeUndefined();
  // Nor the request's id: a script never reports a problem, and each header is first-download weight.
  expect(res.headers['x-request-id'], where).toBeUndefined();
}

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

  it('sends the answer written at start as JSON, the same on every request', async () => {
    const [first, second] = [await t.app.inject({ url: '/api/config' }), await t.app.inject({ url: '/api/config' })];
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.body).toBe(first.body);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    const health = await t.app.inject({ url: '/healthz' });
    expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(health.body).toBe('{"status":"ok"}');
  });
});

describe('text the database cannot store', () => {
  it('is refused in a declared query, a body and a path parameter', async () => {
    const member = await signedInMember(t.app);
    const query = await t.app.inject({ url: '/api/popups/next?route=%00', headers: member.auth });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ code: 'validation', fields: { route: 'Text contains characters that are not allowed' } });
    const body = await t.app.inject({ method: 'POST', url: '/api/family-members', headers: member.auth, payload: { firstName: 'A\u0000' } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({ code: 'validation', fields: { firstName: 'Text contains characters that are not allowed' } });
    const param = await t.app.inject({ method: 'DELETE', url: '/api/family-members/%00', headers: member.auth });
    expect(param.statusCode).toBe(404);
  });

  it('is not looked for on a route that reads nothing the request carries', async () => {
    const member = await signedInMember(t.app);
    expect((await t.app.inject({ url: '/healthz?note=%00' })).statusCode).toBe(200);
    const me = await t.app.inject({ url: '/api/auth/me?note=%00', headers: member.auth });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { email: member.email } });
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

describe('compressed API answers', () => {
  it('compresses answers of 1 KiB or more for a client that accepts it, and leaves the small fixed ones plain', async () => {
    const accepts = { 'accept-encoding': 'br, gzip' };
    const doc = await t.app.inject({ url: '/api/openapi.json', headers: accepts });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(doc.headers.vary).toMatch(/accept-encoding/i);
    const member = await signedInMember(t.app);
    // The routes that skip the compression hooks (compress: false): their answers stay under the threshold.
    for (const [url, headers] of [
      ['/healthz', {}],
      ['/readyz', {}],
      ['/api/config', {}],
      ['/manifest.webmanifest', {}],
      ['/api/auth/me', member.auth],
    ] as const) {
      const res = await t.app.inject({ url, headers: { ...accepts, ...headers } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.rawPayload.length, url).toBeLessThan(1024);
    }
  });

  it('still reads a compressed request body on a route that takes one', async () => {
    const { gzipSync } = await import('node:zlib');
    const member = await signedInMember(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: member.email, password: member.password })),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String) });
  });
});

describe('security headers', () => {
  it('gives JSON answers the API set: nothing may run, load, be framed or be cached', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expectApiHeaders(res, 'GET /api/config');
    // The document's CSP (script-src 'self' and the rest) is for pages; a JSON answer allows nothing at all.
    expect(res.headers['content-security-policy']).not.toContain('script-src');
    for (const url of ['/healthz', '/readyz', '/api/openapi.json']) expectApiHeaders(await t.app.inject({ url }), `GET ${url}`);
    expectApiHeaders(await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' }), 'GET /metrics');
  });

  it('gives refusals and errors the API set too: 400, 401, 404, 429, and 404s outside /api', async () => {
    const m = await signedInMember(t.app);
    const answers: [string, LightMyRequestResponse, number][] = [
      ['bad body', await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'not an email' } }), 400],
      ['malformed JSON', await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'content-type': 'application/json' }, payload: '{' }), 400],
      ['no token', await t.app.inject({ url: '/api/auth/me' }), 401],
      ['bad token', await t.app.inject({ url: '/api/auth/me', headers: { authorization: 'Bearer x'.padEnd(40, 'y') } }), 401],
      ['unknown API path', await t.app.inject({ url: '/api/nope' }), 404],
      ['unknown member', await t.app.inject({ url: '/api/family-members/9b2f3c1e-0000-4000-8000-000000000000', headers: m.auth, method: 'DELETE' }), 404],
      ['well-known', await t.app.inject({ url: '/.well-known/security.txt' }), 404],
      ['unknown page, no client built', await t.app.inject({ url: '/home' }), 404],
      ['undecodable URL', await t.app.inject({ url: '/api/%E0%A4%A' }), 400],
    ];
    for (const [where, res, status] of answers) {
      expect(res.statusCode, where).toBe(status);
      expectApiHeaders(res, where);
    }
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1' } });
    try {
      const attempt = () => limited.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'a@b.test', password: 'not the password' } });
      expect((await attempt()).statusCode).toBe(401);
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      expectApiHeaders(refused, '429');
    } finally {
      await limited.close();
    }
  });

  it('marks authenticated answers no-store and keeps CORS closed', async () => {
    const m = await signedInMember(t.app);
    const res = await t.app.inject({ url: '/api/auth/me', headers: { ...m.auth, origin: 'https://evil.example' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expectApiHeaders(res, 'GET /api/auth/me');
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/auth/me', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.statusCode).toBe(404);
  });

  it('answers unknown API paths and unused methods 404 with the error shape', async () => {
    const unknown = await t.app.inject({ url: '/api/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Not found', code: 'not_found' });
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/api/auth/me' });
    expect(wrongMethod.statusCode).toBe(404);
  });

  it('gives HTML documents the full set: CSP without inline script, permissions, opener and the rest', async () => {
    for (const url of ['/', '/home', '/health/get-care?tab=1', '/index.html', '/logo.svg', '/assets/no-extension']) {
      const res = await client.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expectDocumentHeaders(res, `GET ${url}`);
    }
    // A JSON error from the client server is still an API answer.
    const missing = await client.app.inject({ url: '/assets/missing-123.js' });
    expect(missing.statusCode).toBe(404);
    expectApiHeaders(missing, 'GET /assets/missing-123.js');
    expectApiHeaders(await client.app.inject({ url: '/api/config' }), 'client GET /api/config');
  });

  it('gives hashed assets what a script needs: nosniff, CORP and a year-long immutable cache, not the document set', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const res = await client.app.inject({ url: '/assets/app-abc123.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
      expect(res.statusCode).toBe(200);
      expectAssetHeaders(res, `asset (${encoding ?? 'identity'})`);
      // The type RFC 9239 names, and no charset: each header is first-download weight.
      expect(res.headers['content-type'], `asset (${encoding ?? 'identity'})`).toBe('text/javascript');
    }
  });
});

describe('serving the built client', () => {
  const file = (name: string) => readFileSync(path.join(clientDir, name));

  it('writes a brotli and a gzip copy at build, only where smaller', () => {
    for (const name of ['assets/app-abc123.js', 'index.html', 'logo.svg']) {
      for (const ext of ['br', 'gz']) {
        const copy = `${name}.${ext}`;
        if (existsSync(path.join(clientDir, copy))) expect(file(copy).length, copy).toBeLessThan(file(name).length);
      }
    }
    expect(file('assets/app-abc123.js.br').length).toBeLessThan(file('assets/app-abc123.js.gz').length);
    expect(existsSync(path.join(clientDir, 'assets/late-def456.js.br'))).toBe(false);
  });

  it('serves the precompressed copy the client accepts, as it is, with a long cache life', async () => {
    const br = await client.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // Never revalidated nor asked for in parts: no validators, no ranges.
    expect([br.headers.etag, br.headers['last-modified'], br.headers['accept-ranges']]).toEqual([undefined, undefined, undefined]);
    expect(br.rawPayload.equals(file('assets/app-abc123.js.br'))).toBe(true);
    // A file that is not hashed is revalidated: it keeps its validator.
    const logo = await client.app.inject({ url: '/logo.svg' });
    expect(logo.headers['cache-control']).toBe('no-cache');
    expect(logo.headers.etag).toMatch(/^W\/"/);
    expect((await client.app.inject({ url: '/logo.svg', headers: { 'if-none-match': String(logo.headers.etag) } })).statusCode).toBe(304);
    const gz = await client.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(file('assets/app-abc123.js.gz'))).toBe(true);
    const plain = await client.app.inject({ url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(assetSource);
    const page = await client.app.inject({ url: '/home', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.rawPayload.equals(file('index.html.br'))).toBe(true);
  });

  it('never compresses a file per request, and never serves a compressed copy by its own name', async () => {
    const late = await client.app.inject({ url: '/assets/late-def456.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(late.statusCode).toBe(200);
    expect(late.headers['content-encoding']).toBeUndefined();
    expect(late.body).toBe(file('assets/late-def456.js').toString());
    expect((await client.app.inject({ url: '/assets/app-abc123.js.br' })).statusCode).toBe(404);
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

describe('/login with its screen drawn at build', () => {
  const file = (name: string) => readFileSync(path.join(clientDir, name));
  const login = (headers: Record<string, string> = {}, url = '/login') => client.app.inject({ url, headers: { accept: 'text/html', ...headers } });

  it("answers in the browser's language, or the device's saved choice (the app's cookie) before it", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'en'],
      [{ 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' }, 'es'],
      [{ 'accept-language': 'fr-FR,fr;q=0.9' }, 'en'],
      [{ 'accept-language': 'es', cookie: 'other=1; wellhaven-language=en' }, 'en'],
      [{ 'accept-language': 'en-US', cookie: 'wellhaven-language=es' }, 'es'],
      // A value that names no language is ignored, as the app ignores it.
      [{ 'accept-language': 'es', cookie: 'wellhaven-language=../../etc/passwd' }, 'es'],
      [{ cookie: 'wellhaven-language=de' }, 'en'],
    ];
    for (const [headers, language] of cases) {
      const res = await login(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.body, JSON.stringify(headers)).toBe(file(`login.${language}.html`).toString());
    }
    expect((await login({ 'accept-language': 'es' }, '/login?email=x')).body).toContain('Iniciar sesión');
  });

  it('is a document: the full header set, revalidated, varying by language, cookie and encoding, precompressed', async () => {
    const res = await login({ 'accept-encoding': 'br', 'accept-language': 'es' });
    expectDocumentHeaders(res, 'GET /login');
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary).toLowerCase().split(/,\s*/).sort()).toEqual(['accept-encoding', 'accept-language', 'cookie']);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.equals(file('login.es.html.br'))).toBe(true);
    const head = await client.app.inject({ method: 'HEAD', url: '/login' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('is the same public page for anonymous, member and admin callers: it holds nobody\'s data', async () => {
    const anonymous = await login();
    const member = await signedInMember(client.app);
    const admin = await signedInAdmin(client);
    for (const caller of [member, admin]) {
      const res = await login({ authorization: `Bearer ${caller.token}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(anonymous.body);
      expect(res.body).not.toContain(caller.email);
    }
  });

  it('is the plain app shell where the build drew no screen', async () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'wellhaven-client-'));
    writeFileSync(path.join(bare, 'index.html'), readFileSync(path.join(clientDir, 'index.html')));
    // One language's document alone is not enough: every language has one, or none is used.
    writeFileSync(path.join(bare, 'login.en.html'), drawnDocument('en', 'Sign In'));
    const shellOnly = await createTestApp({ env: { SERVE_CLIENT: '1', CLIENT_DIR: bare } });
    try {
      const res = await shellOnly.app.inject({ url: '/login', headers: { accept: 'text/html', 'accept-language': 'es' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(readFileSync(path.join(clientDir, 'index.html')).toString());
      expectDocumentHeaders(res, 'GET /login (shell)');
    } finally {
      await shellOnly.close();
    }
  });
});

describe('/home with its screen drawn at build', () => {
  const file = (name: string) => readFileSync(path.join(clientDir, name)).toString();
  const home = (headers: Record<string, string> = {}, url = '/home') => client.app.inject({ url, headers: { accept: 'text/html', ...headers } });

  it("is drawn for a device whose cookie says it holds a session, in that cookie's language; anyone else gets the app shell", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ cookie: 'wellhaven-signed-in=en' }, 'home.en.html'],
      [{ cookie: 'other=1; wellhaven-signed-in=es', 'accept-language': 'en' }, 'home.es.html'],
      // The browser's languages do not choose: the cookie holds the language the app's pages are in.
      [{ cookie: 'wellhaven-signed-in=en', 'accept-language': 'es' }, 'home.en.html'],
      // No session on the device, or a value that names no language: the shell, which leads to /login.
      [{}, 'index.html'],
      [{ 'accept-language': 'es' }, 'index.html'],
      [{ cookie: 'wellhaven-language=es' }, 'index.html'],
      [{ cookie: 'wellhaven-signed-in=' }, 'index.html'],
      [{ cookie: 'wellhaven-signed-in=../../etc/passwd' }, 'index.html'],
      [{ cookie: 'wellhaven-signed-in=de' }, 'index.html'],
    ];
    for (const [headers, document] of cases) {
      const res = await home(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.body, JSON.stringify(headers)).toBe(file(document));
      expectDocumentHeaders(res, `GET /home ${JSON.stringify(headers)}`);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers.vary).toLowerCase().split(/,\s*/).sort()).toEqual(['accept-encoding', 'cookie']);
    }
    expect((await home({ cookie: 'wellhaven-signed-in=es' }, '/home?from=install')).body).toBe(file('home.es.html'));
  });

  it('is precompressed, and answers HEAD', async () => {
    const res = await home({ 'accept-encoding': 'gzip', cookie: 'wellhaven-signed-in=es' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.equals(readFileSync(path.join(clientDir, 'home.es.html.gz')))).toBe(true);
    const head = await client.app.inject({ method: 'HEAD', url: '/home', headers: { cookie: 'wellhaven-signed-in=en' } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it("is the same page for anonymous, member and admin callers: it holds nobody's data and takes no token", async () => {
    const anonymous = await home({ cookie: 'wellhaven-signed-in=en' });
    const member = await signedInMember(client.app);
    const admin = await signedInAdmin(client);
    for (const caller of [member, admin]) {
      const res = await home({ cookie: 'wellhaven-signed-in=en', authorization: `Bearer ${caller.token}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(anonymous.body);
      expect(res.body).not.toContain(caller.email);
      // A token alone does not make it the drawn Home: the device's cookie does.
      expect((await home({ authorization: `Bearer ${caller.token}` })).body).toBe(file('index.html'));
    }
  });

  it('is the plain app shell where the build drew no Home', async () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'wellhaven-client-'));
    writeFileSync(path.join(bare, 'index.html'), file('index.html'));
    writeFileSync(path.join(bare, 'home.es.html'), drawnDocument('es', homeTitles.es));
    const shellOnly = await createTestApp({ env: { SERVE_CLIENT: '1', CLIENT_DIR: bare } });
    try {
      const res = await shellOnly.app.inject({ url: '/home', headers: { accept: 'text/html', cookie: 'wellhaven-signed-in=es' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(file('index.html'));
      expectDocumentHeaders(res, 'GET /home (shell)');
    } finally {
      await shellOnly.close();
    }
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
