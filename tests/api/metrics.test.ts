import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, asUser, createTestApp, registerMember, signedInMember } from './support/test-app';

let t: TestApp;
let wide: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  wide = await createTestApp({ env: { METRICS_ALLOW: '10.0.0.0/8, fd00::/8' } });
});
afterAll(async () => {
  await t?.close();
  await wide?.close();
});

const scrape = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) => app.app.inject({ url: '/metrics', remoteAddress, headers });

/** The value of one series in the exposition text, e.g. `http_requests_total{...}`. */
function valueOf(text: string, series: RegExp): number {
  const line = text.split('\n').find((l) => series.test(l));
  return line ? Number(line.split(' ').at(-1)) : Number.NaN;
}

describe('GET /metrics', () => {
  it('answers the loopback addresses by default, in the Prometheus text format, never cached', async () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await scrape(t, ip);
      expect(res.statusCode, ip).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('is a 404 for everyone else, whatever X-Forwarded-For claims', async () => {
    for (const ip of ['203.0.113.9', '10.1.2.3', '::2']) {
      const res = await scrape(t, ip, { 'x-forwarded-for': '127.0.0.1' });
      expect(res.statusCode, ip).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found', code: 'not_found' });
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('refuses a request relayed by a proxy on the same host (loopback socket, forwarding headers)', async () => {
    expect((await scrape(t, '127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(404);
    expect((await scrape(t, '127.0.0.1', { forwarded: 'for=203.0.113.5' })).statusCode).toBe(404);
    expect((await scrape(t, '127.0.0.1')).statusCode).toBe(200);
  });

  it('follows METRICS_ALLOW ranges', async () => {
    expect((await scrape(wide, '10.1.2.3')).statusCode).toBe(200);
    expect((await scrape(wide, 'fd00::7')).statusCode).toBe(200);
    expect((await scrape(wide, '127.0.0.1')).statusCode).toBe(404);
  });

  it('counts requests and errors per route pattern, with latency histograms', async () => {
    const m = await signedInMember(t.app);
    for (let i = 0; i < 3; i += 1) await t.app.inject(asUser(m.token, { url: '/api/auth/me' }));
    await t.app.inject(asUser(m.token, { method: 'PUT', url: '/api/family-members/9b2f3c1e-0000-4000-8000-000000000000', payload: {} }));
    await t.app.inject({ url: '/api/no/such/route/12345' });
    const text = (await scrape(t, '127.0.0.1')).body;
    expect(valueOf(text, /^http_requests_total\{method="GET",route="\/api\/auth\/me",status="200"\}/)).toBe(3);
    expect(valueOf(text, /^http_request_duration_seconds_count\{method="GET",route="\/api\/auth\/me"\}/)).toBe(3);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/auth\/me"\}/m);
    // The pattern, not the id: one series however many ids are asked for.
    expect(valueOf(text, /^http_errors_total\{method="PUT",route="\/api\/family-members\/:id",status="400",class="client"\}/)).toBe(1);
    expect(text).not.toContain('9b2f3c1e');
    expect(valueOf(text, /^http_requests_total\{method="GET",route="unmatched",status="404"\}/)).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/api/no/such/route');
    // Scrapes are not counted as traffic.
    expect(text).not.toMatch(/route="\/metrics"/);
  });

  it('counts sign-in outcomes, an unknown email as a bad password: the series never tell which emails have accounts', async () => {
    const before = (await scrape(t, '127.0.0.1')).body;
    const m = await registerMember(t.app);
    await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: m.password } });
    const delta = async (attempt: () => Promise<unknown>) => {
      const was = (await scrape(t, '127.0.0.1')).body;
      await attempt();
      const now = (await scrape(t, '127.0.0.1')).body;
      return Object.fromEntries(
        [...now.matchAll(/^auth_signin_total\{outcome="([a-z_]+)"\} (\d+)$/gm)].map(([, outcome, value]) => [outcome, Number(value) - valueOf(was, new RegExp(`^auth_signin_total\\{outcome="${outcome}"\\}`))]),
      );
    };
    const wrongPassword = await delta(() => t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: m.email, password: 'not the password' } }));
    const unknownEmail = await delta(() => t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: `nobody.${m.email}`, password: 'not the password' } }));
    // The same series move, by the same amount, whether the email exists or not.
    expect(wrongPassword).toEqual(unknownEmail);
    expect(wrongPassword.bad_password).toBe(1);
    const after = (await scrape(t, '127.0.0.1')).body;
    expect(valueOf(after, /^auth_signin_total\{outcome="success"\}/) - valueOf(before, /^auth_signin_total\{outcome="success"\}/)).toBe(1);
    expect(valueOf(after, /^auth_signin_total\{outcome="bad_password"\}/) - valueOf(before, /^auth_signin_total\{outcome="bad_password"\}/)).toBe(2);
    expect(after).not.toContain('unknown_email');
    expect(valueOf(after, /^auth_signin_total\{outcome="locked"\}/)).toBe(0);
  });

  it('reports the process, and the connection pool on PostgreSQL', async () => {
    const text = (await scrape(t, '127.0.0.1')).body;
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    if (t.database.kind === 'postgres') {
      expect(valueOf(text, /^db_pool_connections\{state="max"\}/)).toBe(5);
      expect(valueOf(text, /^db_pool_connections\{state="total"\}/)).toBeGreaterThanOrEqual(1);
      expect(text).toMatch(/^db_pool_waiting_requests 0$/m);
    } else {
      expect(text).not.toContain('db_pool_connections');
    }
  });
});
