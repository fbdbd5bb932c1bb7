// A load generator for an open model: requests arrive at evenly spaced times, at the offered rate,
// whether or not earlier answers have come back, and each latency is counted from the moment the
// request was due (so a server that falls behind is charged for the wait: no coordinated
// omission).
//
// autocannon's `overallRate` is not that: each connection sends its share for the second as
// fast as it can when the second starts, then waits for the next one, so every second begins
// with a burst of the whole second's requests and the p99 measures how long the burst takes to
// drain (it grew in proportion to the rate: p50 33 ms at 250 req/s, 137 ms at 1,000, on a
// server busy a fifth of the time at 250).
//
// The visits are autocannon request lists (`setupRequest`, `onResponse`, a context per visitor),
// so the same definitions drive both. A visitor walks its list one request at a time; a request
// that falls due goes to the next visitor not waiting on an answer (there are enough that one is
// always free unless the server falls far behind, and that wait counts in the latency).
import { Agent, request as httpRequest } from 'node:http';
import type autocannon from 'autocannon';

export interface OpenModelClass {
  name: string;
  /** Requests per second offered. */
  rate: number;
  requests: autocannon.Request[];
  /** Headers sent with every request of the class (each request's own win). */
  headers?: Record<string, string>;
  /** How many visitors walk the list side by side (default: enough for 2 s of requests). */
  visitors?: number;
}

export interface OpenModelResult {
  name: string;
  offered: number;
  sent: number;
  completed: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
  max: number;
}

interface Visitor {
  ctx: Record<string, unknown>;
  step: number;
  busy: boolean;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Offers every class at its rate for `seconds`, then waits (at most `timeoutMs`) for the answers. */
export async function openModel(url: string, classes: OpenModelClass[], seconds: number, timeoutMs = 10_000): Promise<OpenModelResult[]> {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const start = performance.now() + 50;
  const pending = new Set<Promise<void>>();

  const runs = classes.map((c) => {
    const visitors: Visitor[] = Array.from({ length: c.visitors ?? Math.max(8, Math.ceil(c.rate * 2)) }, () => ({ ctx: {}, step: 0, busy: false }));
    const latencies: number[] = [];
    const out = { name: c.name, offered: c.rate, sent: 0, completed: 0, errors: 0, non2xx: 0, latencies };
    let next = 0;
    const waiting: number[] = []; // due times of requests no visitor was free for

    const send = (visitor: Visitor, due: number) => {
      // A step whose setup returns null is skipped (autocannon's convention), as a visit would.
      for (let tries = 0; tries < c.requests.length; tries += 1) {
        const def = c.requests[visitor.step % c.requests.length]!;
        visitor.step += 1;
        const base0 = { method: def.method ?? 'GET', path: def.path ?? '/', headers: { ...c.headers, ...def.headers }, body: def.body };
        const setup = def.setupRequest as ((r: autocannon.Request, ctx: object) => autocannon.Request | null) | undefined;
        const req = (setup ? setup(base0 as autocannon.Request, visitor.ctx) : base0) as typeof base0 | null;
        if (!req) continue;
        visitor.busy = true;
        out.sent += 1;
        const body = typeof req.body === 'string' ? req.body : undefined;
        const headers: Record<string, string | number> = { ...(req.headers as Record<string, string>) };
        if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
        const done = new Promise<void>((resolve) => {
          let settled = false;
          // A response error can follow the request's own: each request is counted once.
          const finish = (status: number, text: string) => {
            if (settled) return;
            settled = true;
            latencies.push(performance.now() - due);
            out.completed += 1;
            if (status === 0) out.errors += 1;
            else if (status < 200 || status >= 300) out.non2xx += 1;
            else (def.onResponse as ((status: number, body: string, ctx: object) => void) | undefined)?.(status, text, visitor.ctx);
            visitor.busy = false;
            resolve();
            const queued = waiting.shift();
            if (queued !== undefined) send(visitor, queued);
          };
          const r = httpRequest({ host: base.hostname, port: base.port, method: req.method, path: req.path, headers, agent, timeout: timeoutMs }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString()));
            res.on('error', () => finish(0, ''));
          });
          r.on('timeout', () => r.destroy(new Error('timeout')));
          r.on('error', () => finish(0, ''));
          r.end(body);
        });
        pending.add(done);
        void done.then(() => pending.delete(done));
        return;
      }
    };

    /** Sends every request due by `now`: to a free visitor, or queued until one is free. */
    const tick = (now: number) => {
      const dueCount = Math.min(Math.floor(((now - start) / 1000) * c.rate) + 1, Math.floor(seconds * c.rate));
      while (next < dueCount) {
        const due = start + (next * 1000) / c.rate;
        next += 1;
        const free = visitors.find((v) => !v.busy);
        if (free) send(free, due);
        else waiting.push(due);
      }
    };
    return { out, tick };
  });

  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      for (const run of runs) run.tick(now);
      if (now - start >= seconds * 1000) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all([...pending]);
  agent.destroy();
  return runs.map(({ out }) => {
    const sorted = [...out.latencies].sort((a, b) => a - b);
    return { name: out.name, offered: out.offered, sent: out.sent, completed: out.completed, errors: out.errors, non2xx: out.non2xx, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
  });
}
