/**
 * `npm run test:instances`: three server processes on one PostgreSQL database and one Redis,
 * on different ports, started at the same moment (as a deployment does). Checks that a
 * session signed out on one is refused by the others at once, that the sign-in throttle and
 * the per-IP limit hold across them, and that kill -9 of one instance in the middle of a
 * write stream loses no acknowledged write. Redis is a throw-away redis-server of our own;
 * PostgreSQL is a scratch database on the server DATABASE_URL names (default the local one).
 *
 * The session cache (session-cache.ts here) is on in every instance, as in production: a
 * sign-out, a password change and a role taken away by the operator CLI on one are refused by
 * the others within 50 ms (timed by the instances' own debug log lines), over Redis pub/sub
 * (REDIS_URL) and then, with the instances restarted without Redis, over PostgreSQL
 * LISTEN/NOTIFY (judged on its tail there: REVOCATION_GATE in session-cache.ts); with the
 * channel down (Redis stopped, PostgreSQL listeners killed) the cache is bypassed, and it
 * serves again once back.
 */
import { loadavg } from 'node:os';
import { createScratchDatabase } from '../../bench/support';
import { checkConsistency, connectPostgres } from './consistency';
import { PORTS, type ServerProcess, buildServer, call, createPopups, elevatedAdmin, memberData, prng, registerAndSignIn, report, startRedis, startServer } from './support';
import { type Gate, REVOCATION_BUDGET_MS, registerAndSignIn as freshMember, revocationChecks, revokeBehindTheirBacks, signOutRounds, untilServedFromMemory } from './session-cache';
import { Ledger, type Member, untilAcked, verify, writer } from './writes';

const PG_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const IP_LIMIT = 20;
/**
 * How the session cache's figures are judged (tests/faults/session-cache.ts): over Redis, the
 * channel for several instances, every change; over PostgreSQL alone, its tail. REVOCATION_GATE
 * (strict or tail) sets both.
 */
const gateOf = (channel: 'redis' | 'postgres'): Gate =>
  process.env.REVOCATION_GATE === 'strict' || process.env.REVOCATION_GATE === 'tail' ? process.env.REVOCATION_GATE : channel === 'redis' ? 'strict' : 'tail';
const gateText = (gate: Gate) => (gate === 'strict' ? 'every change' : '80% of sign-outs, every change within 250 ms');
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return ok ? 'yes' : 'NO';
};

const entry = await buildServer();
let redis = await startRedis(PORTS.redis);
const scratch = await createScratchDatabase(PG_SERVER);
const env = { DATABASE_URL: scratch.url, REDIS_URL: redis.url, TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_IP: String(IP_LIMIT), DB_POOL_MAX: '10' };
const servers: (ServerProcess | undefined)[] = [];
const figures: Record<string, string | number> = {};
try {
  // All three at once: migrations and the bootstrap administrator must survive the race.
  servers.push(...(await Promise.all(PORTS.instances.map((port) => startServer(entry, port, env)))));
  const [a, b, c] = servers.map((s) => s!.url) as [string, string, string];
  figures['instances started together'] = `${servers.length} (ready in ${servers.map((s) => s!.startMs).join(' / ')} ms)`;

  // Revocation.
  const m = await registerAndSignIn(a, 'inst');
  const seenBy = await Promise.all([a, b, c].map((u) => call(`${u}/api/auth/me`, { token: m.token })));
  const out = await call(`${b}/api/auth/signout`, { method: 'POST', token: m.token });
  const afterA = await call(`${a}/api/auth/me`, { token: m.token });
  const afterC = await call(`${c}/api/auth/me`, { token: m.token });
  figures['session signed in on A accepted by A, B, C'] = check(seenBy.every((r) => r.status === 200), 'session not accepted everywhere');
  figures['signed out on B, refused at once by A and C'] = check(out.status === 200 && afterA.status === 401 && afterC.status === 401, `revocation: ${out.status} ${afterA.status} ${afterC.status}`);

  // Throttle: six wrong passwords spread over the instances, from six addresses: five are
  // free, the sixth sets a 1 s wait (on Redis's clock) that every instance must honour.
  const locked = await registerAndSignIn(a, 'inst');
  const wrong = [];
  for (let i = 0; i < 6; i += 1) {
    wrong.push((await call(`${[a, b, c][i % 3]}/api/auth/signin`, { method: 'POST', body: { email: locked.email, password: 'not the password' }, headers: { 'x-forwarded-for': `192.0.2.${10 + i}` } })).status);
  }
  const right = await Promise.all([a, b, c].map((u, i) => call(`${u}/api/auth/signin`, { method: 'POST', body: { email: locked.email, password: locked.password }, headers: { 'x-forwarded-for': `192.0.2.${50 + i}` } })));
  figures['6 failures spread over 3 instances throttle the account on all'] = check(wrong.every((s) => s === 401) && right.every((r) => r.status === 429), `throttle: ${wrong} then ${right.map((r) => r.status)}`);

  // Per-IP limit: one address, attempts spread round robin.
  const statuses: number[] = [];
  for (let i = 0; i < IP_LIMIT + 6; i += 1) {
    const res = await call(`${[a, b, c][i % 3]}/api/auth/signin`, { method: 'POST', body: { email: `nobody.${i}@example.test`, password: 'whatever it is' }, headers: { 'x-forwarded-for': '198.51.100.99' } });
    statuses.push(res.status);
  }
  const allowed = statuses.filter((s) => s === 401).length;
  figures[`per-IP limit ${IP_LIMIT}/min over 3 instances: attempts let through`] = `${allowed} of ${statuses.length} (then 429)`;
  check(allowed === IP_LIMIT && statuses.slice(IP_LIMIT).every((s) => s === 429), `IP limit: ${statuses.join(',')}`);

  // kill -9 one instance in the middle of a write stream.
  const admin = await elevatedAdmin(a);
  const popups = await createPopups(a, admin, 4);
  const members: Member[] = [];
  for (let i = 0; i < 12; i += 1) members.push(await registerAndSignIn([a, b, c][i % 3]!, 'inst'));
  const ledger = new Ledger();
  let alive = true;
  let next = 0;
  const roundRobin = () => [a, b, c][next++ % 3]!;
  const writers = Array.from({ length: 6 }, (_, w) => writer(roundRobin, members.filter((_m, i) => i % 6 === w), popups, ledger, () => alive, prng(100 + w)));
  // Kill B once writes are flowing through all three, and run on until A and C have
  // acknowledged as many again: a stream that acknowledges nothing would prove nothing.
  const WRITES_EACH_SIDE = 30;
  let ackedBeforeKill = 0;
  try {
    const flowing = await untilAcked(ledger, WRITES_EACH_SIDE);
    ackedBeforeKill = ledger.acked;
    if (!flowing) throw new Error(`before the kill only ${ledger.acked} writes were acknowledged (waited for ${WRITES_EACH_SIDE})`);
    await servers[1]!.kill('SIGKILL');
    servers[1] = undefined;
    if (!(await untilAcked(ledger, ackedBeforeKill + WRITES_EACH_SIDE))) {
      throw new Error(`after killing B, A and C acknowledged only ${ledger.acked - ackedBeforeKill} writes (waited for ${WRITES_EACH_SIDE})`);
    }
  } finally {
    alive = false;
    await Promise.all(writers);
  }
  const db = await connectPostgres(scratch.url);
  try {
    const lost = await verify(db, ledger);
    const consistency = await checkConsistency(db);
    figures['writes sent / acknowledged (B killed mid-stream)'] = `${ledger.sent} / ${ledger.acked} (${ackedBeforeKill} before the kill)`;
    figures['unanswered (sent to B as it died, or to B while dead)'] = ledger.unanswered;
    figures['refused (4xx)'] = ledger.refused;
    figures['5xx from the surviving instances'] = ledger.serverErrors.length;
    figures['acknowledged writes lost'] = lost.length;
    figures['consistency problems'] = consistency.problems.length;
    check(lost.length === 0, `lost: ${lost.slice(0, 5).join('; ')}`);
    check(consistency.problems.length === 0, `consistency: ${consistency.problems.join('; ')}`);
    check(ledger.serverErrors.length === 0, `5xx: ${ledger.serverErrors.slice(0, 5).join('; ')}`);
  } finally {
    await db.close();
  }
  const restarted = await startServer(entry, PORTS.instances[1], env);
  servers[1] = restarted;
  const back = await call(`${restarted.url}/api/auth/me`, { token: members[0]!.token });
  figures['B restarted, serves existing sessions'] = check(back.status === 200, `restarted B: ${back.status}`);
  const fresh = memberData('inst');
  const reg = await call(`${restarted.url}/api/auth/register`, { method: 'POST', body: fresh, headers: { 'x-forwarded-for': '203.0.113.251' } });
  figures['B restarted, takes new registrations'] = check(reg.status === 201, `register on restarted B: ${reg.status}`);

  // Session cache over Redis pub/sub (REDIS_URL set: the channel the instances use). Fresh
  // instances logging at debug: their "session change published/received" lines time the channel.
  await Promise.all(servers.map((s) => s?.kill('SIGTERM')));
  servers.length = 0;
  const redisEnv = { ...env, LOG_LEVEL: 'debug' };
  figures['host load average (1 min) before the session cache checks'] = loadavg()[0]!.toFixed(1);
  servers.push(...(await Promise.all(PORTS.instances.map((port) => startServer(entry, port, redisEnv)))));
  const viaRedisServers = servers.map((s) => s!);
  const all = viaRedisServers.map((s) => s.url);
  figures['[redis] cache on: a revocation written straight into the database is still served from memory'] = check(await untilServedFromMemory(all, scratch.url), 'cache control (redis): not on');
  const viaRedis = await revocationChecks(viaRedisServers, scratch.url, env, gateOf('redis'));
  for (const [k, v] of Object.entries(viaRedis.figures)) figures[`[redis] ${k}`] = v;
  figures[`[redis] changes dropped by every instance within ${REVOCATION_BUDGET_MS} ms (${gateText(gateOf('redis'))})`] = check(viaRedis.failures.length === 0, viaRedis.failures.join('; '));
  // Redis down: no instance can hear a change, so none serves from memory.
  const held = await freshMember(all[0]!, 'cache');
  for (const u of all) await call(`${u}/api/auth/me`, { token: held.token });
  await redis.stop();
  await revokeBehindTheirBacks(scratch.url, held.token);
  const whileDown = await Promise.all(all.map(async (u) => (await call(`${u}/api/auth/me`, { token: held.token })).status));
  figures['[redis] Redis stopped: a session revoked straight in the database is refused by every instance at once'] = check(whileDown.every((st) => st === 401), `redis down: ${whileDown}`);
  redis = await startRedis(PORTS.redis);
  figures['[redis] Redis back: every instance serves from memory again'] = check(await untilServedFromMemory(all, scratch.url), 'cache not back after Redis restarted');

  // The same over PostgreSQL LISTEN/NOTIFY: the instances restarted without REDIS_URL.
  await Promise.all(servers.map((s) => s?.kill('SIGTERM')));
  servers.length = 0;
  const pgEnv: Record<string, string> = { ...env };
  delete pgEnv.REDIS_URL;
  servers.push(...(await Promise.all(PORTS.instances.map((port) => startServer(entry, port, { ...pgEnv, LOG_LEVEL: 'debug' })))));
  const viaPgServers = servers.map((s) => s!);
  const pgUrls = viaPgServers.map((s) => s.url);
  figures['[postgres] cache on: a revocation written straight into the database is still served from memory'] = check(await untilServedFromMemory(pgUrls, scratch.url), 'cache control (postgres): not on');
  const viaPg = await revocationChecks(viaPgServers, scratch.url, pgEnv, gateOf('postgres'));
  for (const [k, v] of Object.entries(viaPg.figures)) figures[`[postgres] ${k}`] = v;
  figures[`[postgres] changes dropped by every instance within ${REVOCATION_BUDGET_MS} ms (${gateText(gateOf('postgres'))})`] = check(viaPg.failures.length === 0, viaPg.failures.join('; '));
  // The listening connections killed (a restart or network cut): each reconnects, caches again, and hears sign-outs again.
  const killed = await connectPostgres(scratch.url);
  try {
    const rows = await killed.rows<{ n: number }>("select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'wellhaven-sessions' and datname = current_database()) t");
    figures['[postgres] listening connections killed'] = rows[0]?.n ?? 0;
    check((rows[0]?.n ?? 0) === pgUrls.length, `listeners killed: ${rows[0]?.n}`);
  } finally {
    await killed.close();
  }
  figures['[postgres] listeners back: every instance serves from memory again'] = check(await untilServedFromMemory(pgUrls, scratch.url), 'cache not back after the listeners were killed');
  const afterReconnect = await signOutRounds(viaPgServers, scratch.url, 5, gateOf('postgres'));
  figures['host load average (1 min) at the end'] = loadavg()[0]!.toFixed(1);
  for (const [k, v] of Object.entries(afterReconnect.figures)) figures[`[postgres, reconnected] ${k}`] = v;
  check(afterReconnect.failures.length === 0, afterReconnect.failures.join('; '));
} catch (err) {
  failures.push(err instanceof Error ? err.message : String(err));
} finally {
  await Promise.all(servers.map((s) => s?.kill('SIGTERM')));
  await redis.stop();
  await scratch.drop();
}

report('three instances on one PostgreSQL and one Redis', figures);
for (const f of failures) console.log(`  ! ${f}`);
console.log(failures.length === 0 ? '\ntest:instances passed' : `\ntest:instances FAILED (${failures.length})`);
process.exit(failures.length === 0 ? 0 : 1);
