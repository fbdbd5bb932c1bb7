import type { Language } from '#shared/i18n/languages';
import type { Db, DbOrTx } from '#db/client';
import { messages } from '#shared/messages/index';
import type { AdminAccessRequestSchema, AdminAccessResponse, RegisterRequestSchema, SessionUser, SignInMfaRequestSchema, SignInRequestSchema } from '#shared/schemas/auth';
import type { EnrolmentMode } from '#shared/schemas/enrolment';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { hmacHex, newToken, sha256Hex } from '../../lib/crypto';
import type { PooledHasher } from '../../lib/hash-pool';
import { maskIp, rateLimitKey } from '../../lib/ip';
import { isUniqueViolation } from '../../lib/pg-errors';
import { IP_WINDOW_MS, countHit, perIpKey } from '../../lib/rate-limit';
import { recordEvent } from '../audit/audit.repository';
import type { Mailer } from '../mail/mailer';
import { employerForRegistration } from '../enrolment/registration-employer';
import * as repo from './auth.repository';
import { issueLink } from './links';
import * as mfaRepo from './mfa.repository';
import { type FactorUsed, MFA_CHALLENGE_MAX_WRONG_CODES, MFA_CHALLENGE_TTL_MS, confirmFactor, offerSetup, openSignInChallenge, spendFactorCode } from './mfa.service';
import { passwordProblem } from './passwords';
import { createRefusedAttempts } from './refused-attempts';
import { announceChange } from '../../lib/notify';
import type { SessionCache } from './session-cache';
import { TOUCH_INTERVAL_MS, adminElevationActive, idleExpiry, sessionStatus, shouldTouch } from './session-rules';
import type { SessionTokensSource } from './session-tokens';
import { holdPasswordSince, holdVerifiedPassword, startSession } from './start-session';
import { createThrottle, throttleKeys } from './throttle';

const m = messages.auth.server;
const x = messages.mfa.server;
const ENDED_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  counters: CounterStore;
  /** Every argon2id hash and check, through the bounded pool (src/server/lib/hash-pool.ts). */
  passwords: PooledHasher;
  auditSecret: string;
  ipLimitPerMinute: number;
  mailer: Mailer;
  /** The service's name (BRAND_NAME): a password may not contain it. */
  brandName: string;
  /** Told every sign-in outcome once it is recorded (metrics). */
  onSignIn?: (result: repo.LoginResult) => void;
  /** Enrolment mode of employers registration creates (ENROLMENT_MODE); `roster` means it creates none. */
  newEmployerMode?: EnrolmentMode;
  /** Mints session tokens, and refuses one this server did not issue before any lookup (session-tokens.ts). */
  sessionTokens: SessionTokensSource;
  /** Recently resolved sessions (SESSION_CACHE_TTL_MS); absent, every request asks the database. */
  sessionCache?: SessionCache<AuthenticatedSession>;
}

export interface RequestContext {
  ip: string;
  userAgent: string;
  /** The caller's language (Accept-Language): mail it causes is written in it unless the account chose one. */
  language?: Language;
}

export type AuthenticatedSession = NonNullable<Awaited<ReturnType<typeof repo.findSessionByTokenHash>>>;

function toSessionUser(u: SessionUser): SessionUser {
  return { id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, lhmpId: u.lhmpId, company: u.company, role: u.role, language: u.language };
}

/** Accounts and sessions: registration, sign-in with lockout, bearer sessions. */
export function createAuthService(deps: AuthDeps) {
  const { db, clock, counters } = deps;
  const throttle = createThrottle(counters);
  const { passwords } = deps;
  // Verified against when the email is unknown, so both failures cost the same time.
  const dummyHash = passwords.hash(newToken());
  // Rate-limited and locked attempts: one row per key and window, counted (refused-attempts.ts).
  const refused = createRefusedAttempts({ db, clock });

  /** 0 within AUTH_RATE_LIMIT_PER_IP a minute, else the seconds to wait. */
  const limitIp = (action: string, ctx: RequestContext) => countHit(counters, perIpKey(action, ctx.ip), deps.ipLimitPerMinute, IP_WINDOW_MS);

  // Password and code checks go through throttle.throttled (throttle.ts): claimed before the
  // check, so guesses sent in parallel cannot outrun it, and settled even when the check throws.

  /** An admin whose step-up is still fresh (the spec's Admin Access, enforced on the server). */
  const isAdminElevated = (session: AuthenticatedSession): boolean =>
    session.user.role === 'admin' && adminElevationActive(session.session.adminElevatedAt, clock());

  /**
   * The login_audits row of one sign-in attempt (every attempt writes one, product-decisions);
   * refused ones (rate limited, locked) are counted on one row per caller and window instead.
   */
  const loginAudit = (result: repo.LoginResult, ctx: RequestContext, at: Date, user?: { id: string; companyId: string }) => ({
    result,
    userId: user?.id ?? null,
    companyId: user?.companyId ?? null,
    timestamp: at,
    ipMasked: maskIp(ctx.ip),
    userAgentHash: hmacHex(deps.auditSecret, ctx.userAgent),
  });

  function audit(result: repo.LoginResult, ctx: RequestContext, user?: { id: string; companyId: string }) {
    deps.onSignIn?.(result);
    const row = loginAudit(result, ctx, clock(), user);
    if (result === 'rate_limited' || result === 'locked') return refused.record({ ...row, result });
    return repo.insertLoginAudit(db, row);
  }

  /** Audits a spent recovery code with how many are left (an operator may want to act when few are). */
  async function recordRecoveryCodeUse(tx: DbOrTx, user: { id: string; companyId: string }, type: string, now: Date) {
    const left = await mfaRepo.countUnusedRecoveryCodes(tx, user.id);
    await recordEvent(tx, { type, actorUserId: user.id, companyId: user.companyId, payload: { recoveryCodesLeft: left }, at: now });
  }

  return {
    /** Creates a member account, finding or creating the employer by normalised name. */
    async register(input: z.output<typeof RegisterRequestSchema>, ctx: RequestContext): Promise<SessionUser> {
      const retryAfter = await limitIp('register', ctx);
      if (retryAfter) throw new AppError('rate_limited', m.rateLimited, undefined, { 'retry-after': String(retryAfter) });
      const client = rateLimitKey(ctx.ip);
      passwords.admit(client);
      const weak = passwordProblem(input.password, { ...input, brand: deps.brandName });
      if (weak) throw new AppError('validation', weak, { password: weak });
      const passwordHash = await passwords.hash(input.password, client);
      try {
        const userId = await db.transaction(async (tx) => {
          // Taken email or programme ID before the roster: a 409 that came only after a roster
          // match would tell anyone holding a registered email which (ID, names) guesses are listed.
          // The unique constraints (below) remain the backstop for a registration racing this one.
          const taken = await repo.takenIdentifiers(tx, input.email, input.lhmpId);
          if (taken.email) throw new AppError('conflict', m.emailTaken, { email: m.emailTaken });
          if (taken.lhmpId) throw new AppError('conflict', m.lhmpIdTaken, { lhmpId: m.lhmpIdTaken });
          const company = await employerForRegistration(tx, input, deps.newEmployerMode ?? 'open');
          const { id } = await repo.insertUser(tx, {
            firstName: input.firstName,
            lastName: input.lastName,
            email: input.email,
            lhmpId: input.lhmpId,
            companyId: company.id,
            passwordHash,
            createdAt: clock(),
          });
          await recordEvent(tx, { type: 'user.registered', actorUserId: id, companyId: company.id, at: clock() });
          await issueLink(tx, deps.mailer, { id }, 'verify_email', clock(), ctx.language);
          return id;
        });
        const user = await repo.findSessionUser(db, userId);
        return toSessionUser(user!);
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_unique')) {
          throw new AppError('conflict', m.emailTaken, { email: m.emailTaken });
        }
        if (isUniqueViolation(err, 'users_lhmp_id_unique')) {
          throw new AppError('conflict', m.lhmpIdTaken, { lhmpId: m.lhmpIdTaken });
        }
        throw err;
      }
    },

    /** Verifies credentials; the same 401 whether the email is unknown or the password wrong. */
    async signIn(input: z.output<typeof SignInRequestSchema>, ctx: RequestContext) {
      const retryAfter = await limitIp('signin', ctx);
      if (retryAfter) {
        await audit('rate_limited', ctx);
        throw new AppError('rate_limited', m.rateLimited, undefined, { 'retry-after': String(retryAfter) });
      }
      // A full hash pool answers 503 before any database work (src/server/lib/hash-pool.ts).
      const client = rateLimitKey(ctx.ip);
      passwords.admit(client);
      const user = await repo.findUserByEmail(db, input.email);
      const { ok } = await throttle.throttled(
        throttleKeys.signIn(input.email),
        async () => ({
          ok: user ? await passwords.verify(user.passwordHash, input.password, client) : (await passwords.verify(await dummyHash, input.password, client), false),
        }),
        () => audit('locked', ctx, user),
      );
      if (!user || !ok) {
        await audit(user ? 'bad_password' : 'unknown_email', ctx, user);
        throw new AppError('unauthenticated', m.invalidCredentials);
      }
      const now = clock();
      const sessionTokens = await deps.sessionTokens.get();
      const opened = await db.transaction(async (tx): Promise<{ status: 'mfa_required'; challenge: string } | { token: string } | null> => {
        // A password reset or change that committed since the check above refuses this sign-in;
        // one that comes later waits for it and then ends what it opens (start-session.ts).
        if (!(await holdVerifiedPassword(tx, user.id, user.passwordHash))) return null;
        // Two-step sign-in: the right password opens no session yet, only a challenge for the code.
        const challenge = await openSignInChallenge(tx, user.id, now);
        if (challenge) {
          await repo.insertLoginAudit(tx, loginAudit('mfa_required', ctx, now, user));
          return { status: 'mfa_required', challenge };
        }
        await repo.recordSuccessfulLogin(tx, user.id, now);
        const session = await startSession(tx, sessionTokens, { userId: user.id, verifiedPasswordHash: user.passwordHash, userAgent: ctx.userAgent, now, timeZone: input.timeZone });
        await repo.insertLoginAudit(tx, loginAudit('success', ctx, now, user));
        return { token: session.token };
      });
      if (!opened) {
        // The password given was right a moment ago and is not any more: as for a wrong one.
        await audit('bad_password', ctx, user);
        throw new AppError('unauthenticated', m.invalidCredentials);
      }
      if ('challenge' in opened) {
        deps.onSignIn?.('mfa_required');
        return opened;
      }
      deps.onSignIn?.('success');
      return { user: toSessionUser(user), token: opened.token };
    },

    /**
     * The second step of two-step sign-in: the challenge from the password step and a code
     * (TOTP or recovery code). Wrong codes are throttled per factor and kill the challenge
     * after MFA_CHALLENGE_MAX_WRONG_CODES; a right one opens the session as signIn does.
     */
    async completeMfaSignIn(input: z.output<typeof SignInMfaRequestSchema>, ctx: RequestContext) {
      const retryAfter = await limitIp('signin', ctx);
      if (retryAfter) {
        await audit('rate_limited', ctx);
        throw new AppError('rate_limited', m.rateLimited, undefined, { 'retry-after': String(retryAfter) });
      }
      const challengeHash = sha256Hex(input.challenge);
      const found = await mfaRepo.findLiveChallenge(db, challengeHash, clock());
      const user = found ? await repo.findSessionUser(db, found.userId) : undefined;
      const secret = user ? (await mfaRepo.findMfaState(db, user.id))?.secret : undefined;
      // Unknown, used, expired, or the factor was reset meanwhile: start again from the password.
      if (!found || !user || !secret) throw new AppError('unauthenticated', x.challengeExpired);
      const now = clock();
      // Read before the throttle: a database that fails here does not count as a wrong code.
      const sessionTokens = await deps.sessionTokens.get();
      const { outcome } = await throttle.throttled(
        throttleKeys.mfa(user.id),
        async () => {
          const outcome = await db.transaction(async (tx): Promise<{ token: string; used: FactorUsed } | null> => {
            // The password given at the password step must still be the account's: a reset or
            // change since the challenge was made ends this sign-in (start-session.ts), before any code is spent.
            const passwordHash = await holdPasswordSince(tx, user.id, found.createdAt);
            if (!passwordHash) throw new AppError('unauthenticated', x.challengeExpired);
            const used = await spendFactorCode(tx, user.id, secret, input.code, now);
            if (!used) return null;
            // Two right codes racing on one challenge: the second finds it spent (its code is given
            // back by the rollback); so does one a password change expired since it was looked up.
            if (!(await mfaRepo.spendChallenge(tx, found.id, now))) throw new AppError('unauthenticated', x.challengeExpired);
            await repo.recordSuccessfulLogin(tx, user.id, now);
            const session = await startSession(tx, sessionTokens, { userId: user.id, verifiedPasswordHash: passwordHash, userAgent: ctx.userAgent, now, timeZone: input.timeZone });
            await repo.insertLoginAudit(tx, loginAudit('success', ctx, now, user));
            if (used === 'recovery_code') await recordRecoveryCodeUse(tx, user, 'auth.mfa.recovery_code_used', now);
            return { token: session.token, used };
          });
          return { ok: outcome !== null, outcome };
        },
        () => audit('locked', ctx, user),
      );
      if (!outcome) {
        await audit('bad_mfa_code', ctx, user);
        const wrong = await counters.increment(`mfa-challenge:${challengeHash}`, MFA_CHALLENGE_TTL_MS);
        if (wrong.count >= MFA_CHALLENGE_MAX_WRONG_CODES) await mfaRepo.spendChallenge(db, found.id, now);
        throw new AppError('unauthenticated', x.invalidCode, { code: x.invalidCode });
      }
      deps.onSignIn?.('success');
      return { user: toSessionUser(user), token: outcome.token };
    },

    /**
     * Resolves a bearer token to its live session, sliding the idle window. A session held in
     * the cache (session-cache.ts) is served without the database while its absolute and idle
     * limits, checked against the clock here on every request, say it is live and no touch is
     * due; a token not issued here is refused at once (session-tokens.ts); anything else asks
     * the database, which alone can refuse. lastSeenAt is written at most once a minute per
     * session, across instances (touchSession).
     */
    async authenticate(token: string): Promise<AuthenticatedSession> {
      const tokenHash = sha256Hex(token);
      const cache = deps.sessionCache;
      if (cache) {
        const now = clock();
        const held = cache.get(tokenHash, now);
        if (held && sessionStatus(held.session, now) === 'active' && !shouldTouch(held.session, now)) return held;
      }
      // A token this server did not issue names no session: refused without a lookup.
      if (!(await deps.sessionTokens.get()).mayName(token)) throw new AppError('unauthenticated', m.unauthenticated);
      const stamp = cache?.stamp() ?? 0;
      const found = await repo.findSessionByTokenHash(db, tokenHash);
      const now = clock();
      if (!found || sessionStatus(found.session, now) !== 'active') {
        cache?.delete(tokenHash);
        throw new AppError('unauthenticated', m.unauthenticated);
      }
      let current = true;
      if (shouldTouch(found.session, now)) {
        current = await repo.touchSession(db, found.session.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS));
        if (current) found.session.lastSeenAt = now;
      }
      // Touched meanwhile by another instance: what was read is behind, so not kept.
      if (current) cache?.set(tokenHash, found, stamp, now);
      return found;
    },

    async signOut(session: AuthenticatedSession): Promise<void> {
      await repo.revokeSession(db, session.session.id, clock());
      await announceChange(db, { sessionId: session.session.id });
    },

    /**
     * Step-up for the admin area: the signed-in admin re-enters their credentials, then a
     * second factor (set up on first use). The right code opens a NEW admin-elevated session
     * and revokes the one that asked, so a token leaked before the step-up never becomes an
     * admin token.
     */
    async elevateAdmin(session: AuthenticatedSession, input: z.output<typeof AdminAccessRequestSchema>, ctx: RequestContext): Promise<AdminAccessResponse> {
      const a = messages.auth.adminAccess;
      const actor = { actorUserId: session.user.id, companyId: session.user.companyId };
      const ip = maskIp(ctx.ip);
      const deny = async (reason: string, message: string, fields?: Record<string, string>) => {
        await recordEvent(db, { type: 'admin.access.denied', ...actor, payload: { reason, ip }, at: clock() });
        return new AppError('forbidden', message, fields);
      };
      const password = await throttle.throttled(throttleKeys.adminAccess(session.user.id), async () => {
        if (input.email !== session.user.email) return { ok: false, reason: 'not_signed_in_user', message: a.notAdminUser } as const;
        const found = await repo.findUserByEmail(db, input.email);
        const ok = found ? await passwords.verify(found.passwordHash, input.password, rateLimitKey(ctx.ip)) : false;
        if (!found || !ok || session.user.role !== 'admin') return { ok: false, reason: ok ? 'not_admin' : 'bad_password', message: a.invalidAdmin } as const;
        // The password is right; the code (below) is throttled on its own key, reset only by a right code.
        return { ok: true, user: found } as const;
      });
      if (!password.ok) throw await deny(password.reason, password.message);
      const { user } = password;
      const state = await mfaRepo.findMfaState(db, user.id);
      if (!state) throw new AppError('unauthenticated', m.unauthenticated);

      if (input.code === undefined) {
        if (state.secret) return { status: 'mfa_required' };
        const offer = await offerSetup(db, user, state, deps.brandName);
        await recordEvent(db, { type: 'admin.mfa.setup_started', ...actor, payload: { ip }, at: clock() });
        return { status: 'mfa_setup', ...offer };
      }

      const code = input.code;
      const now = clock();
      // Read before the throttle: a database that fails here does not count as a wrong code.
      const sessionTokens = await deps.sessionTokens.get();
      const { granted } = await throttle.throttled(throttleKeys.mfa(user.id), async () => {
        const granted = await db.transaction(async (tx): Promise<{ token: string; recoveryCodes?: string[] } | 'password_changed' | null> => {
          // The password checked above must still be the account's (start-session.ts), before any code is spent.
          if (!(await holdVerifiedPassword(tx, user.id, user.passwordHash))) return 'password_changed';
          let via: FactorUsed | 'setup' | null = null;
          let recoveryCodes: string[] | undefined;
          if (state.secret) {
            via = await spendFactorCode(tx, user.id, state.secret, code, now);
          } else if (state.pendingSecret) {
            recoveryCodes = (await confirmFactor(tx, user.id, state.pendingSecret, code, now)) ?? undefined;
            if (recoveryCodes) via = 'setup';
          }
          if (!via) return null;
          // Of two step-ups from one session only one gets a token; the asking token ends here.
          if (!(await repo.revokeSession(tx, session.session.id, now))) throw new AppError('unauthenticated', m.unauthenticated);
          const fresh = await startSession(tx, sessionTokens, { userId: user.id, verifiedPasswordHash: user.passwordHash, userAgent: ctx.userAgent, now, adminElevatedAt: now, timeZone: session.session.timeZone });
          if (via === 'setup') await recordEvent(tx, { type: 'admin.mfa.enabled', ...actor, payload: { ip, via: 'admin_access' }, at: now });
          if (via === 'recovery_code') await recordRecoveryCodeUse(tx, user, 'admin.mfa.recovery_code_used', now);
          await recordEvent(tx, {
            type: 'admin.access.granted',
            ...actor,
            payload: { ip, via, sessionId: fresh.sessionId, replacedSessionId: session.session.id },
            at: now,
          });
          return { token: fresh.token, ...(recoveryCodes ? { recoveryCodes } : {}) };
        });
        // A password changed meanwhile is a failed attempt here too (a race, not a guess, but never a success).
        return { ok: granted !== null && granted !== 'password_changed', granted };
      });
      // As for a wrong password: the asking session may still be fine (changed from this device).
      if (granted === 'password_changed') throw await deny('password_changed', a.invalidAdmin);
      if (!granted) throw await deny('bad_mfa_code', x.invalidCode, { code: x.invalidCode });
      // The asking session ended (and a set-up turned the factor on): every instance forgets the user's.
      await announceChange(db, { userId: user.id });
      return { status: 'granted', ...granted };
    },

    isAdminElevated,

    /** Writes the refused attempts still counted in memory and stops their timer (the app is closing). */
    closeRefusedAttempts: () => refused.close(),

    /** Deletes sessions that ended over a day ago (login_audits keep the history). */
    purgeEndedSessions: () => repo.deleteEndedSessions(db, new Date(clock().getTime() - ENDED_SESSION_RETENTION_MS)),

    /**
     * The signed-in user's answer (GET /api/auth/me), from the session alone: the route writes it
     * once for each session object as held and step-up state (auth.routes.ts), so nothing here
     * may depend on the request or on the clock except `adminElevated`.
     */
    describe(session: AuthenticatedSession) {
      return {
        user: toSessionUser(session.user),
        session: {
          expiresAt: session.session.expiresAt.toISOString(),
          idleExpiresAt: idleExpiry(session.session).toISOString(),
          adminElevated: isAdminElevated(session),
        },
        account: {
          emailVerified: session.account.emailVerifiedAt !== null,
          mfaEnabled: session.account.mfaEnabledAt !== null,
        },
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
