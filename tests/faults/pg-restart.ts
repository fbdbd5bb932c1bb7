/**
 * `npm run test:pg-restart`: PostgreSQL stopped and started under load, the app left
 * running. Uses a throw-away cluster of its own on port 5499 (never the machine's shared
 * server). Three times: a clean stop (`pg_ctl -m fast`), a crash (`-m immediate`) and a hang
 * (every PostgreSQL process SIGSTOPped, as in a network partition). While the
 * database is down every request must fail fast with a 503 (never a 500, never a hang),
 * /readyz must say so, and once it is back the app must recover by itself; the figures are
 * the failure latencies and the recovery times.
 *
 * PG_DOWN_MS (default 5000): how long the database stays down each time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createScratchDatabase } from '../../bench/support';
import { PORTS, buildServer, call, ownCluster, percentile, registerAndSignIn, report, startServer } from './support';

const DOWN_MS = Number(process.env.PG_DOWN_MS ?? 5000);
const CLIENTS = 8;
/**
 * The slowest acceptable failure: a stopped server refuses connections (connectionTimeoutMillis
 * 2000 bounds a slow refusal), a hung one is given up after the query timeout (5000).
 */
const FAIL_FAST_MS = { fast: 3000, immediate: 3000, freeze: 6500 };

interface Sample {
  at: number;
  status: number;
  ms: number;
}

const failures: string[] = [];
const entry = await buildServer();
const cluster = ownCluster(PORTS.pgCluster);
cluster.init();
cluster.start();
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  const scratch = await createScratchDatabase(cluster.url);
  server = await startServer(entry, PORTS.pgRestart, { DATABASE_URL: scratch.url, DB_POOL_MAX: '10' });
  const pid = server.child.pid;
  const base = server.url;
  const members = [];
  for (let i = 0; i < CLIENTS; i += 1) members.push(await registerAndSignIn(base, 'pgr'));

  for (const mode of (process.env.PG_STOP_MODES ?? 'fast,immediate,freeze').split(',') as ('fast' | 'immediate' | 'freeze')[]) {
    const samples: Sample[] = [];
    const ready: Sample[] = [];
    let running = true;
    const t0 = performance.now();
    const now = () => performance.now() - t0;
    const clients = members.map(async (m, i) => {
      for (let n = 0; running; n += 1) {
        const at = now();
        const kind = (n + i) % 3;
        const res =
          kind === 0
            ? await call(`${base}/api/auth/me`, { token: m.token, timeoutMs: 15_000 })
            : kind === 1
              ? await call(`${base}/api/family-members`, { token: m.token, timeoutMs: 15_000 })
              : await call(`${base}/api/family-members`, { method: 'POST', token: m.token, timeoutMs: 15_000, body: { firstName: 'Restart', lastName: `Load ${n}`, dob: '1980-01-02', relationship: 'Parent' } });
        samples.push({ at, status: res.status, ms: res.ms });
        // A created row is deleted again so the family limit is never reached.
        if (res.status === 201) await call(`${base}/api/family-members/${(res.body as { id: string }).id}`, { method: 'DELETE', token: m.token, timeoutMs: 15_000 });
      }
    });
    const probe = (async () => {
      while (running) {
        const at = now();
        const res = await call(`${base}/readyz`, { timeoutMs: 15_000 });
        ready.push({ at, status: res.status, ms: res.ms });
        await sleep(100);
      }
    })();

    await sleep(2000);
    const stopAt = now();
    if (mode === 'freeze') cluster.freeze(true);
    else cluster.stop(mode);
    const stoppedAt = now();
    // A hang is only noticed after the query timeout: keep it long enough to be seen.
    await sleep(mode === 'freeze' ? Math.max(DOWN_MS, 9000) : DOWN_MS);
    const startAt = now();
    if (mode === 'freeze') cluster.freeze(false);
    else cluster.start();
    const upAt = now();
    // Run on until the app has answered only 2xx for two seconds, or 30 s at most.
    const deadline = upAt + 30_000;
    for (;;) {
      await sleep(250);
      const recent = samples.filter((s) => s.at > now() - 2000);
      if ((recent.length > 0 && recent.every((s) => s.status >= 200 && s.status < 300) && now() - upAt > 2000) || now() > deadline) break;
    }
    running = false;
    await Promise.all([...clients, probe]);

    const during = samples.filter((s) => s.at >= stoppedAt && s.at < startAt);
    const failed = samples.filter((s) => s.status < 200 || s.status >= 300);
    const statusCounts: Record<string, number> = {};
    for (const s of samples) statusCounts[s.status] = (statusCounts[s.status] ?? 0) + 1;
    const bad = samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503));
    const firstOk = samples.filter((s) => s.at >= upAt && s.status >= 200 && s.status < 300).sort((x, y) => x.at - y.at)[0];
    const lastFail = failed.sort((x, y) => x.at + x.ms - (y.at + y.ms)).at(-1);
    const readyDown = ready.find((r) => r.at >= stopAt && r.status === 503);
    const readyBack = ready.find((r) => r.at >= upAt && r.status === 200);
    const slowFail = Math.max(0, ...failed.map((s) => s.ms));

    const what = { fast: 'stopped (pg_ctl -m fast)', immediate: 'crashed (pg_ctl -m immediate)', freeze: 'hung (every process SIGSTOPped)' }[mode];
    report(`PostgreSQL ${what} for ${Math.round(startAt - stoppedAt)} ms under load`, {
      'requests (8 clients: /api/auth/me, family list, family add+delete)': samples.length,
      'statuses': JSON.stringify(statusCounts),
      'requests while down': during.length,
      'failures that were not a 503 (500s, hangs, resets)': bad.length,
      'failure latency p50 / p99 / max (ms)': `${percentile(failed.map((s) => s.ms), 50)} / ${percentile(failed.map((s) => s.ms), 99)} / ${Math.round(slowFail)}`,
      '/readyz 503 after the stop (ms)': readyDown ? Math.round(readyDown.at + readyDown.ms - stoppedAt) : 'never',
      'pg_ctl start (or SIGCONT) until the database accepts connections (ms)': Math.round(upAt - startAt),
      'first 2xx after the database was back (ms)': firstOk ? Math.round(firstOk.at + firstOk.ms - upAt) : 'never',
      'last failure answered after the database was back (ms)': lastFail ? Math.round(Math.max(0, lastFail.at + lastFail.ms - upAt)) : 'none',
      '/readyz ok after the database was back (ms)': readyBack ? Math.round(readyBack.at + readyBack.ms - upAt) : 'never',
      'server process restarted': server.child.pid === pid && server.child.exitCode === null ? 'no' : 'YES',
    });
    if (bad.length > 0) failures.push(`${mode}: ${bad.length} failures that were not a 503`);
    if (slowFail > FAIL_FAST_MS[mode]) failures.push(`${mode}: a failure took ${Math.round(slowFail)} ms (more than ${FAIL_FAST_MS[mode]})`);
    if (during.length === 0 || !during.some((s) => s.status === 503)) failures.push(`${mode}: no 503 while the database was down`);
    if (!readyDown) failures.push(`${mode}: /readyz never reported the outage`);
    if (!firstOk || !readyBack) failures.push(`${mode}: did not recover`);
    if (server.child.exitCode !== null) failures.push(`${mode}: the server died:\n${server.output.join('').slice(-3000)}`);
  }
  await server.kill('SIGTERM');
  server = undefined;
  await scratch.drop();
} catch (err) {
  failures.push(err instanceof Error ? err.message : String(err));
} finally {
  await server?.kill('SIGKILL');
  cluster.destroy();
}
for (const f of failures) console.log(`  ! ${f}`);
console.log(failures.length === 0 ? '\ntest:pg-restart passed' : `\ntest:pg-restart FAILED (${failures.length})`);
process.exit(failures.length === 0 ? 0 : 1);
