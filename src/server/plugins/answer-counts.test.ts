import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { AnswerBook, LATENCY_BUCKETS, answerMetrics } from './answer-counts';

/** The same answers counted by prom-client's own counters and histogram, for comparison. */
async function native(answers: [method: string, route: string, status: number, seconds: number][]) {
  const registry = new Registry();
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const errors = new Counter({ name: 'http_errors_total', help: 'Answers with a 4xx (client) or 5xx (server) status', labelNames: ['method', 'route', 'status', 'class'], registers: [registry] });
  const latency = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer, by route pattern', labelNames: ['method', 'route'], buckets: [...LATENCY_BUCKETS], registers: [registry] });
  for (const [method, route, status, seconds] of answers) {
    requests.inc({ method, route, status: String(status) });
    if (status >= 400) errors.inc({ method, route, status: String(status), class: status >= 500 ? 'server' : 'client' });
    latency.observe({ method, route }, seconds);
  }
  return registry.metrics();
}

const lines = (text: string) => text.split('\n').filter(Boolean).sort();

describe('answer counts', () => {
  const answers: [string, string, number, number][] = [
    ['GET', '/api/auth/me', 200, 0.001],
    ['GET', '/api/auth/me', 200, 0.005], // on a bound: counted in that bucket, as prom-client does
    ['GET', '/api/auth/me', 401, 0.0051],
    ['PUT', '/api/family-members/:id', 400, 0.3],
    ['GET', '/api/family-members', 200, 12], // past the last bound: +Inf only
    ['GET', '/api/family-members', 503, 0.02],
  ];

  it("gives the same series, values and help as prom-client's own counters and histogram", async () => {
    const registry = new Registry();
    const book = new AnswerBook();
    answerMetrics(book, registry);
    for (const [method, route, status, seconds] of answers) book.for(method, route).record(status, seconds);
    expect(lines(await registry.metrics())).toEqual(lines(await native(answers)));
  });

  it('adds only what arrived since the last scrape, and keeps counts made directly on the counters', async () => {
    const registry = new Registry();
    const book = new AnswerBook();
    const { requests } = answerMetrics(book, registry);
    const me = book.for('GET', '/api/auth/me');
    me.record(200, 0.001);
    await registry.metrics();
    me.record(200, 0.002);
    requests.inc({ method: 'POST', route: '/api/auth/signin', status: '499' });
    const text = await registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/api/auth/me",status="200"} 2\n');
    expect(text).toContain('http_requests_total{method="POST",route="/api/auth/signin",status="499"} 1\n');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/api/auth/me"} 2\n');
    expect(book.for('GET', '/api/auth/me')).toBe(me);
  });
});
