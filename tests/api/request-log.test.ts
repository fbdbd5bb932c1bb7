/**
 * The per-request log lines: one access line per answer at info (what, how, how long, with
 * the request id), `incoming request` only at debug, and lines a handler writes through
 * `request.log` still redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './support/test-app';

let info: TestApp;
let debug: TestApp;

beforeAll(async () => {
  info = await createTestApp({
    beforeReady: (app) =>
      app.get('/probe', async (request) => {
        request.log.warn({ body: { password: 'hunter2-probe', email: 'a@b.test' } }, 'probe line');
        return { ok: true };
      }),
  });
  debug = await createTestApp({ env: { LOG_LEVEL: 'debug' } });
});
afterAll(async () => {
  await info?.close();
  await debug?.close();
});

const parsed = (logs: string[]) => logs.map((l) => JSON.parse(l) as Record<string, unknown> & { msg: string; reqId?: string });

describe('request log', () => {
  it('writes one access line per answer at info, with no query values', async () => {
    const before = info.logs.length;
    const res = await info.app.inject({ url: '/api/config?token=secret-value&x=1' });
    const lines = parsed(info.logs.slice(before));
    expect(lines.filter((l) => l.reqId === res.headers['x-request-id'])).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        pid: process.pid,
        hostname: expect.any(String),
        reqId: res.headers['x-request-id'],
        req: { method: 'GET', url: '/api/config?token=~&x=~' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
        msg: 'request completed',
      },
    ]);
    expect(info.logs.join('')).not.toContain('secret-value');
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });

  it('logs the arrival too at debug', async () => {
    const before = debug.logs.length;
    const res = await debug.app.inject({ url: '/healthz' });
    const mine = parsed(debug.logs.slice(before)).filter((l) => l.reqId === res.headers['x-request-id']);
    expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(mine[0]).toMatchObject({ level: 20, req: { method: 'GET', url: '/healthz', remoteAddress: '127.0.0.1' } });
  });

  it('still redacts what a handler logs through request.log, with its request id', async () => {
    const before = info.logs.length;
    const res = await info.app.inject({ url: '/probe' });
    const probe = parsed(info.logs.slice(before)).find((l) => l.msg === 'probe line');
    expect(probe).toMatchObject({ level: 40, reqId: res.headers['x-request-id'], body: { password: '[Redacted]', email: 'a@b.test' } });
    expect(info.logs.join('')).not.toContain('hunter2-probe');
  });
});
