/**
 * The bootstrap administrator's way into the admin area for scripts that drive a real server
 * over HTTP (fault scripts, benchmarks): sign in (with a code once a factor exists), then
 * Admin Access with email and password, then a code. The first step-up on a fresh database
 * sets the factor up; its secret and recovery codes are kept here, per server, so later
 * calls in the same run can sign in and step up again. Codes come from the real clock; a step
 * is never used twice, and when the window (one step either side) is spent a recovery code
 * stands in, so nothing ever waits for the clock.
 */
import { totpCodeAt, totpStep } from '../../src/server/modules/auth/totp';

interface Factor {
  secret: string;
  recoveryCodes: string[];
  lastStep: number;
}

const factors = new Map<string, Factor>();

async function post(url: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The next code nobody used: the earliest unused step within ±1 of now, else a recovery code. */
function nextCode(factor: Factor): string {
  const now = totpStep(new Date());
  const step = Math.max(factor.lastStep + 1, now - 1);
  if (step <= now + 1) {
    factor.lastStep = step;
    return totpCodeAt(factor.secret, new Date(step * 30_000));
  }
  const recovery = factor.recoveryCodes.shift();
  if (!recovery) throw new Error('admin step-up: every code of this window and every recovery code is spent');
  return recovery;
}

/** Signs the administrator in and steps up; returns the NEW elevated token. */
export async function elevatedAdminToken(base: string, admin: { email: string; password: string }): Promise<string> {
  const key = `${base} ${admin.email}`;
  const signin = await post(`${base}/api/auth/signin`, admin);
  if (signin.status !== 200) throw new Error(`admin sign-in: ${signin.status} ${JSON.stringify(signin.body)}`);
  let token = signin.body.token as string | undefined;
  if (signin.body.status === 'mfa_required') {
    const factor = factors.get(key);
    if (!factor) throw new Error(`admin sign-in: ${admin.email} has a second factor this run did not set up (npm run admin -- reset-mfa ${admin.email})`);
    const second = await post(`${base}/api/auth/signin/mfa`, { challenge: signin.body.challenge, code: nextCode(factor) });
    if (second.status !== 200) throw new Error(`admin sign-in code: ${second.status} ${JSON.stringify(second.body)}`);
    token = second.body.token as string;
  }
  const offer = await post(`${base}/api/admin/access`, admin, token);
  if (offer.status !== 200) throw new Error(`admin access: ${offer.status} ${JSON.stringify(offer.body)}`);
  if (offer.body.status === 'mfa_setup') factors.set(key, { secret: offer.body.secret as string, recoveryCodes: [], lastStep: -1 });
  const factor = factors.get(key);
  if (!factor) throw new Error(`admin access: ${admin.email} has a second factor this run did not set up (npm run admin -- reset-mfa ${admin.email})`);
  const granted = await post(`${base}/api/admin/access`, { ...admin, code: nextCode(factor) }, token);
  if (granted.status !== 200 || granted.body.status !== 'granted') throw new Error(`admin access code: ${granted.status} ${JSON.stringify(granted.body)}`);
  if (Array.isArray(granted.body.recoveryCodes)) factor.recoveryCodes = granted.body.recoveryCodes as string[];
  return granted.body.token as string;
}
