// `npm run bench -- load`: a mixed workload on PostgreSQL with several hundred connections
// at once, for a bounded time, next to the bare node:http baseline measured in the same run:
//   - members (300 connections), each cycle a member's visit: Home (config, me, the login
//     popup), family list, an edit, an add and its delete, a snooze (or, at the limit, a
//     completion) and the active popups;
//   - sign-ins (16 connections), real argon2id verifications;
//   - admins (24 connections): employer search, employee pages, an audited employee view,
//     the popup list.
// Then GET /api/auth/me alone, and again while sign-ins saturate the password hasher.
// Then the open model: the same visits offered at fixed rates, requests evenly spaced
// (bench/open-model.ts; 90% member requests, 9.5% admin requests, the rest sign-ins), each rate for
// LOAD_OPEN_SECONDS (default 8): achieved rate, p99 per class, errors, and the highest
// offered rate whose p99 (members and admins) stays under 250 ms.
// LOAD_DATABASE=embedded runs it all on the embedded default (PGlite in a scratch DATA_DIR).
// Zero errors is the bar: transport errors, timeouts and non-2xx answers are all counted.
//
// The server runs as its own process (the built bundle), as deployed, so the load generator
// does not share its event loop.
// LOAD_NODE_OPTIONS goes to the server's NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=<dir>` profiles
// it under the whole run (the open model is the profile's last LOAD_OPEN_SECONDS per rate).
// LOAD_SECONDS (default 10), LOAD_MEMBERS_CONNECTIONS (300); PostgreSQL is the server
// DATABASE_URL names (default the local one), in a scratch database dropped afterwards.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { companies, participants, sessions, users } from '../src/db/schema';
import { sha256Hex } from '../src/server/lib/crypto';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { readSessionTokens } from '../src/server/modules/auth/session-tokens';
import { buildServer, startServer } from '../tests/faults/support';
import { openModel } from './open-model';
import { createScratchDatabase, load, ratio, startBaseline } from './support';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const MEMBER_CONNECTIONS = Number(process.env.LOAD_MEMBERS_CONNECTIONS ?? 300);
const SIGNIN_CONNECTIONS = 16;
const ADMIN_CONNECTIONS = 24;
const MEMBERS = 200;
const COMPANIES = 20;
const POPUPS = 8;
const MAX_SNOOZES = 10;
const PASSWORD = 'load test passphrase';
/** Within the ports of the hardening scripts (4205-4215). */
const PORT = 4210;
const EMBEDDED = process.env.LOAD_DATABASE === 'embedded';
const OPEN_SECONDS = Number(process.env.LOAD_OPEN_SECONDS ?? 8);
const OPEN_RATES = (process.env.LOAD_OPEN_RATES ?? (EMBEDDED ? '100,200,300,400,500' : '250,500,750,1000,1250,1500,2000'))
  .split(',')
  .map(Number);
/** The p99 an offered rate must keep to count as sustained. */
const OPEN_P99_LIMIT_MS = 250;

interface Member {
  id: string;
  email: string;
  token: string;
  family: string[];
}

interface ClassResult {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
}

function summarize(name: string, connections: number, r: autocannon.Result): ClassResult {
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries((r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {})) statuses[code] = stat.count;
  return {
    name,
    connections,
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    statuses,
  };
}

/** Mean time per route pattern, from the app's own Prometheus histogram. */
async function routeLatencies(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^http_request_duration_seconds_(sum|count)\{method="(\w+)",route="([^"]+)"\} (\S+)$/.exec(line);
    if (!m) continue;
    (m[1] === 'sum' ? sums : counts).set(`${m[2]} ${m[3]}`, Number(m[4]));
  }
  return [...sums.entries()]
    .map(([route, sum]) => ({ route, mean: (sum / (counts.get(route) ?? 1)) * 1000 }))
    .sort((a, b) => b.mean - a.mean)
    .slice(0, 4)
    .map((r) => `${r.route} ${Math.round(r.mean)}`)
    .join('; ');
}

export async function run(): Promise<Record<string, number | string>> {
  const dataDir = EMBEDDED ? await mkdtemp(path.join(tmpdir(), 'wellhaven-load-')) : null;
  const scratch = dataDir
    ? { url: '', drop: () => rm(dataDir, { recursive: true, force: true }) }
    : await createScratchDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  let database = await openDatabase(dataDir ? { dataDir } : { databaseUrl: scratch.url, poolMax: 4 });
  await database.migrate();
  // The server in a process of its own, as deployed: the load generator must not share its event loop.
  // The sign-in share (16, then 32 connections) waits for the hash pool here instead of being
  // answered 503 past its default queue (twice the cores): this run measures the mixed
  // workload with zero errors, not load shedding (bench/auth.ts floods sign-in for that).
  // The default log level (info: one access line per request), as `npm start` runs it. Each
  // member is offered popups/next more often than a person would (about once a second at the
  // highest rates), so its per-member limit is raised for the bench.
  const serverEnv = {
    ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: scratch.url, DB_POOL_MAX: '20' }),
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT_PER_IP: '100000000',
    PASSWORD_HASH_QUEUE: '64',
    POPUPS_NEXT_RATE_LIMIT_PER_MINUTE: '100000',
    ...(process.env.LOAD_NODE_OPTIONS ? { NODE_OPTIONS: process.env.LOAD_NODE_OPTIONS } : {}),
  };
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const baseline = await startBaseline();
  try {
    // Members, employers and sessions straight into the database (one password hash for all).
    const db = database.db;
    const hash = await hashPassword(PASSWORD);
    const now = new Date();
    const companyRows = await db
      .insert(companies)
      .values(Array.from({ length: COMPANIES }, (_, i) => ({ name: `Load Employer ${i} ${randomUUID().slice(0, 6)}` })))
      .returning({ id: companies.id });
    const userRows = await db
      .insert(users)
      .values(
        Array.from({ length: MEMBERS + 1 }, (_, i) => ({
          firstName: i === MEMBERS ? 'Load' : `Member${i}`,
          lastName: i === MEMBERS ? 'Admin' : 'Load',
          email: i === MEMBERS ? `load.admin.${randomUUID().slice(0, 6)}@example.test` : `load.member${i}.${randomUUID().slice(0, 6)}@example.test`,
          companyId: companyRows[i % COMPANIES]!.id,
          lhmpId: `LQ${String(10_000 + i).padStart(5, '0')}`,
          passwordHash: hash,
          role: i === MEMBERS ? ('admin' as const) : ('member' as const),
        })),
      )
      .returning({ id: users.id, email: users.email });
    await db.insert(participants).values(userRows.map((u) => ({ userId: u.id, enrolledAt: now })));
    const sessionTokens = await readSessionTokens(db);
    const tokens = userRows.map(() => sessionTokens.mint());
    await db.insert(sessions).values(
      userRows.map((u, i) => ({
        userId: u.id,
        tokenHash: sha256Hex(tokens[i]!),
        signed: true,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + 3_600_000),
        adminElevatedAt: i === MEMBERS ? now : null,
      })),
    );
    const adminToken = tokens[MEMBERS]!;
    // The embedded database has one owner: the seed lets go before the server opens it.
    if (dataDir) await database.close();
    server = await startServer(await buildServer(), PORT, serverEnv);
    const url = server.url;
    const serverOutput = server.output;
    const members: Member[] = userRows.slice(0, MEMBERS).map((u, i) => ({ id: u.id, email: u.email, token: tokens[i]!, family: [] }));

    const api = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const popupIds: string[] = [];
    for (let i = 0; i < POPUPS; i += 1) {
      const p = await api('POST', '/api/admin/popups', adminToken, {
        title: `Load popup ${i}`,
        message: 'Time for a check-in',
        target: 'home',
        startAt: new Date(now.getTime() - 3_600_000).toISOString(),
        endAt: new Date(now.getTime() + 86_400_000).toISOString(),
        isActive: true,
        maxSnoozes: MAX_SNOOZES,
        priority: 1 + (i % 10),
      });
      popupIds.push(p.id as string);
    }
    for (const m of members) {
      for (const relationship of ['Spouse', 'Child']) {
        const f = await api('POST', '/api/family-members', m.token, { firstName: 'Family', lastName: 'Load', dob: '2001-02-03', relationship });
        m.family.push(f.id as string);
      }
    }

    // Per member and popup: snooze while under the limit, then complete (idempotent): all 2xx.
    const snoozes = new Map<string, number>();
    let nextMember = 0;
    type Ctx = { m?: Member; created?: string };
    const as = (req: autocannon.Request, m: Member, extra: Partial<autocannon.Request> = {}) => ({ ...req, ...extra, headers: { ...req.headers, authorization: `Bearer ${m.token}`, ...(extra.body ? { 'content-type': 'application/json' } : {}) } });
    const memberVisit: autocannon.Request[] = [
      {
        method: 'GET',
        path: '/api/config',
        setupRequest: (req, ctx: Ctx) => {
          ctx.m = members[nextMember++ % members.length]!;
          return as(req, ctx.m);
        },
      },
      { method: 'GET', path: '/api/auth/me', setupRequest: (req, ctx: Ctx) => as(req, ctx.m!) },
      { method: 'GET', path: '/api/popups/next?context=login&route=home', setupRequest: (req, ctx: Ctx) => as(req, ctx.m!) },
      { method: 'GET', path: '/api/family-members', setupRequest: (req, ctx: Ctx) => as(req, ctx.m!) },
      {
        method: 'PUT',
        setupRequest: (req, ctx: Ctx) =>
          as(req, ctx.m!, { path: `/api/family-members/${ctx.m!.family[0]}`, body: JSON.stringify({ firstName: `Edited ${nextMember % 1000}`, lastName: 'Load', dob: '2001-02-03', relationship: 'Spouse' }) }),
      },
      {
        method: 'POST',
        path: '/api/family-members',
        setupRequest: (req, ctx: Ctx) => as(req, ctx.m!, { body: JSON.stringify({ firstName: 'Added', lastName: 'Load', dob: '1999-09-09', relationship: 'Other' }) }),
        onResponse: (status, body, ctx: Ctx) => {
          if (status === 201) ctx.created = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        method: 'DELETE',
        setupRequest: (req, ctx: Ctx) => (ctx.created ? as(req, ctx.m!, { path: `/api/family-members/${ctx.created}` }) : (null as unknown as autocannon.Request)),
      },
      {
        method: 'POST',
        setupRequest: (req, ctx: Ctx) => {
          const popup = popupIds[nextMember % popupIds.length]!;
          const key = `${ctx.m!.id}:${popup}`;
          const count = snoozes.get(key) ?? 0;
          snoozes.set(key, count + 1);
          return as(req, ctx.m!, { path: `/api/popups/${popup}/${count < MAX_SNOOZES ? 'snooze' : 'complete'}` });
        },
      },
      { method: 'GET', path: '/api/popups/active', setupRequest: (req, ctx: Ctx) => as(req, ctx.m!) },
    ];
    let nextSignin = 0;
    const signIn: autocannon.Request[] = [
      {
        method: 'POST',
        path: '/api/auth/signin',
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify({ email: members[nextSignin++ % members.length]!.email, password: PASSWORD }) }),
      },
    ];
    let nextAdmin = 0;
    const searches = ['load', 'employer 1', '%', 'zz', 'Employer 7'];
    const adminVisit: autocannon.Request[] = [
      { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/admin/employers?search=${encodeURIComponent(searches[nextAdmin++ % searches.length]!)}&sortBy=name` }) },
      { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/admin/employers/${companyRows[nextAdmin % COMPANIES]!.id}/employees?page=1&size=25&search=member` }) },
      { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/admin/employees/${members[nextAdmin % members.length]!.id}` }) },
      { method: 'GET', path: '/api/admin/popups?sortBy=priority&sortOrder=desc' },
      { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/admin/employers/${companyRows[nextAdmin % COMPANIES]!.id}` }) },
    ];

    const base = await load({ url: baseline.url, connections: MEMBER_CONNECTIONS + SIGNIN_CONNECTIONS + ADMIN_CONNECTIONS, duration: 5 });
    const started = Date.now();
    const [memberRun, signinRun, adminRun] = await Promise.all([
      autocannon({ url, connections: MEMBER_CONNECTIONS, duration: SECONDS, requests: memberVisit, timeout: 10 }),
      autocannon({ url, connections: SIGNIN_CONNECTIONS, duration: SECONDS, requests: signIn, timeout: 10 }),
      autocannon({ url, connections: ADMIN_CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${adminToken}` }, requests: adminVisit, timeout: 10 }),
    ]);
    const elapsed = (Date.now() - started) / 1000;
    const slowest = await routeLatencies(url);
    const classes = [summarize('members', MEMBER_CONNECTIONS, memberRun), summarize('sign-ins', SIGNIN_CONNECTIONS, signinRun), summarize('admins', ADMIN_CONNECTIONS, adminRun)];
    const total = classes.reduce((n, c) => n + c.requests, 0);
    const errors = classes.reduce((n, c) => n + c.errors + c.non2xx, 0);

    // The hasher: /api/auth/me alone, then while 32 connections sign in.
    const meHeaders = { authorization: `Bearer ${members[0]!.token}` };
    const meAlone = await load({ url: `${url}/api/auth/me`, headers: meHeaders, connections: 50, duration: 5 });
    const [meBusy, hasher] = await Promise.all([
      load({ url: `${url}/api/auth/me`, headers: meHeaders, connections: 50, duration: 5 }),
      autocannon({ url, connections: 32, duration: 5, requests: signIn, timeout: 10 }),
    ]);

    // The open model: fixed offered rates, requests evenly spaced whatever the answers
    // (bench/open-model.ts says why not autocannon's overallRate).
    const open: { rate: number; achieved: number; p99: number; text: string; errors: number }[] = [];
    for (const rate of OPEN_RATES) {
      const memberRate = Math.round(rate * 0.9);
      const adminRate = Math.round(rate * 0.095);
      const signinRate = Math.max(1, rate - memberRate - adminRate);
      const t0 = Date.now();
      const [m, si, a] = await openModel(
        url,
        [
          { name: 'members', rate: memberRate, requests: memberVisit },
          { name: 'sign-ins', rate: signinRate, requests: signIn },
          { name: 'admins', rate: adminRate, requests: adminVisit, headers: { authorization: `Bearer ${adminToken}` } },
        ],
        OPEN_SECONDS,
      );
      const seconds = (Date.now() - t0) / 1000;
      const achieved = Math.round((m!.completed + si!.completed + a!.completed) / seconds);
      const errs = [m!, si!, a!].reduce((n, r) => n + r.errors + r.non2xx, 0);
      const p99 = Math.max(m!.p99, a!.p99);
      open.push({
        rate,
        achieved,
        p99,
        errors: errs,
        text: `achieved ${achieved} req/s; p50 / p99 ms members ${m!.p50} / ${m!.p99}, admins ${a!.p50} / ${a!.p99}, sign-ins ${si!.p50} / ${si!.p99}; errors ${errs}`,
      });
    }

    if (dataDir) {
      await server.kill('SIGTERM');
      server = undefined;
      database = await openDatabase({ dataDir });
    }
    const stateCheck = (await database.db.execute(sql`select count(*)::int as n from participants p where p.family_member_count <> (select count(*) from family_members f where f.participant_id = p.id)`)) as unknown as { rows: { n: number }[] };
    const figures: Record<string, number | string> = {
      database: dataDir ? 'embedded PGlite (scratch DATA_DIR)' : 'PostgreSQL (scratch database)',
      'connections (members + sign-ins + admins)': `${MEMBER_CONNECTIONS + SIGNIN_CONNECTIONS + ADMIN_CONNECTIONS} (${MEMBER_CONNECTIONS} + ${SIGNIN_CONNECTIONS} + ${ADMIN_CONNECTIONS})`,
      'duration s': Math.round(elapsed),
      'baseline node:http req/s': base.requestsPerSec,
      'mixed workload req/s': Math.round(total / elapsed),
      'mixed workload ratio to baseline': ratio(total / elapsed, base.requestsPerSec),
      'mixed workload requests': total,
      'mixed workload errors (transport, timeouts, non-2xx)': errors,
    };
    for (const c of classes) {
      figures[`${c.name}: req/s, p50 / p99 ms`] = `${c.rps}, ${c.p50} / ${c.p99}`;
      figures[`${c.name}: statuses`] = JSON.stringify(c.statuses);
    }
    figures['slowest routes, mean ms (from /metrics)'] = slowest;
    figures['GET /api/auth/me alone: req/s, p99 ms'] = `${meAlone.requestsPerSec}, ${meAlone.p99Ms}`;
    figures['GET /api/auth/me while 32 connections sign in: req/s, p99 ms'] = `${meBusy.requestsPerSec}, ${meBusy.p99Ms}`;
    figures['sign-ins per second meanwhile (argon2id)'] = Math.round(hasher.requests.average);
    figures['errors in the hasher phase'] = meBusy.errors + meBusy.non2xx + hasher.errors + hasher.timeouts + hasher.non2xx;
    for (const o of open) figures[`open model, ${o.rate} req/s offered`] = o.text;
    const sustained = open.filter((o) => o.errors === 0 && o.p99 <= OPEN_P99_LIMIT_MS && o.achieved >= o.rate * 0.95).map((o) => o.rate);
    figures[`highest offered rate with p99 under ${OPEN_P99_LIMIT_MS} ms and 0 errors`] = sustained.length ? Math.max(...sustained) : 'none';
    figures['family counts off after the run'] = stateCheck.rows[0]!.n;
    if (errors > 0 || figures['errors in the hasher phase'] !== 0 || stateCheck.rows[0]!.n !== 0) {
      // The server's own account of what failed: its error and fatal lines (pino levels 50, 60).
      const failures = serverOutput.join('').split('\n').filter((line) => /"level":(50|60)/.test(line));
      throw new Error(`load: errors ${JSON.stringify(figures)}\nserver errors (${failures.length}):\n${failures.slice(0, 10).join('\n')}`);
    }
    return figures;
  } finally {
    await server?.kill('SIGTERM');
    await baseline.close();
    await database.close().catch(() => undefined);
    await scratch.drop();
  }
}
