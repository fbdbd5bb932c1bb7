import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/client';
import { addRefusedAttempts } from '../src/server/modules/auth/auth.repository';
import { createRefusedAttempts, refusedAttemptKey } from '../src/server/modules/auth/refused-attempts';
import { load, ratio, startApp, startBaseline } from './support';

const JSON_HEADERS = { 'content-type': 'application/json' };
const PASSWORD = 'sturdy passphrase long';

function newMember(suffix: string, i: number) {
  return {
    firstName: 'Bench',
    lastName: 'Member',
    email: `bench.${suffix}.${i}@bench.test`,
    company: `Bench Employer ${suffix}`,
    lhmpId: `LQ${String((Math.floor(Math.random() * 100_000) + i) % 100_000).padStart(5, '0')}`,
    password: PASSWORD,
  };
}

async function register(url: string, member: ReturnType<typeof newMember>): Promise<void> {
  for (let tries = 0; tries < 20; tries += 1) {
    const res = await fetch(`${url}/api/auth/register`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ ...member, lhmpId: tries ? `LQ${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}` : member.lhmpId }) });
    if (res.status === 201) return;
    if (res.status !== 409) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  }
  throw new Error('register failed: no free programme ID');
}

/** POST /api/auth/signin from a chosen local address (127.0.0.2 is another client to the server). */
function postSignIn(url: string, body: string, localAddress: string): Promise<{ status: number; retryAfter: number; body: string }> {
  const target = new URL('/api/auth/signin', url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', localAddress, headers: { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0), body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A person signing in: tries, and after a 503 waits out Retry-After and tries again. Milliseconds until signed in. */
async function realSignIn(url: string, credentials: string, localAddress: string): Promise<{ ms: number; tries: number; ok: boolean }> {
  const started = performance.now();
  for (let tries = 1; tries <= 10; tries += 1) {
    const res = await postSignIn(url, credentials, localAddress);
    if (res.status === 200) return { ms: Math.round(performance.now() - started), tries, ok: true };
    if (res.status !== 503 && res.status !== 429) return { ms: Math.round(performance.now() - started), tries, ok: false };
    await new Promise((r) => setTimeout(r, Math.max(1, res.retryAfter) * 1000));
  }
  return { ms: Math.round(performance.now() - started), tries: 10, ok: false };
}

interface FloodResult {
  requests: number;
  perSecond: number;
  statusCodes: Record<string, number>;
}

/** 16 clients (autocannon in its own process) sending sign-ins for ever-new unknown emails: every one that is admitted costs an argon2id check. */
function startFlood(url: string, seconds: number, connections = 16): Promise<FloodResult> {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/.bin/autocannon');
  const body = JSON.stringify({ email: `flood.[<id>]@bench.test`, password: 'wrong password 123' });
  const child = spawn(bin, ['-c', String(connections), '-d', String(seconds), '-m', 'POST', '-H', 'content-type=application/json', '-b', body, '-I', '-j', `${url}/api/auth/signin`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      try {
        const r = JSON.parse(out.trim().split('\n').at(-1)!) as { requests: { total: number; average: number }; statusCodeStats?: Record<string, { count: number }>; non2xx: number };
        const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
        resolve({ requests: r.requests.total, perSecond: Math.round(r.requests.average), statusCodes });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}

/**
 * Issue 14, overload: while 16 clients flood sign-in, a signed-in member's GET /api/auth/me
 * (at a steady 50 requests a second) and real sign-ins (a person who waits out Retry-After),
 * from another address (127.0.0.2) and from the flood's own address.
 */
export async function signInFlood(url: string, seconds = 12): Promise<Record<string, number | string>> {
  const suffix = randomUUID().slice(0, 8);
  const [viewer, person] = [newMember(suffix, 0), newMember(suffix, 1)];
  await register(url, viewer);
  await register(url, person);
  const signin = await fetch(`${url}/api/auth/signin`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: viewer.email, password: PASSWORD }) });
  if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${await signin.text()}`);
  const { token } = (await signin.json()) as { token: string };
  const credentials = JSON.stringify({ email: person.email, password: PASSWORD });

  // The same member's GET /api/auth/me with nothing else going on: the machine's own share of the figure.
  const quiet = await autocannon({ url: `${url}/api/auth/me`, headers: { authorization: `Bearer ${token}` }, connections: 2, overallRate: 50, duration: 5 });
  const flood = startFlood(url, seconds);
  await new Promise((r) => setTimeout(r, 1000));
  const me = autocannon({ url: `${url}/api/auth/me`, headers: { authorization: `Bearer ${token}` }, connections: 2, overallRate: 50, duration: seconds - 2 });
  const elsewhere: Awaited<ReturnType<typeof realSignIn>>[] = [];
  const sameAddress: Awaited<ReturnType<typeof realSignIn>>[] = [];
  for (let i = 0; i < 4; i += 1) {
    elsewhere.push(await realSignIn(url, credentials, '127.0.0.2'));
    sameAddress.push(await realSignIn(url, credentials, '127.0.0.1'));
    await new Promise((r) => setTimeout(r, 500));
  }
  const [floodResult, meResult] = await Promise.all([flood, me]);
  const summary = (xs: typeof elsewhere) => `${xs.map((x) => `${x.ok ? '' : 'FAILED '}${x.ms} ms/${x.tries}`).join(', ')} (max ${Math.max(...xs.map((x) => x.ms))} ms)`;
  return {
    'flood: sign-ins sent per second (16 connections)': floodResult.perSecond,
    'flood: answers by status': Object.entries(floodResult.statusCodes).map(([code, n]) => `${code}: ${n}`).join(', '),
    'GET /api/auth/me alone before (50 req/s): p50 / p99 ms': `${quiet.latency.p50} / ${quiet.latency.p99}`,
    'GET /api/auth/me meanwhile (50 req/s): p50 ms': meResult.latency.p50,
    'GET /api/auth/me meanwhile: p99 ms': meResult.latency.p99,
    'GET /api/auth/me meanwhile: max ms': meResult.latency.max,
    'GET /api/auth/me meanwhile: errors or non-2xx': meResult.errors + meResult.timeouts + meResult.non2xx,
    'real sign-in from another address: time to signed in / tries': summary(elsewhere),
    "real sign-in from the flood's address: time to signed in / tries": summary(sameAddress),
  };
}

/**
 * Issue 14, refused attempts: 16 clients over the per-IP limit for 5 s, and the login_audits
 * rows they add; then the cost of counting one refused attempt written through (an upsert
 * each) against counted in memory (refused-attempts.ts).
 */
export async function refusedFlood(): Promise<Record<string, number | string>> {
  const server = await startApp({ AUTH_RATE_LIMIT_PER_IP: '30' });
  try {
    const count = async () =>
      rowsOf<{ n: number; attempts: number }>(await server.database.db.execute(sql`select count(*)::int as n, coalesce(sum(attempts), 0)::int as attempts from login_audits`))[0]!;
    const before = await count();
    const flood = await load({
      url: `${server.url}/api/auth/signin`,
      connections: 16,
      duration: 5,
      requests: [{ method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: 'nobody@bench.test', password: 'wrong password 123' }) }],
    });
    await server.app.close();
    const after = await count();

    // Counting one refused attempt: an upsert each, against the in-memory count.
    const db = server.database.db;
    const row = { result: 'rate_limited' as const, ipMasked: '203.0.113.0/24', userAgentHash: 'bench', timestamp: new Date() };
    const n = 2000;
    let started = performance.now();
    const { key } = refusedAttemptKey(row, row.timestamp);
    for (let i = 0; i < n; i += 1) await addRefusedAttempts(db, { ...row, dedupKey: `${key}:through`, attempts: 1, lastAttemptAt: new Date() });
    const throughUs = ((performance.now() - started) * 1000) / n;
    const counter = createRefusedAttempts({ db, clock: () => new Date() });
    started = performance.now();
    for (let i = 0; i < n; i += 1) await counter.record({ ...row, timestamp: new Date() });
    await counter.close();
    const countedUs = ((performance.now() - started) * 1000) / n;
    return {
      'refused flood: answers per second (16 connections, 5 s)': flood.requestsPerSec,
      'refused flood: login_audits rows added': after.n - before.n,
      'refused flood: attempts counted on them': after.attempts - before.attempts,
      'one refused attempt written through (upsert each), µs': Math.round(throughUs),
      'one refused attempt counted in memory (first written, flushed at close), µs': Math.round(countedUs * 10) / 10,
    };
  } finally {
    await server.close().catch(() => undefined);
  }
}

/** Sign-ins per second, GET /api/auth/me against the bare node:http baseline, and the overload figures. */
export async function run(): Promise<Record<string, number | string>> {
  // Against a running server (the build, as `npm start` runs it): only the flood, nothing in-process.
  if (process.env.BENCH_URL) return { 'server': process.env.BENCH_URL, ...(await signInFlood(process.env.BENCH_URL.replace(/\/+$/, ''))) };
  const baseline = await startBaseline();
  const server = await startApp();
  const figures: Record<string, number | string> = {};
  try {
    const base = await load({ url: baseline.url });
    const suffix = randomUUID().slice(0, 8);
    const member = newMember(suffix, 0);
    await register(server.url, member);
    const signin = await fetch(`${server.url}/api/auth/signin`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: member.email, password: member.password }) });
    if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${await signin.text()}`);
    const { token } = (await signin.json()) as { token: string };

    const me = await load({ url: `${server.url}/api/auth/me`, headers: { authorization: `Bearer ${token}` } });
    // Sign-ins rotate over many accounts: one account's simultaneous attempts are capped by
    // the lockout guard, and this measures the hasher, not that guard. 6 connections: what the
    // hash pool holds on 2 cores (one per core, twice that waiting); more would be answered 503.
    const accounts: string[] = [];
    for (let i = 1; i <= 32; i += 1) {
      const account = newMember(suffix, i);
      await register(server.url, account);
      accounts.push(JSON.stringify({ email: account.email, password: account.password }));
    }
    let next = 0;
    const signins = await load({
      url: `${server.url}/api/auth/signin`,
      connections: 6,
      requests: [{ method: 'POST', headers: JSON_HEADERS, setupRequest: (req) => ({ ...req, body: accounts[(next += 1) % accounts.length] }) }],
    });
    Object.assign(figures, {
      'database': server.database.kind,
      'baseline node:http req/s': base.requestsPerSec,
      'GET /api/auth/me req/s': me.requestsPerSec,
      'GET /api/auth/me ratio to baseline': ratio(me.requestsPerSec, base.requestsPerSec),
      'GET /api/auth/me p99 ms': me.p99Ms,
      'GET /api/auth/me errors': me.errors + me.non2xx,
      'POST /api/auth/signin per second (argon2id m=19456,t=2)': signins.requestsPerSec,
      'POST /api/auth/signin p99 ms': signins.p99Ms,
      'POST /api/auth/signin errors': signins.errors + signins.non2xx,
    });
    Object.assign(figures, await signInFlood(server.url));
  } finally {
    await server.close();
    await baseline.close();
  }
  Object.assign(figures, await refusedFlood());
  return figures;
}

// `npx tsx bench/auth.ts URL`: the flood against a running server.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const url = process.argv[2];
  if (!url) throw new Error('usage: tsx bench/auth.ts http://127.0.0.1:3130');
  for (const [key, value] of Object.entries(await signInFlood(url.replace(/\/+$/, '')))) console.log(`  ${key}: ${value}`);
}
