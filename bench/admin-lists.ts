// Admin lists at scale: p50/p95 of every admin call at 1,000 employers and 1,000,000 employees
// on PostgreSQL, next to the same statements timed in psql, and the seeding rate.
//
// The data comes from `npm run db:seed` into its own database (BENCH_ADMIN_DB, default
// wellhaven_bench) on BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// A database already seeded with the same parameters is reused (seeding takes minutes);
// BENCH_RESEED=1 seeds it again. BENCH_EXPLAIN=1 also prints EXPLAIN ANALYZE of each statement;
// BENCH_ONLY=text runs only the calls whose name contains it.
import { spawn, spawnSync } from 'node:child_process';
import pg from 'pg';
import { openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { ensureAdmin } from '../src/server/modules/auth/admin-bootstrap';
import { findUserIdByEmail } from '../src/server/modules/auth/auth.repository';
import { clearMfa } from '../src/server/modules/auth/mfa.repository';
import { elevatedAdminToken } from '../tests/faults/admin-factor';

const EMPLOYERS = 1000;
const EMPLOYEES = 1_000_000;
const SEED = 42;
const NOW = '2026-03-01T00:00:00Z';
const REPEAT = Number(process.env.BENCH_REPEAT ?? 40);
const PSQL_REPEAT = 15;
const ADMIN = { email: 'bench-admin@bench.example', password: 'Sturdy-keeper-passphrase-1' };

const serverUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = process.env.BENCH_ADMIN_DB ?? 'wellhaven_bench';
const dbUrl = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

interface SeedRun {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  vacuumSeconds: number;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Seeds the bench database with the real command unless an identical seed is already there. */
async function ensureSeeded(): Promise<SeedRun & { reused: boolean }> {
  const exists = (await query<{ n: number }>(serverUrl, 'select count(*)::int as n from pg_database where datname = $1', [dbName]))[0]!.n > 0;
  if (exists && process.env.BENCH_RESEED !== '1') {
    const runs = await query<{ info: SeedRun & { employers: number; employees: number; seed: number } }>(
      dbUrl,
      `select info from bench_seed_runs order by at desc limit 1`,
    ).catch(() => []);
    const last = runs[0]?.info;
    if (last && last.employers === EMPLOYERS && last.employees === EMPLOYEES && last.seed === SEED) return { ...last, reused: true };
  }
  if (exists) await query(serverUrl, `drop database ${dbName} with (force)`);
  await query(serverUrl, `create database ${dbName}`);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'db:seed', '--', '--employers', String(EMPLOYERS), '--employees', String(EMPLOYEES), '--seed', String(SEED), '--now', NOW], {
      env: { ...process.env, DATABASE_URL: dbUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`db:seed exited with ${code}: ${stdout}`))));
  });
  const num = (re: RegExp) => Number((re.exec(out)?.[1] ?? 'NaN').replace(/,/g, ''));
  const run: SeedRun = {
    seconds: num(/Seeded in ([\d.]+) s/),
    rows: num(/s: ([\d,]+) rows/),
    rowsPerSecond: num(/rows, ([\d,]+) rows\/s/),
    vacuumSeconds: num(/vacuum analyze ([\d.]+) s/),
  };
  await query(dbUrl, 'create table if not exists bench_seed_runs (at timestamptz primary key default now(), info jsonb not null)');
  await query(dbUrl, 'insert into bench_seed_runs (info) values ($1)', [JSON.stringify({ ...run, employers: EMPLOYERS, employees: EMPLOYEES, seed: SEED })]);
  return { ...run, reused: false };
}

/** Every statement the app sends while `capturing` (drizzle's node-postgres driver goes through Pool#query). */
const captured: { text: string; values: unknown[] }[] = [];
let capturing = false;
const originalQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function patched(this: pg.Pool, ...args: unknown[]) {
  if (capturing) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (typeof first === 'string') captured.push({ text: first, values: second ?? [] });
    else captured.push({ text: first.text, values: first.values ?? second ?? [] });
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Pool.prototype.query;

const literal = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const s = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return `'${s.replace(/'/g, "''")}'`;
};

/** Median psql time of one statement, run as a prepared statement like the driver does. */
function psqlMs(statement: { text: string; values: unknown[] }): number {
  // Unnamed statements (what node-postgres sends) are planned with their values every time;
  // force_custom_plan makes psql's prepared statement do the same; and no parallel workers, as
  // the app's pool (src/db/client.ts).
  const lines = ['\\set ON_ERROR_STOP 1', 'SET plan_cache_mode = force_custom_plan;', 'SET max_parallel_workers_per_gather = 0;', `PREPARE bench_q AS ${statement.text};`, '\\o /dev/null', '\\timing on', '\\echo BENCH_START'];
  const exec = statement.values.length > 0 ? `EXECUTE bench_q(${statement.values.map(literal).join(', ')});` : 'EXECUTE bench_q;';
  for (let i = 0; i < PSQL_REPEAT; i += 1) lines.push(exec);
  const res = spawnSync('psql', ['-X', '-q', dbUrl], { input: lines.join('\n'), encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`psql failed: ${res.stderr}`);
  const after = res.stdout.split('BENCH_START')[1] ?? '';
  const times = [...after.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
  // The first execution plans the statement (custom plan); the rest are what a warm app sees.
  return percentile(times.slice(1), 50);
}

/** EXPLAIN ANALYZE through node-postgres with the same parameters, so the plan is the app's. */
async function explain(statement: { text: string; values: unknown[] }): Promise<string> {
  const rows = await query<{ 'QUERY PLAN': string }>(dbUrl, `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`, statement.values);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
const round = (n: number) => Math.round(n * 10) / 10;

export async function run(): Promise<Record<string, number | string>> {
  const seedRun = await ensureSeeded();
  const database = await openDatabase({ databaseUrl: dbUrl, poolMax: 4 });
  await database.migrate();
  await ensureAdmin(database.db, { ...ADMIN, companyName: 'Program Administration', brandName: 'Wellhaven' });
  // The bench database outlives a run, and with it the admin's second factor from the last one: start without.
  const benchAdmin = await findUserIdByEmail(database.db, ADMIN.email);
  if (benchAdmin) await clearMfa(database.db, benchAdmin.id);
  const config = loadConfig({ NODE_ENV: 'production', SERVE_CLIENT: '0', LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_IP: '100000000' });
  const app = await buildApp({ config, database });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const figures: Record<string, number | string> = {};
  try {
    // Sign-in, Admin Access and its second factor: the new token it hands out is the elevated one.
    const auth = { authorization: `Bearer ${await elevatedAdminToken(base, ADMIN)}` };

    const get = async (path: string) => {
      const res = await fetch(base + path, { headers: auth });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const { employers } = (await get('/api/admin/employers')) as { employers: { id: string; name: string; employees: number }[] };
    const bySize = [...employers].sort((a, b) => b.employees - a.employees);
    const largest = bySize[0]!;
    const median = bySize[Math.floor(bySize.length / 2)]!;
    const lastPage = Math.ceil(largest.employees / 25);
    const enrolledTotal = ((await get(`/api/admin/employers/${largest.id}/employees?status=enrolled`)) as { pagination: { totalPages: number } }).pagination.totalPages;
    const someone = (await get(`/api/admin/employers/${largest.id}/employees?status=enrolled&search=garcia`)) as { employees: { id: string; email: string; familyMemberCount: number }[] };
    const person = someone.employees.find((e) => e.familyMemberCount > 0) ?? someone.employees[0]!;
    const emp = (id: string, q = '') => `/api/admin/employers/${id}/employees${q}`;

    const calls: [string, string][] = [
      ['employers, by name', '/api/admin/employers'],
      ['employers, by last activity desc', '/api/admin/employers?sortBy=lastActivity&sortOrder=desc'],
      ['employers, search "health"', '/api/admin/employers?search=health'],
      ['employer detail', `/api/admin/employers/${largest.id}`],
      [`employees of the largest (${largest.employees}), page 1`, emp(largest.id)],
      [`employees of the largest, last page (${lastPage})`, emp(largest.id, `?page=${lastPage}`)],
      ['employees of the largest, enrolled, last page', emp(largest.id, `?status=enrolled&page=${enrolledTotal}`)],
      ['employees of the largest, verified, page 1', emp(largest.id, '?status=verified')],
      ['employees of the largest, search "garcia"', emp(largest.id, '?search=garcia')],
      ['employees of the largest, search "ar" (2 letters)', emp(largest.id, '?search=ar')],
      // Short terms (docs/decisions/admin-search-short-terms.md): one that few match is looked
      // up by its pairs after the first 8,000 rows in list order give fewer than 1,001 matches;
      // one that every employee matches (the email domain) stops at the 1,001st; one that about
      // one row in eight matches needs a second read; a single letter is looked up as a character.
      ['employees of the largest, search "zh" (2 letters, few match)', emp(largest.id, '?search=zh')],
      ['employees of the largest, search "no" (2 letters, every one matches)', emp(largest.id, '?search=no')],
      ['employees of the largest, search "oh" (2 letters, one in eight)', emp(largest.id, '?search=oh')],
      ['employees of the largest, search "q" (1 letter, none match)', emp(largest.id, '?search=q')],
      // Matches that sort late: "u" has 935 of its 12,969 in the first 8,000 rows (it is read
      // again, further), "ez" none of its 6,953 (the grams read sorts them all).
      ['employees of the largest, search "u" (1 letter, late in list order)', emp(largest.id, '?search=u')],
      ['employees of the largest, search "ez" (2 letters, late in list order)', emp(largest.id, '?search=ez')],
      ['employees of the largest, search an email', emp(largest.id, `?search=${encodeURIComponent(person.email)}`)],
      ['employees of the largest, search "la0" (programme IDs)', emp(largest.id, '?search=la0&status=enrolled')],
      [`employees of a median employer (${median.employees}), page 1`, emp(median.id)],
      ['employees of a median employer, search "son"', emp(median.id, '?search=son')],
      ['employee detail (audited)', `/api/admin/employees/${person.id}`],
    ];

    const only = process.env.BENCH_ONLY;
    for (const [name, path] of calls.filter(([n]) => !only || n.includes(only))) {
      for (let i = 0; i < 3; i += 1) await get(path); // warm-up
      const times: number[] = [];
      for (let i = 0; i < REPEAT; i += 1) {
        const t0 = performance.now();
        await get(path);
        times.push(performance.now() - t0);
      }
      captured.length = 0;
      capturing = true;
      await get(path);
      capturing = false;
      // The session lookup belongs to every call; psql times the admin statements themselves.
      const statements = captured.filter((s) => !/"sessions"/.test(s.text));
      const psql = statements.reduce((sum, s) => sum + psqlMs(s), 0);
      figures[`${name}: p50 / p95 / psql ms`] = `${round(percentile(times, 50))} / ${round(percentile(times, 95))} / ${round(psql)} (${statements.length} statement${statements.length === 1 ? '' : 's'})`;
      if (process.env.BENCH_EXPLAIN === '1') {
        console.log(`\n### ${name}\n${path}`);
        for (const s of statements) console.log(`${s.text}\n${await explain(s)}\n`);
      }
    }
    figures['seeding rows per second'] = seedRun.rowsPerSecond;
    figures['seeding'] = `${seedRun.rows.toLocaleString('en-US')} rows in ${seedRun.seconds} s (+ vacuum analyze ${seedRun.vacuumSeconds} s)${seedRun.reused ? ', measured when the bench database was seeded' : ''}`;
    figures['data'] = `${employers.length} employers, ${employers.reduce((n, e) => n + e.employees, 0).toLocaleString('en-US')} employees; largest ${largest.employees}, median ${median.employees}`;
  } finally {
    await app.close();
    await database.close();
    pg.Pool.prototype.query = originalQuery;
  }
  return figures;
}
