import type { Db, DbOrTx } from '#db/client';
import { messages } from '#shared/messages/index';
import { paths } from '#shared/paths';
import type { MfaStatusResponse } from '#shared/schemas/mfa';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { newToken, sha256Hex } from '../../lib/crypto';
import type { PooledHasher } from '../../lib/hash-pool';
import { announceChange } from '../../lib/notify';
import { recordEvent } from '../audit/audit.repository';
import type { Mailer } from '../mail/mailer';
import * as authRepo from './auth.repository';
import * as repo from './mfa.repository';
import { createThrottle, throttleKeys } from './throttle';
import { asTotpCode, matchTotpStep, newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash } from './totp';

const x = messages.mfa.server;

/** How a code was accepted, for the audit trail. */
export type FactorUsed = 'totp' | 'recovery_code';

/**
 * Checks a code against the user's confirmed factor and spends it in the same statement: a
 * TOTP step is accepted only if it is later than every step used before (each code works
 * once), a recovery code only if unused. Run it inside the transaction that acts on it.
 */
export async function spendFactorCode(tx: DbOrTx, userId: string, secret: string, code: string, now: Date): Promise<FactorUsed | null> {
  if (asTotpCode(code)) {
    const step = matchTotpStep(secret, code, now);
    if (step === null) return null;
    return (await repo.claimTotpStep(tx, userId, secret, step)) ? 'totp' : null;
  }
  return (await repo.useRecoveryCode(tx, userId, recoveryCodeHash(code), now)) ? 'recovery_code' : null;
}

/**
 * Confirms a secret offered for set-up with its first code: the factor is on, the code's step
 * counts as used, and ten new recovery codes replace any old ones. Null when the code is wrong
 * or the offer is gone (confirmed or reset meanwhile).
 */
export async function confirmFactor(tx: DbOrTx, userId: string, pendingSecret: string, code: string, now: Date): Promise<string[] | null> {
  const step = matchTotpStep(pendingSecret, code, now);
  if (step === null) return null;
  if (!(await repo.confirmPendingSecret(tx, userId, pendingSecret, step, now))) return null;
  const recoveryCodes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(tx, userId, recoveryCodes.map(recoveryCodeHash), now);
  return recoveryCodes;
}

/** The secret waiting for its first code, offering the same one again until it is confirmed (documented in docs/decisions/admin-mfa.md). */
export async function offerSetup(db: DbOrTx, user: { id: string; email: string }, state: repo.MfaState, brandName: string) {
  let secret = state.pendingSecret;
  if (!secret) {
    secret = newTotpSecret();
    await repo.setPendingSecret(db, user.id, secret);
  }
  return { secret, otpauthUrl: otpauthUrl(secret, brandName, user.email) };
}

/** A sign-in challenge lasts 5 minutes, once, and dies after this many wrong codes. */
export const MFA_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const MFA_CHALLENGE_MAX_WRONG_CODES = 5;

/**
 * After a right password: a challenge for the code when the account has a factor (only its
 * SHA-256 is stored), null when it has none and the sign-in goes on as before.
 */
export async function openSignInChallenge(db: DbOrTx, userId: string, now: Date): Promise<string | null> {
  const state = await repo.findMfaState(db, userId);
  if (!state?.secret) return null;
  const challenge = newToken();
  await repo.insertChallenge(db, { userId, tokenHash: sha256Hex(challenge), createdAt: now, expiresAt: new Date(now.getTime() + MFA_CHALLENGE_TTL_MS) });
  return challenge;
}

export interface MfaDeps {
  db: Db;
  clock: Clock;
  counters: CounterStore;
  /** argon2id checks, through the bounded pool (src/server/lib/hash-pool.ts). */
  passwords: PooledHasher;
  brandName: string;
}

interface Caller {
  id: string;
  email: string;
  companyId: string;
  role: 'member' | 'admin';
}

/**
 * The audit event of a change to someone's factor: `admin.mfa.*` for an administrator whichever
 * screen it was made on (Admin Access or Security, told apart by `via`), `auth.mfa.*` for a member.
 */
const factorEvent = (user: Pick<Caller, 'role'>, name: 'setup_started' | 'enabled') => `${user.role === 'admin' ? 'admin' : 'auth'}.mfa.${name}`;

/** A member's own two-step sign-in: status, set-up, confirmation, turning it off. */
export function createMfaService(deps: MfaDeps) {
  const { db, clock } = deps;
  const throttle = createThrottle(deps.counters);

  async function passwordMatches(user: Caller, password: string): Promise<boolean> {
    const found = await authRepo.findUserByEmail(db, user.email);
    return found ? deps.passwords.verify(found.passwordHash, password, `user:${user.id}`) : false;
  }

  const deny = (user: Caller, type: string, reason: string) =>
    recordEvent(db, { type, actorUserId: user.id, companyId: user.companyId, payload: { reason }, at: clock() });

  return {
    async status(user: Caller): Promise<MfaStatusResponse> {
      const state = await repo.findMfaState(db, user.id);
      const enabled = Boolean(state?.secret);
      return {
        enabled,
        enabledAt: enabled && state?.enabledAt ? state.enabledAt.toISOString() : null,
        recoveryCodesLeft: enabled ? await repo.countUnusedRecoveryCodes(db, user.id) : 0,
        canDisable: user.role !== 'admin',
      };
    },

    /** Offers a secret to scan, after the password again (a stolen session cannot lock the owner out). */
    async startSetup(user: Caller, input: { password: string }) {
      const state = await repo.findMfaState(db, user.id);
      if (!state) throw new AppError('unauthenticated', messages.auth.server.unauthenticated);
      if (state.secret) throw new AppError('conflict', x.alreadyEnabled);
      const { ok } = await throttle.throttled(throttleKeys.signIn(user.email), async () => ({ ok: await passwordMatches(user, input.password) }));
      if (!ok) {
        await deny(user, 'auth.mfa.setup.denied', 'bad_password');
        throw new AppError('forbidden', x.passwordWrong, { password: x.passwordWrong });
      }
      const offer = await offerSetup(db, user, state, deps.brandName);
      await recordEvent(db, { type: factorEvent(user, 'setup_started'), actorUserId: user.id, companyId: user.companyId, payload: { via: 'security' }, at: clock() });
      return offer;
    },

    /**
     * The first code from the app turns the factor on and answers the recovery codes, once. Every
     * other session of the account ends with it: they were opened with the password alone, which
     * from now on is not enough (this one, which just gave a code, goes on).
     */
    async confirmSetup(user: Caller, input: { code: string }, currentSessionId: string) {
      const state = await repo.findMfaState(db, user.id);
      if (state?.secret) throw new AppError('conflict', x.alreadyEnabled);
      const pending = state?.pendingSecret;
      if (!pending) throw new AppError('conflict', x.setupNotStarted);
      const { ok, value: recoveryCodes } = await throttle.throttled(throttleKeys.mfa(user.id), async () => {
        const now = clock();
        const codes = await db.transaction(async (tx) => {
          const confirmed = await confirmFactor(tx, user.id, pending, input.code, now);
          if (!confirmed) return null;
          const sessionsRevoked = await authRepo.revokeUserSessions(tx, user.id, now, currentSessionId);
          await recordEvent(tx, { type: factorEvent(user, 'enabled'), actorUserId: user.id, companyId: user.companyId, payload: { via: 'security', sessionsRevoked }, at: now });
          return confirmed;
        });
        return { ok: codes !== null, value: codes };
      });
      if (!ok || !recoveryCodes) {
        await deny(user, 'auth.mfa.setup.denied', 'bad_mfa_code');
        throw new AppError('forbidden', x.invalidCode, { code: x.invalidCode });
      }
      await announceChange(db, { userId: user.id });
      return { recoveryCodes };
    },

    /** Turns the factor off with the password and a code; administrators keep theirs. */
    async disable(user: Caller, input: { password: string; code: string }) {
      if (user.role === 'admin') throw new AppError('forbidden', x.adminMustKeep);
      const state = await repo.findMfaState(db, user.id);
      const secret = state?.secret;
      if (!secret) throw new AppError('conflict', x.notEnabled);
      const password = await throttle.throttled(throttleKeys.signIn(user.email), async () => ({ ok: await passwordMatches(user, input.password) }));
      if (!password.ok) {
        await deny(user, 'auth.mfa.disable.denied', 'bad_password');
        throw new AppError('forbidden', x.passwordWrong, { password: x.passwordWrong });
      }
      const code = await throttle.throttled(throttleKeys.mfa(user.id), async () => {
        const now = clock();
        const used = await db.transaction(async (tx) => {
          const spent = await spendFactorCode(tx, user.id, secret, input.code, now);
          if (!spent) return null;
          await repo.clearMfa(tx, user.id);
          await recordEvent(tx, { type: 'auth.mfa.disabled', actorUserId: user.id, companyId: user.companyId, payload: { via: spent }, at: now });
          return spent;
        });
        return { ok: used !== null, value: used };
      });
      if (!code.ok) {
        await deny(user, 'auth.mfa.disable.denied', 'bad_mfa_code');
        throw new AppError('forbidden', x.invalidCode, { code: x.invalidCode });
      }
      await announceChange(db, { userId: user.id });
      return { enabled: false as const };
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;

/**
 * `npm run admin -- reset-mfa EMAIL`: for someone who lost the device. Clears the secret, the
 * pending secret, the last used step, the recovery codes and open sign-in challenges, ends
 * every session of the account (whoever holds one got it with the factor that is now gone, or
 * before it: the owner signs in again, an administrator then sets a new factor up at Admin
 * Access), audits it and queues the `mfa_reset` notice to the account's address. After the
 * commit the wrong-code throttle of the account (`throttleKeys.mfa`) starts afresh, when the
 * counter store is given: it is in the running server's memory otherwise (no REDIS_URL), which
 * this process cannot reach. Null when no account has that email.
 */
export async function resetMfa(db: Db, mailer: Pick<Mailer, 'queue'>, email: string, now: Date, counters?: CounterStore) {
  const done = await db.transaction(async (tx) => {
    const user = await authRepo.findUserByEmail(tx, email.trim().toLowerCase());
    if (!user) return null;
    const state = await repo.findMfaState(tx, user.id);
    const recoveryCodesLeft = await repo.countUnusedRecoveryCodes(tx, user.id);
    await repo.clearMfa(tx, user.id);
    const sessionsRevoked = await authRepo.revokeUserSessions(tx, user.id, now);
    await recordEvent(tx, {
      type: 'admin.mfa.reset',
      companyId: user.companyId,
      payload: { userId: user.id, via: 'cli', hadFactor: Boolean(state?.secret), hadPendingSetup: Boolean(state?.pendingSecret), sessionsRevoked },
      at: now,
    });
    await mailer.queue(tx, { to: user.email, template: 'mfa_reset', firstName: user.firstName, path: paths.login, language: user.language });
    return { userId: user.id, role: user.role, hadFactor: Boolean(state?.secret), hadPendingSetup: Boolean(state?.pendingSecret), recoveryCodesLeft, sessionsRevoked };
  });
  if (!done) return null;
  await announceChange(db, { userId: done.userId });
  // Best effort: the factor is reset either way, and a wait left behind ends by itself (15 minutes at most).
  const throttleCleared = counters ? await createThrottle(counters).clear(throttleKeys.mfa(done.userId)).then(() => true, () => false) : false;
  return { ...done, throttleCleared };
}
