// `npm run bench -- platform`: GET /healthz and GET /api/config against the server as
// `npm start` runs it (the built bundle, its own process, the default log level), as ratios
// of a bare node:http server (its own process too) measured in the same run: rounds of 4 s
// alternating app and baseline, 50 connections, the median of 3 (the way
// ../shared/tools/perf-ratios.mjs measures). Also the CPU time each spends per request,
// from /proc: on a machine shared with other work, throughput ratios drift toward 1 (both
// sides wait for the same cores), CPU per request does not.
// Embedded database always; PostgreSQL too when DATABASE_URL is set (a scratch database).
// BENCH_ROUNDS (3), BENCH_SECONDS (4).
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
/** Next to the hardening scripts' ports (4205-4215). */
const PORT = 4212;

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
    const server = await startServer(entry, PORT, {
      LOG_LEVEL: 'info',
      ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir! }),
    });
    // The access log goes to a pipe, as under a service manager; not kept in memory here.
    server.child.stdout?.removeAllListeners('data');
    server.child.stdout?.resume();
    try {
      for (const route of ROUTES) {
        const ratios: number[] = [];
        const appRps: number[] = [];
        const baseRps: number[] = [];
        const appCpu: number[] = [];
        const baseCpu: number[] = [];
        let errors = 0;
        for (let i = 0; i < ROUNDS; i += 1) {
          const a = await measure(`${server.url}${route}`, server.child.pid);
          const b = await measure(baseline.url, baseline.child.pid);
          errors += a.errors;
          ratios.push(a.rps / b.rps);
          appRps.push(a.rps);
          baseRps.push(b.rps);
          appCpu.push(a.cpuPerRequest);
          baseCpu.push(b.cpuPerRequest);
        }
        const label = `${kind} GET ${route}`;
        figures[`${label} req/s`] = Math.round(median(appRps));
        figures[`${label} baseline node:http req/s`] = Math.round(median(baseRps));
        figures[`${label} ratio to baseline (goal >= 0.6)`] = round3(median(ratios));
        figures[`${label} CPU us/request (baseline)`] = `${median(appCpu).toFixed(1)} (${median(baseCpu).toFixed(1)})`;
        figures[`${label} CPU ratio to baseline`] = round3(median(baseCpu) / median(appCpu));
        figures[`${label} errors`] = errors;
      }
    } finally {
      await server.kill('SIGTERM');
      baseline.child.kill();
      await scratch?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return figures;
}
