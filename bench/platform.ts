// `npm run bench -- platform`: GET /healthz and GET /api/config against the server as
// `npm start` runs it (the built bundle, its own process, the default log level), as ratios
// of a bare node:http server (its own process too) measured in the same run: rounds of 4 s
// alternating app and baseline, 50 connections, the median of 3 (the way
// ../shared/tools/perf-ratios.mjs measures). Also the CPU time each spends per request,
// from /proc: on a machine shared with other work, throughput ratios drift toward 1 (both
// sides wait for the same cores), CPU per request does not.
// Embedded database always; PostgreSQL too when DATABASE_URL is set (a scratch database).
// BENCH_ROUNDS (3), BENCH_SECONDS (4).
// BENCH_COMPARE=<another build's dist/server/main.js> serves that build too, on the same
// database kind, and measures it in the same rounds (app, baseline, other build, baseline):
// a change measured before and after in one run, on a machine whose speed moves from one run
// to the next by more than most changes are worth.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer, startServer } from '../tests/faults/support';
import { createScratchDatabase } from './support';

const ROUTES = ['/healthz', '/api/config'];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** Next to the hardening scripts' ports (4205-4215); the build compared with, the next one up. */
const PORT = 4212;
const COMPARE_PORT = 4216;
const COMPARE = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : undefined;

const BASELINE_SOURCE = `
const http = require('node:http');
const body = JSON.stringify({ user: { id: '5b0e7f55-2f4c-4b0e-9a55-0d1d2f3e4a5b', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', lhmpId: 'LQ12345', company: 'Analytical Engines', role: 'member' } });
const srv = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); });
srv.listen(0, '127.0.0.1', () => console.log(srv.address().port));`;

async function startBaselineProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', BASELINE_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  return { url: `http://127.0.0.1:${port}`, child };
}

/** CPU time (user + system) a process has used, in microseconds; undefined off Linux. */
function cpuMicros(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

async function measure(url: string, pid: number | undefined) {
  const before = cpuMicros(pid);
  const r = await autocannon({ url, connections: 50, duration: SECONDS });
  const after = cpuMicros(pid);
  const total = r.requests.total || 1;
  return { rps: r.requests.average, errors: r.errors + r.timeouts + r.non2xx, cpuPerRequest: before === undefined || after === undefined ? Number.NaN : (after - before) / total };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function run(): Promise<Record<string, number | string>> {
  const entry = await buildServer();
  const figures: Record<string, number | string> = {};
  const databases: ('embedded' | 'postgres')[] = process.env.DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];
  for (const kind of databases) {
    const scratch = kind === 'postgres' ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
    const dataDir = kind === 'embedded' ? mkdtempSync(path.join(tmpdir(), 'wellhaven-bench-')) : undefined;
    const baseline = await startBaselineProcess();
    const env = { LOG_LEVEL: 'info', ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir! }) };
    // The build compared with gets a data directory of its own (one process per embedded database).
    const compareDir = COMPARE && dataDir ? mkdtempSync(path.join(tmpdir(), 'wellhaven-bench-')) : undefined;
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    let other: typeof server;
    try {
      server = await startServer(entry, PORT, env);
      other = COMPARE ? await startServer(COMPARE, COMPARE_PORT, { ...env, ...(compareDir ? { DATA_DIR: compareDir } : {}) }) : undefined;
      // The access log goes to a pipe, as under a service manager; not kept in memory here.
      for (const s of [server, other]) {
        s?.child.stdout?.removeAllListeners('data');
        s?.child.stdout?.resume();
      }
      for (const route of ROUTES) {
        const label = `${kind} GET ${route}`;
        const sides = [{ name: label, server }, ...(other ? [{ name: `${label} [BENCH_COMPARE build]`, server: other }] : [])];
        const rounds = sides.map(() => ({ ratios: [] as number[], appRps: [] as number[], baseRps: [] as number[], appCpu: [] as number[], baseCpu: [] as number[], errors: 0 }));
        for (let i = 0; i < ROUNDS; i += 1) {
          // The two builds take turns going first, so neither always meets the machine as the other left it.
          const order = i % 2 === 0 ? [...sides.entries()] : [...sides.entries()].reverse();
          for (const [n, side] of order) {
            const a = await measure(`${side.server.url}${route}`, side.server.child.pid);
            const b = await measure(baseline.url, baseline.child.pid);
            const r = rounds[n]!;
            r.errors += a.errors;
            r.ratios.push(a.rps / b.rps);
            r.appRps.push(a.rps);
            r.baseRps.push(b.rps);
            r.appCpu.push(a.cpuPerRequest);
            r.baseCpu.push(b.cpuPerRequest);
          }
        }
        for (const [n, side] of sides.entries()) {
          const r = rounds[n]!;
          figures[`${side.name} req/s`] = Math.round(median(r.appRps));
          figures[`${side.name} baseline node:http req/s`] = Math.round(median(r.baseRps));
          figures[`${side.name} ratio to baseline (goal >= 0.6)`] = round3(median(r.ratios));
          figures[`${side.name} CPU us/request (baseline)`] = `${median(r.appCpu).toFixed(1)} (${median(r.baseCpu).toFixed(1)})`;
          figures[`${side.name} CPU ratio to baseline`] = round3(median(r.baseCpu) / median(r.appCpu));
          figures[`${side.name} errors`] = r.errors;
        }
      }
    } finally {
      await server?.kill('SIGTERM');
      await other?.kill('SIGTERM');
      baseline.child.kill();
      await scratch?.drop();
      for (const dir of [dataDir, compareDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
  return figures;
}
