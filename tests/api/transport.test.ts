/**
 * The HTTP transport against a real listening server and raw sockets: slow bodies and slow
 * headers are cut (timeouts shrunk to a second here, so nothing waits long), a client that
 * goes away mid-body is logged as what it is, and the production timeouts are what config says.
 */
import { type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { registerBodyDeadline, serverTimeouts } from '../../src/server/plugins/transport';
import { type TestApp, createTestApp } from './support/test-app';

const REQUEST_TIMEOUT_MS = 1000;
const HEADERS_TIMEOUT_MS = 600;

let t: TestApp;
let port: number;
/** Requests the app has begun (after their headers), by URL. */
const arrived: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), CONNECTION_TIMEOUT_MS: '60000' },
    beforeReady: (app) =>
      app.addHook('onRequest', (request, _reply, done) => {
        arrived.push(request.url);
        done();
      }),
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

interface Exchange {
  socket: Socket;
  /** Everything the server wrote, as text. */
  received(): string;
  /** Resolves when the server closes the connection, with the milliseconds since it opened. */
  closed: Promise<number>;
}

function open(to = port): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    const started = Date.now();
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)));
    socket.once('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Sends one byte at every tick until the socket closes: a body that never stalls long enough to look idle. */
function trickle(socket: Socket, everyMs: number) {
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write('x');
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

const lineWith = (logs: string[], text: string) => logs.find((l) => l.includes(text));

describe('slow clients', () => {
  it('cuts a body sent a byte at a time, with a 408, once REQUEST_TIMEOUT_MS has passed', async () => {
    const c = await open();
    c.socket.write('POST /api/auth/signin HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{');
    trickle(c.socket, 100);
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(c.received()).toContain('{"error":"Request timed out","code":"request_timeout"}');
    await vi.waitFor(() => expect(lineWith(t.logs, 'request body too slow')).toBeDefined());
    expect(t.logs.some((l) => l.includes('database unavailable'))).toBe(false);
    const metrics = (await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    expect(metrics).toMatch(/^http_errors_total\{method="POST",route="\/api\/auth\/signin",status="408",class="client"\} 1$/m);
  });

  it('cuts the body after an early refusal too: a 401 does not keep the connection open for the rest', async () => {
    const c = await open();
    c.socket.write('POST /api/family-members HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{');
    trickle(c.socket, 100);
    const ms = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
  });

  it('cuts an anonymous slow upload to the roster URL like any other: its longer pace is for admins it let in', async () => {
    const c = await open();
    c.socket.write('POST /api/admin/employers/9b2f3c1e-0000-4000-8000-000000000000/roster HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\nContent-Length: 100000\r\n\r\nemployee_id');
    trickle(c.socket, 100);
    const ms = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
  });

  it('cuts headers that never end, after HEADERS_TIMEOUT_MS', async () => {
    const c = await open();
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    trickle(c.socket, 100);
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('leaves a request that arrives in time alone, and the connection open for the next', async () => {
    const c = await open();
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    c.socket.write(`POST /api/auth/signin HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await vi.waitFor(() => expect(c.received()).toMatch(/\r\n\r\n\{"error":/));
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(c.socket.destroyed).toBe(false);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await c.closed;
    expect(c.received()).toContain('{"status":"ok"}');
  });
});

describe('a client that goes away mid-body', () => {
  it('is logged as a client abort (info), not as the database being down, and counted as a 499', async () => {
    const c = await open();
    const count = arrived.length;
    c.socket.write('POST /api/auth/signin?abort=1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"a');
    // The server has the request (its headers) before the client leaves.
    await vi.waitFor(() => expect(arrived.slice(count)).toContain('/api/auth/signin?abort=1'));
    const before = t.logs.length;
    c.socket.destroy();
    await vi.waitFor(() => expect(lineWith(t.logs.slice(before), 'client aborted the request')).toBeDefined());
    const line = JSON.parse(lineWith(t.logs.slice(before), 'client aborted the request')!) as { level: number };
    expect(line.level).toBe(30);
    const later = t.logs.slice(before);
    expect(later.some((l) => l.includes('database unavailable'))).toBe(false);
    expect(later.some((l) => (JSON.parse(l) as { level: number }).level >= 50)).toBe(false);
    const metrics = (await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    expect(metrics).toMatch(/^http_errors_total\{method="POST",route="\/api\/auth\/signin",status="499",class="client"\} 1$/m);
    expect(metrics).not.toMatch(/route="\/api\/auth\/signin",status="5\d\d"/);
  });
});

describe('routes that watch their own uploads', () => {
  it('keep a slow upload past REQUEST_TIMEOUT_MS, once their guards let it in', async () => {
    // A route with a larger body limit (the roster upload) paces its upload itself.
    const app = Fastify();
    registerBodyDeadline(app, { REQUEST_TIMEOUT_MS: 200, BODY_LIMIT_BYTES: 1024 });
    app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.post('/upload', { bodyLimit: 1024 * 1024 }, async (request) => ({ bytes: (request.body as string).length }));
    app.post('/small', async (request) => ({ bytes: (request.body as string).length }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const to = (app.server.address() as AddressInfo).port;
    try {
      const upload = await open(to);
      upload.socket.write('POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\nContent-Length: 8\r\nConnection: close\r\n\r\n');
      // Eight bytes, one every 100 ms: 800 ms, four times the deadline.
      let sent = 0;
      const timer = setInterval(() => {
        upload.socket.write('a');
        sent += 1;
        if (sent === 8) clearInterval(timer);
      }, 100);
      const took = await upload.closed;
      expect(took).toBeGreaterThan(700);
      expect(upload.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(upload.received()).toContain('{"bytes":8}');

      const small = await open(to);
      small.socket.write('POST /small HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\nContent-Length: 8\r\n\r\n');
      trickle(small.socket, 100);
      await small.closed;
      expect(small.received()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await app.close();
    }
  });
});

describe('production timeouts', () => {
  it('default to headers in 10 s, bodies in 20 s, 60 s of silence, 72 s keep-alive; Node checks every second', async () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ REQUEST_TIMEOUT_MS: 20_000, HEADERS_TIMEOUT_MS: 10_000, CONNECTION_TIMEOUT_MS: 60_000, KEEP_ALIVE_TIMEOUT_MS: 72_000 });
    const options = serverTimeouts(config);
    expect(options.http.headersTimeout).toBe(10_000);
    expect(options.http.connectionsCheckingInterval).toBe(1000);
    // Node's own request deadline is only a backstop above the roster upload's 5 minutes.
    expect(options.requestTimeout).toBeGreaterThan(5 * 60_000);
    const app = Fastify(options);
    await app.ready();
    expect(app.server.headersTimeout).toBe(10_000);
    expect(app.server.timeout).toBe(60_000);
    expect(app.server.keepAliveTimeout).toBe(72_000);
    expect(app.server.requestTimeout).toBe(options.requestTimeout);
    await app.close();
  });

  it('apply to the app the config describes', () => {
    expect(t.app.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(t.app.server.timeout).toBe(60_000);
  });
});
