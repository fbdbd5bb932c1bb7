/**
 * A password reset or change racing a sign-in (docs/decisions/admin-mfa.md, "A new password
 * ends sign-ins in flight"). The race is made deterministic with hooks, not timing: the
 * modules the app uses are wrapped so that a test can run the reset at the exact point of the
 * sign-in it aims at (after the password was verified, after the sign-in challenge was looked
 * up, with the session-opening transaction still open), on both databases.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { events, loginAudits, oneTimeTokens, sessions } from '../../src/db/schema';
import { messages } from '../../src/shared/messages/index';
import { sha256Hex } from '../../src/server/lib/crypto';
import type * as AuthRepository from '../../src/server/modules/auth/auth.repository';
import type * as MfaRepository from '../../src/server/modules/auth/mfa.repository';
import type * as Passwords from '../../src/server/modules/auth/passwords';
import { latestMail } from './support/outbox';
import { type Hook, runOnce } from './support/hooks';
import { type TestApp, adminAccess, asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember, totpCode } from './support/test-app';

const hooks = vi.hoisted(() => ({
  /** Runs once, right after the next password verification (argon2) finishes. */
  afterPasswordVerified: null as Hook | null,
  /** Runs once, right after the next sign-in challenge is looked up (before the code's transaction). */
  afterChallengeFound: null as Hook | null,
  /** Runs once, inside the next session-opening transaction, after the session row is written. */
  afterSessionInserted: null as Hook | null,
}));

const once = (name: keyof typeof hooks) => runOnce(hooks, name);

vi.mock('../../src/server/modules/auth/passwords', async (importOriginal) => {
  const real = await importOriginal<typeof Passwords>();
  return {
    ...real,
    verifyPassword: async (...args: Parameters<typeof real.verifyPassword>) => {
      const ok = await real.verifyPassword(...args);
      await once('afterPasswordVerified');
      return ok;
    },
  };
});
vi.mock('../../src/server/modules/auth/mfa.repository', async (importOriginal) => {
  const real = await importOriginal<typeof MfaRepository>();
  return {
    ...real,
    findLiveChallenge: async (...args: Parameters<typeof real.findLiveChallenge>) => {
      const found = await real.findLiveChallenge(...args);
      await once('afterChallengeFound');
      return found;
    },
  };
});
vi.mock('../../src/server/modules/auth/auth.repository', async (importOriginal) => {
  const real = await importOriginal<typeof AuthRepository>();
  return {
    ...real,
    insertSession: async (...args: Parameters<typeof real.insertSession>) => {
      const row = await real.insertSession(...args);
      await once('afterSessionInserted');
      return row;
    },
  };
});

const NEW_PASSWORD = 'Lantern orbit quietly 42';
const STEP_MS = 30_000;
const s = messages.auth.server;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload, headers });
const signIn = (email: string, password: string) => post('/api/auth/signin', { email, password });
const signInMfa = (challenge: string, code: string) => post('/api/auth/signin/mfa', { challenge, code });
const meStatus = async (token: string) => (await t.app.inject(asUser(token, { url: '/api/auth/me' }))).statusCode;
const sessionsOf = (userId: string) => t.database.db.select().from(sessions).where(eq(sessions.userId, userId));

/** Asks for a reset link and reads its token from the outbox. */
async function resetLink(email: string): Promise<string> {
  expect((await post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
  return (await latestMail(t, email, 'reset_password')).token!;
}

/** Sets a new password with a reset link. */
async function useResetLink(token: string, password = NEW_PASSWORD) {
  const res = await post('/api/auth/reset-password', { token, password });
  expect(res.statusCode, res.body).toBe(200);
}

/** The whole reset-by-link flow. */
const resetPassword = async (email: string) => useResetLink(await resetLink(email));

/** A member with two-step sign-in on; returns the secret. */
async function memberWithFactor() {
  const m = await signedInMember(t.app);
  const offer = await post('/api/me/mfa/setup', { password: m.password }, m.auth);
  const { secret } = offer.json() as { secret: string };
  expect((await post('/api/me/mfa/confirm', { code: totpCode(t, secret) }, m.auth)).statusCode).toBe(200);
  t.clock.advance(10 * STEP_MS);
  return { ...m, secret };
}

/** True while some statement of this database waits for a row lock (PostgreSQL only). */
async function someoneWaitsOnALock(): Promise<boolean> {
  const result = await t.database.db.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return (rowsOf<{ n: number }>(result)[0]?.n ?? 0) > 0;
}

describe('a password reset or change racing a sign-in', () => {
  it('a reset that lands between the password check and the session refuses the sign-in, as a wrong password', async () => {
    const m = await signedInMember(t.app);
    const before = await sessionsOf(m.id);
    hooks.afterPasswordVerified = () => resetPassword(m.email);
    const res = await signIn(m.email, m.password);
    expect(hooks.afterPasswordVerified).toBeNull();
    expect([res.statusCode, res.json().error]).toEqual([401, s.invalidCredentials]);
    // No session was opened, and the reset ended the one there was.
    const after = await sessionsOf(m.id);
    expect(after).toHaveLength(before.length);
    expect(after.every((row) => row.revokedAt !== null)).toBe(true);
    const audits = await t.database.db.select().from(loginAudits).where(eq(loginAudits.userId, m.id));
    expect(audits.map((a) => a.result).sort()).toEqual(['bad_password', 'success']);
    expect((await signIn(m.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a reset that lands between the password check and the two-step challenge refuses the password step (no challenge is made)', async () => {
    const m = await memberWithFactor();
    hooks.afterPasswordVerified = () => resetPassword(m.email);
    const res = await signIn(m.email, m.password);
    expect([res.statusCode, res.json().error]).toEqual([401, s.invalidCredentials]);
    const challenges = await t.database.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, m.id), eq(oneTimeTokens.purpose, 'mfa_challenge')));
    expect(challenges).toEqual([]);
  });

  it('a reset after the password step ends the two-step sign-in, even if it commits after the challenge was looked up', async () => {
    const m = await memberWithFactor();
    const { challenge } = (await signIn(m.email, m.password)).json() as { challenge: string };
    hooks.afterChallengeFound = () => resetPassword(m.email);
    const res = await signInMfa(challenge, totpCode(t, m.secret));
    expect([res.statusCode, res.json().error]).toEqual([401, messages.mfa.server.challengeExpired]);
    expect((await sessionsOf(m.id)).filter((row) => row.revokedAt === null)).toEqual([]);
    // The code was not spent: it still works for a sign-in with the new password.
    const again = (await signIn(m.email, NEW_PASSWORD)).json() as { challenge: string };
    expect((await signInMfa(again.challenge, totpCode(t, m.secret))).statusCode).toBe(200);
  });

  it('...also when the reset ran on an instance whose clock is ahead (the challenge it expired still looks live here)', async () => {
    const m = await memberWithFactor();
    const { challenge } = (await signIn(m.email, m.password)).json() as { challenge: string };
    hooks.afterChallengeFound = async () => {
      const here = t.clock();
      t.clock.advance(1000);
      await resetPassword(m.email);
      t.clock.set(here);
    };
    const res = await signInMfa(challenge, totpCode(t, m.secret));
    expect([res.statusCode, res.json().error]).toEqual([401, messages.mfa.server.challengeExpired]);
    expect((await sessionsOf(m.id)).filter((row) => row.revokedAt === null)).toEqual([]);
  });

  it('a password change from the asking session between the password check and the code refuses the step-up, as a wrong password', async () => {
    const admin = await signedInAdmin(t);
    t.clock.advance(10 * STEP_MS);
    const asking = await freshSessionHeaders(t, admin.id);
    const token = asking.authorization.slice('Bearer '.length);
    const before = (await sessionsOf(admin.id)).length;
    hooks.afterPasswordVerified = async () => {
      const changed = await post('/api/me/password', { currentPassword: admin.password, newPassword: NEW_PASSWORD }, asking);
      expect(changed.statusCode, changed.body).toBe(200);
    };
    const res = await adminAccess(t, token, { email: admin.email, password: admin.password, code: totpCode(t, admin.mfa.secret) });
    expect([res.statusCode, res.json().error]).toEqual([403, messages.auth.adminAccess.invalidAdmin]);
    // No elevated session was opened; the asking one (which changed the password) goes on.
    expect(await sessionsOf(admin.id)).toHaveLength(before);
    expect(await meStatus(token)).toBe(200);
    const denied = await t.database.db.select().from(events).where(and(eq(events.type, 'admin.access.denied'), eq(events.actorUserId, admin.id)));
    expect(denied.map((e) => e.payloadJson)).toContainEqual(expect.objectContaining({ reason: 'password_changed' }));
    // With the new password, the same code goes through (it was not spent).
    const granted = await adminAccess(t, token, { email: admin.email, password: NEW_PASSWORD, code: totpCode(t, admin.mfa.secret) });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it('a reset that comes while the sign-in is opening its session waits for it, then ends that session', async () => {
    const m = await signedInMember(t.app);
    const link = await resetLink(m.email);
    let reset: Promise<void> | undefined;
    let settled = false;
    hooks.afterSessionInserted = async () => {
      reset = useResetLink(link).finally(() => {
        settled = true;
      });
      // PostgreSQL: hold the sign-in's transaction open until the reset is queued behind its lock
      // on the user's row (or has finished without waiting, which is the bug this catches).
      // PGlite runs one transaction at a time: the reset simply starts after this one commits.
      if (t.database.kind === 'postgres') {
        await vi.waitFor(
          async () => {
            if (!settled && !(await someoneWaitsOnALock())) throw new Error('the reset is not waiting yet');
          },
          { timeout: 10_000, interval: 5 },
        );
      }
    };
    const res = await signIn(m.email, m.password);
    expect(res.statusCode, res.body).toBe(200);
    const { token } = res.json() as { token: string };
    await reset;
    expect(await meStatus(token)).toBe(401);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
    expect(row!.revokedAt).not.toBeNull();
    const [event] = await t.database.db.select().from(events).where(and(eq(events.type, 'password.reset'), eq(events.actorUserId, m.id)));
    expect(event!.payloadJson).toMatchObject({ sessionsRevoked: 2 });
  });
});
