import { randomUUID } from 'node:crypto';
import { load, ratio, startApp, startBaseline } from './support';

/** Sign-ins per second, and GET /api/auth/me throughput against the bare node:http baseline. */
export async function run(): Promise<Record<string, number | string>> {
  const baseline = await startBaseline();
  const server = await startApp();
  try {
    const base = await load({ url: baseline.url });
    const suffix = randomUUID().slice(0, 8);
    const member = {
      firstName: 'Bench',
      lastName: 'Member',
      email: `bench.${suffix}@bench.test`,
      company: `Bench Employer ${suffix}`,
      lhmpId: `LQ${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`,
      password: 'sturdy passphrase long',
    };
    const reg = await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(member) });
    if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
    const signin = await fetch(`${server.url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: member.email, password: member.password }) });
    if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${await signin.text()}`);
    const { token } = (await signin.json()) as { token: string };

    const me = await load({ url: `${server.url}/api/auth/me`, headers: { authorization: `Bearer ${token}` } });
    // Sign-ins rotate over many accounts: one account's simultaneous attempts are capped by
    // the lockout guard, and this measures the hasher, not that guard.
    const accounts: string[] = [];
    for (let i = 0; i < 32; i += 1) {
      const email = `bench.${suffix}.${i}@bench.test`;
      const res = await fetch(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...member, email, lhmpId: `LQ${String((Number(member.lhmpId.slice(2)) + i + 1) % 100_000).padStart(5, '0')}` }),
      });
      if (res.status === 201) accounts.push(JSON.stringify({ email, password: member.password }));
    }
    if (accounts.length === 0) throw new Error('no sign-in account could be registered');
    let next = 0;
    const signins = await load({
      url: `${server.url}/api/auth/signin`,
      connections: 8,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: accounts[(next += 1) % accounts.length] }),
        },
      ],
    });
    return {
      'database': server.database.kind,
      'baseline node:http req/s': base.requestsPerSec,
      'GET /api/auth/me req/s': me.requestsPerSec,
      'GET /api/auth/me ratio to baseline': ratio(me.requestsPerSec, base.requestsPerSec),
      'GET /api/auth/me p99 ms': me.p99Ms,
      'GET /api/auth/me errors': me.errors + me.non2xx,
      'POST /api/auth/signin per second (argon2id m=19456,t=2)': signins.requestsPerSec,
      'POST /api/auth/signin p99 ms': signins.p99Ms,
      'POST /api/auth/signin errors': signins.errors + signins.non2xx,
    };
  } finally {
    await server.close();
    await baseline.close();
  }
}
