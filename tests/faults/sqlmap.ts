/**
 * `npm run sqlmap`: sqlmap (the Debian package) against every query parameter and path
 * parameter of every GET list and detail endpoint, generated from the OpenAPI document the
 * app publishes: the admin employer, employee and popup lists (search, status, sort, page,
 * size), employer and employee detail, and the member popup endpoint. Admin routes are
 * called with an elevated admin's token, member routes with a member's. Runs against the
 * built server on a scratch PostgreSQL database with the demo data, and reports per endpoint
 * what sqlmap found, how many requests it sent (counted by the app's own /metrics) and
 * whether any of them got a 5xx. Exits non-zero on any finding or 5xx.
 *
 * SQLMAP_LEVEL (default 3), SQLMAP_RISK (default 2), SQLMAP_TIMEOUT_S per endpoint (default
 * 240). Install: `apt-get install -y sqlmap`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createScratchDatabase } from '../../bench/support';
import { DEMO_MEMBER_EMAIL, DEMO_PASSWORD } from '../../src/server/seed/demo-data';
import { buildServer, call, elevatedAdmin, report, startServer } from './support';

const LEVEL = process.env.SQLMAP_LEVEL ?? '3';
const RISK = process.env.SQLMAP_RISK ?? '2';
const TIMEOUT_S = Number(process.env.SQLMAP_TIMEOUT_S ?? 240);
const PORT = 4211;
const PG_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const OUT = path.resolve('.tmp/sqlmap');

try {
  execFileSync('sqlmap', ['--version'], { stdio: 'pipe' });
} catch {
  console.error('sqlmap is not installed (Debian: apt-get install -y sqlmap); nothing was scanned.');
  process.exit(2);
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { enum?: string[]; type?: string | string[]; anyOf?: unknown[] } }[] }>>;
}

/** Counts of requests and server errors so far, from the app's Prometheus endpoint. */
async function counters(base: string): Promise<{ requests: number; serverErrors: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let requests = 0;
  let serverErrors = 0;
  for (const line of text.split('\n')) {
    const m = /^http_requests_total\{[^}]*status="(\d+)"\} (\d+)/.exec(line);
    if (!m) continue;
    requests += Number(m[2]);
    if (Number(m[1]) >= 500) serverErrors += Number(m[2]);
  }
  return { requests, serverErrors };
}

function runSqlmap(url: string, params: string[], token: string, outDir: string): Promise<{ output: string; timedOut: boolean }> {
  const args = [
    '-u', url,
    '-H', `Authorization: Bearer ${token}`,
    '--batch',
    `--level=${LEVEL}`,
    `--risk=${RISK}`,
    '--dbms=PostgreSQL',
    '--technique=BEUST',
    '--time-sec=2',
    '--timeout=10',
    '--retries=1',
    '--threads=1',
    '--flush-session',
    '--disable-coloring',
    `--output-dir=${outDir}`,
    ...(params.length ? ['-p', params.join(',')] : []),
  ];
  return new Promise((resolve) => {
    const child = spawn('sqlmap', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIMEOUT_S * 1000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve({ output, timedOut });
    });
  });
}

const failures: string[] = [];
const figures: Record<string, string | number> = { sqlmap: execFileSync('sqlmap', ['--version'], { stdio: 'pipe' }).toString().split('\n')[0]!.trim(), 'level / risk': `${LEVEL} / ${RISK}` };
const scratch = await createScratchDatabase(PG_SERVER);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  server = await startServer(await buildServer(), PORT, { DATABASE_URL: scratch.url, DEMO_DATA: '1' });
  const base = server.url;
  const adminToken = await elevatedAdmin(base);
  const member = await call(`${base}/api/auth/signin`, { method: 'POST', body: { email: DEMO_MEMBER_EMAIL, password: DEMO_PASSWORD } });
  // Without a member session every member route would answer 401 and sqlmap would find nothing.
  if (member.status !== 200) throw new Error(`demo member sign-in: ${member.status} ${JSON.stringify(member.body)}`);
  const memberToken = (member.body as { token: string }).token;
  const employers = (await call(`${base}/api/admin/employers`, { token: adminToken })).body as { employers: { id: string }[] };
  const companyId = employers.employers[0]!.id;
  const employees = (await call(`${base}/api/admin/employers/${companyId}/employees`, { token: adminToken })).body as { employees: { id: string }[] };
  const userId = employees.employees[0]!.id;
  const samples: Record<string, string> = { companyId, userId, search: 'acme', status: 'active', sortBy: 'name', sortOrder: 'asc', page: '1', size: '25', context: 'login', route: 'home' };

  // Targets: every GET operation with a query or path parameter, straight from the OpenAPI document.
  const doc = (await call(`${base}/api/openapi.json`)).body as OpenApi;
  const targets = Object.entries(doc.paths)
    .flatMap(([p, ops]) => (ops.get ? [{ path: p, parameters: ops.get.parameters ?? [] }] : []))
    .filter((t) => t.parameters.some((q) => q.in === 'query' || q.in === 'path'));
  let totalRequests = 0;
  for (const target of targets) {
    const query = target.parameters.filter((q) => q.in === 'query');
    const pathParams = target.parameters.filter((q) => q.in === 'path').map((q) => q.name);
    const enumOf = (q: (typeof query)[number]) => q.schema?.enum?.[0];
    const qs = query.map((q) => `${q.name}=${encodeURIComponent(samples[q.name] ?? enumOf(q) ?? 'x')}`).join('&');
    const filled = (mark: boolean) => target.path.replace(/\{(\w+)\}/g, (_, name: string) => `${samples[name] ?? '1'}${mark ? '*' : ''}`);
    const token = target.path.startsWith('/api/admin/') ? adminToken : memberToken;
    // Query parameters with -p; path parameters as "*" injection points, in a run of their own.
    const runs = [
      ...(query.length ? [{ url: `${base}${filled(false)}?${qs}`, params: query.map((q) => q.name), tested: query.map((q) => q.name) }] : []),
      ...(pathParams.length ? [{ url: `${base}${filled(true)}${qs ? `?${qs}` : ''}`, params: [], tested: pathParams.map((n) => `${n} (path)`) }] : []),
    ];
    for (const run of runs) {
      const before = await counters(base);
      const started = Date.now();
      const { output, timedOut } = await runSqlmap(run.url, run.params, token, OUT);
      const after = await counters(base);
      const sent = after.requests - before.requests;
      totalRequests += sent;
      const injectable = /sqlmap identified the following injection point|Parameter: .* \(.*\)\s+Type:/i.test(output);
      const clean = /all tested parameters do not appear to be injectable/i.test(output);
      const verdict = timedOut ? `stopped after ${TIMEOUT_S} s` : injectable ? 'INJECTABLE' : clean ? 'nothing found' : 'no verdict';
      figures[`GET ${target.path} [${run.tested.join(', ')}]`] = `${verdict}; ${sent} requests, ${after.serverErrors - before.serverErrors} 5xx, ${Math.round((Date.now() - started) / 1000)} s`;
      if (injectable) failures.push(`${target.path}: sqlmap reports an injection point:\n${output.slice(-2000)}`);
      if (after.serverErrors > before.serverErrors) failures.push(`${target.path}: ${after.serverErrors - before.serverErrors} answers were 5xx`);
      if (!injectable && !clean) failures.push(`${target.path} [${run.tested.join(', ')}]: ${verdict}:\n${output.slice(-1500)}`);
    }
  }
  figures['endpoints scanned'] = targets.length;
  figures['requests sent by sqlmap'] = totalRequests;
} catch (err) {
  failures.push(err instanceof Error ? err.message : String(err));
} finally {
  await server?.kill('SIGTERM');
  await scratch.drop();
}
report('sqlmap against the list and detail endpoints', figures);
for (const f of failures) console.log(`  ! ${f}`);
console.log(failures.length === 0 ? '\nsqlmap: nothing found' : `\nsqlmap: ${failures.length} problem(s)`);
process.exit(failures.length === 0 ? 0 : 1);
