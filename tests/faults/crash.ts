/**
 * `npm run test:crash`: kill -9 the server again and again in the middle of a stream of
 * writes (registrations, family adds, edits and deletes, popup snoozes), on PostgreSQL and
 * on the embedded PGlite. After every kill, before the server runs again, the database is
 * opened directly and every write that was answered 2xx must be there, exactly as
 * acknowledged; the database must be consistent (see consistency.ts). Prints the figures and
 * exits non-zero on any lost write, inconsistency or 5xx.
 *
 * CRASH_ROUNDS (default 6), CRASH_WORKERS (default 6), CRASH_SEED, CRASH_BACKENDS
 * (default "postgres,pglite"; PostgreSQL is the server DATABASE_URL names, default the
 * local one, in a scratch database that is dropped afterwards).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createScratchDatabase } from '../../bench/support';
import { type ConsistencyReport, checkConsistency, connectPostgres, openPglite } from './consistency';
import { PORTS, type ServerProcess, buildServer, call, createPopups, elevatedAdmin, percentile, prng, registerAndSignIn, report, startServer } from './support';
import { Ledger, type Member, untilAcked, verify, writer } from './writes';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 6);
const WORKERS = Number(process.env.CRASH_WORKERS ?? 6);
const SEED = Number(process.env.CRASH_SEED ?? 7);
const BACKENDS = (process.env.CRASH_BACKENDS ?? 'postgres,pglite').split(',').map((s) => s.trim());
const PG_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function runBackend(kind: 'postgres' | 'pglite', entry: string) {
  const rand = prng(SEED);
  const dataDir = path.resolve(`.tmp/data-hardening-crash`);
  const scratch = kind === 'postgres' ? await createScratchDatabase(PG_SERVER) : undefined;
  if (kind === 'pglite') rmSync(dataDir, { recursive: true, force: true });
  const env: Record<string, string> = scratch ? { DATABASE_URL: scratch.url, DB_POOL_MAX: '10' } : { DATA_DIR: dataDir };
  const open = () => (scratch ? connectPostgres(scratch.url) : openPglite(dataDir));

  const ledger = new Ledger();
  const restarts: number[] = [];
  const lost: string[] = [];
  let last: ConsistencyReport | undefined;
  const problems: string[] = [];
  let server: ServerProcess | undefined = await startServer(entry, PORTS.crash, env);
  try {
    const admin = await elevatedAdmin(server.url);
    const popups = await createPopups(server.url, admin, 5);
    const members: Member[] = [];
    for (let i = 0; i < WORKERS * 3; i += 1) members.push(await registerAndSignIn(server.url, 'crash'));

    for (let round = 1; round <= ROUNDS; round += 1) {
      if (!server) {
        server = await startServer(entry, PORTS.crash, env);
        restarts.push(server.startMs);
      }
      let alive = true;
      const base = server.url;
      const ackedAtStart = ledger.acked;
      const workers = Array.from({ length: WORKERS }, (_, w) =>
        writer(() => base, members.filter((_m, i) => i % WORKERS === w), popups, ledger, () => alive, prng(SEED * 1000 + round * 10 + w)),
      );
      // The kill lands at a random moment of a stream known to be flowing: that long after
      // the round's first acknowledged write (the random delay is the fault, not a wait).
      const killAfter = 400 + Math.floor(rand() * 1600);
      if (await untilAcked(ledger, ackedAtStart + 1)) await new Promise((resolve) => setTimeout(resolve, killAfter));
      // No new request after this instant; those already sent die with the process.
      alive = false;
      await server.kill('SIGKILL');
      server = undefined;
      await Promise.all(workers);

      const ackedThisRound = ledger.acked - ackedAtStart;
      if (ackedThisRound === 0) problems.push(`round ${round}: no write was acknowledged before the kill, so the round tested nothing`);

      const db = await open();
      let missing: string[] = [];
      try {
        missing = await verify(db, ledger);
        lost.push(...missing.map((m) => `round ${round}: ${m}`));
        last = await checkConsistency(db);
        problems.push(...last.problems.map((p) => `round ${round}: ${p}`));
      } finally {
        await db.close();
      }
      console.log(`  ${kind} round ${round}: killed ${killAfter} ms after the first acknowledged write; ${ackedThisRound} acknowledged this round, ${ledger.acked} so far, ${missing.length} lost, ${last?.problems.length ?? 'n/a'} consistency problems`);
    }

    // Back up once more: every session survived, and the app reads what the database holds.
    server = await startServer(entry, PORTS.crash, env);
    restarts.push(server.startMs);
    for (const m of members) {
      const me = await call(`${server.url}/api/auth/me`, { token: m.token });
      if (me.status !== 200) lost.push(`session of ${m.userId} after restart: ${me.status}`);
      const list = await call(`${server.url}/api/family-members`, { token: m.token });
      const listed = new Set(((list.body as { familyMembers?: { id: string }[] }).familyMembers ?? []).map((f) => f.id));
      for (const [id, row] of ledger.family) if (row.owner === m.userId && row.deleted === 'no' && !listed.has(id)) lost.push(`family member ${id} not listed by the API`);
    }
  } finally {
    await server?.kill('SIGTERM');
    await scratch?.drop();
  }

  report(`kill -9 during writes, ${kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}`, {
    rounds: ROUNDS,
    'concurrent writers': WORKERS,
    'writes sent': ledger.sent,
    'acknowledged (2xx)': ledger.acked,
    'unanswered (in flight at the kill)': ledger.unanswered,
    'refused (4xx, e.g. snooze limit)': ledger.refused,
    '5xx': ledger.serverErrors.length,
    'acknowledged writes lost': lost.length,
    'consistency problems': problems.length,
    'tables / foreign keys / btree indexes checked': last ? `${last.tables} / ${last.foreignKeys} / ${last.indexesChecked}` : 'n/a',
    'rows after the last crash': last?.rows ?? 'n/a',
    'restart to ready p50 / max (ms)': `${percentile(restarts, 50)} / ${Math.max(...restarts)}`,
  });
  for (const line of [...lost, ...problems, ...ledger.serverErrors].slice(0, 20)) console.log(`  ! ${line}`);
  return lost.length + problems.length + ledger.serverErrors.length;
}

const entry = await buildServer();
let failures = 0;
for (const backend of BACKENDS) {
  if (backend !== 'postgres' && backend !== 'pglite') throw new Error(`unknown backend ${backend}`);
  failures += await runBackend(backend, entry);
}
console.log(failures === 0 ? '\ntest:crash passed' : `\ntest:crash FAILED (${failures})`);
process.exit(failures === 0 ? 0 : 1);
