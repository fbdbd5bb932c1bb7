import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/client';
import { load, ratio, startApp, startBaseline } from './support';

/**
 * The signed-in member's hot reads with the session cache on (the default) and off
 * (SESSION_CACHE_TTL_MS=0): GET /api/auth/me, GET /api/family-members (three family members)
 * and GET /api/members/me/profile, as throughput ratios to the bare node:http baseline, and the
 * SQL statements each request costs (counted by a drizzle logger on the app's handle).
 * PostgreSQL when DATABASE_URL is set, else the embedded database.
 */
export async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  const baseline = await startBaseline();
  try {
    for (const cache of ['on', 'off'] as const) {
      const server = await startApp(cache === 'off' ? { SESSION_CACHE_TTL_MS: '0' } : {});
      try {
        figures.database = server.database.kind;
        const statements = countStatements(server.database.db);
        const token = await memberWithFamily(server.url);
        const auth = { authorization: `Bearer ${token}` };
        for (const path of ['/api/auth/me', '/api/family-members', '/api/members/me/profile']) {
          await fetch(`${server.url}${path}`, { headers: auth });
          figures[`cache ${cache}: GET ${path} statements per request`] = await statements.perRequest(async () => {
            const res = await fetch(`${server.url}${path}`, { headers: auth });
            if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
          });
        }
        const base = await load({ url: baseline.url });
        for (const path of ['/api/auth/me', '/api/family-members']) {
          const res = await load({ url: `${server.url}${path}`, headers: auth });
          figures[`cache ${cache}: GET ${path} req/s`] = res.requestsPerSec;
          figures[`cache ${cache}: GET ${path} ratio to baseline (${base.requestsPerSec} req/s)`] = ratio(res.requestsPerSec, base.requestsPerSec);
          figures[`cache ${cache}: GET ${path} p99 ms`] = res.p99Ms;
          figures[`cache ${cache}: GET ${path} errors`] = res.errors + res.non2xx;
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await baseline.close();
  }
  return figures;
}

/** Registers, signs in and adds three family members; returns the bearer token. */
async function memberWithFamily(base: string): Promise<string> {
  const suffix = randomUUID().slice(0, 8);
  const member = {
    firstName: 'Bench',
    lastName: 'Member',
    email: `bench.members.${suffix}@bench.test`,
    company: `Bench Employer ${suffix}`,
    lhmpId: `LQ${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`,
    password: 'sturdy passphrase long',
  };
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const reg = await post('/api/auth/register', member);
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  const signin = await post('/api/auth/signin', { email: member.email, password: member.password });
  if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${await signin.text()}`);
  const { token } = (await signin.json()) as { token: string };
  for (const [i, relationship] of ['Spouse', 'Child', 'Child'].entries()) {
    const res = await post('/api/family-members', { firstName: `Kin${i}`, lastName: 'Bench', dob: `201${i}-05-0${i + 1}`, relationship }, token);
    if (res.status !== 201) throw new Error(`family member: ${res.status} ${await res.text()}`);
  }
  return token;
}

/** Counts what drizzle sends through `db` (set before the first request: prepared statements take the logger when built). */
function countStatements(db: Db) {
  let counting = false;
  let n = 0;
  const logger = { logQuery: () => void (counting && (n += 1)) };
  const session = (db as unknown as { session: { logger: unknown; options: { logger?: unknown } } }).session;
  session.logger = logger;
  session.options.logger = logger;
  return {
    /** Statements per call of `fn`, averaged over 100 calls in a row. */
    async perRequest(fn: () => Promise<void>): Promise<number> {
      n = 0;
      counting = true;
      try {
        for (let i = 0; i < 100; i += 1) await fn();
      } finally {
        counting = false;
      }
      return n / 100;
    },
  };
}
