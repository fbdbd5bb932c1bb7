import type { Db } from '#db/client';
import { messages } from '#shared/messages/index';
import type { AdminAccessRequestSchema, RegisterRequestSchema, SessionUser, SignInRequestSchema } from '#shared/schemas/auth';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { hmacHex, newToken, sha256Hex } from '../../lib/crypto';
import { maskIp, rateLimitKey } from '../../lib/ip';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordEvent } from '../audit/audit.repository';
import * as repo from './auth.repository';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords';
import { absoluteExpiry, adminElevationActive, idleExpiry, sessionStatus, shouldTouch } from './session-rules';

const m = messages.auth.server;
const LOCK_WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES = 5;
const IP_WINDOW_MS = 60 * 1000;
const ENDED_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  counters: CounterStore;
  auditSecret: string;
  ipLimitPerMinute: number;
  /** Told every sign-in outcome once it is recorded (metrics). */
  onSignIn?: (result: repo.LoginResult) => void;
}

export interface RequestContext {
  ip: string;
  userAgent: string;
}

export type AuthenticatedSession = NonNullable<Awaited<ReturnType<typeof repo.findSessionByTokenHash>>>;

function toSessionUser(u: { id: string; firstName: string; lastName: string; email: string; lhmpId: string; company: string; role: 'member' | 'admin' }): SessionUser {
  return { id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, lhmpId: u.lhmpId, company: u.company, role: u.role };
}

/** Accounts and sessions: registration, sign-in with lockout, bearer sessions. */
export function createAuthService(deps: AuthDeps) {
  const { db, clock, counters } = deps;
  // Verified against when the email is unknown, so both failures cost the same time.
  const dummyHash = hashPassword(newToken());

  async function limitIp(action: string, ctx: RequestContext) {
    const hit = await counters.increment(`ip:${action}:${rateLimitKey(ctx.ip)}`, IP_WINDOW_MS);
    if (hit.count > deps.ipLimitPerMinute) {
      return Math.ceil(hit.resetInMs / 1000);
    }
    return 0;
  }

  /**
   * Counts an attempt before the password is checked, so guesses sent in parallel cannot
   * outrun the lockout: failures plus attempts in flight never exceed MAX_FAILURES. An attempt
   * over that is refused unverified and not counted; only settled failures set the lock, so
   * a member's own simultaneous sign-ins cannot lock their account.
   */
  async function claimAttempt(key: string): Promise<number> {
    const lock = await counters.get(`lock:${key}`);
    if (lock.count > 0) return Math.max(1, Math.ceil(lock.resetInMs / 1000));
    const attempts = await counters.increment(`attempts:${key}`, LOCK_WINDOW_MS);
    if (attempts.count > MAX_FAILURES) {
      await counters.decrement(`attempts:${key}`);
      return Math.max(1, Math.ceil(attempts.resetInMs / 1000));
    }
    return 0;
  }

  async function settleAttempt(key: string, succeeded: boolean) {
    if (succeeded) {
      await counters.reset(`attempts:${key}`);
      return;
    }
    const attempts = await counters.get(`attempts:${key}`);
    if (attempts.count >= MAX_FAILURES) await counters.set(`lock:${key}`, LOCK_WINDOW_MS);
  }

  /** An admin whose step-up is still fresh (the spec's Admin Access, enforced on the server). */
  const isAdminElevated = (session: AuthenticatedSession): boolean =>
    session.user.role === 'admin' && adminElevationActive(session.session.adminElevatedAt, clock());

  function audit(result: repo.LoginResult, ctx: RequestContext, user?: { id: string; companyId: string }) {
    deps.onSignIn?.(result);
    return repo.insertLoginAudit(db, {
      result,
      userId: user?.id ?? null,
      companyId: user?.companyId ?? null,
      timestamp: clock(),
      ipMasked: maskIp(ctx.ip),
      userAgentHash: hmacHex(deps.auditSecret, ctx.userAgent),
    });
  }

  return {
    /** Creates a member account, finding or creating the employer by normalised name. */
    async register(input: z.output<typeof RegisterRequestSchema>, ctx: RequestContext): Promise<SessionUser> {
      const retryAfter = await limitIp('register', ctx);
      if (retryAfter) throw new AppError('rate_limited', m.rateLimited, undefined, { 'retry-after': String(retryAfter) });
      if (isCommonPassword(input.password)) {
        throw new AppError('validation', messages.auth.validation.passwordCommon, {
          password: messages.auth.validation.passwordCommon,
        });
      }
      const passwordHash = await hashPassword(input.password);
      try {
        const userId = await db.transaction(async (tx) => {
          const company = await repo.findOrCreateCompany(tx, input.company);
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
      const user = await repo.findUserByEmail(db, input.email);
      const lockedFor = await claimAttempt(input.email);
      if (lockedFor) {
        await audit('locked', ctx, user);
        throw new AppError('rate_limited', m.locked, undefined, { 'retry-after': String(lockedFor) });
      }
      const ok = user
        ? await verifyPassword(user.passwordHash, input.password)
        : (await verifyPassword(await dummyHash, input.password), false);
      await settleAttempt(input.email, Boolean(user && ok));
      if (!user || !ok) {
        await audit(user ? 'bad_password' : 'unknown_email', ctx, user);
        throw new AppError('unauthenticated', m.invalidCredentials);
      }
      const token = newToken();
      const now = clock();
      await db.transaction(async (tx) => {
        await repo.recordSuccessfulLogin(tx, user.id, now);
        await repo.insertSession(tx, {
          userId: user.id,
          tokenHash: sha256Hex(token),
          createdAt: now,
          lastSeenAt: now,
          expiresAt: absoluteExpiry(now),
        });
        await repo.insertLoginAudit(tx, {
          result: 'success',
          userId: user.id,
          companyId: user.companyId,
          timestamp: now,
          ipMasked: maskIp(ctx.ip),
          userAgentHash: hmacHex(deps.auditSecret, ctx.userAgent),
        });
      });
      deps.onSignIn?.('success');
      return { user: toSessionUser(user), token };
    },

    /** Resolves a bearer token to its live session, sliding the idle window. */
    async authenticate(token: string): Promise<AuthenticatedSession> {
      const found = await repo.findSessionByTokenHash(db, sha256Hex(token));
      const now = clock();
      if (!found || sessionStatus(found.session, now) !== 'active') {
        throw new AppError('unauthenticated', m.unauthenticated);
      }
      if (shouldTouch(found.session, now)) {
        await repo.touchSession(db, found.session.id, now);
        found.session.lastSeenAt = now;
      }
      return found;
    },

    async signOut(session: AuthenticatedSession): Promise<void> {
      await repo.revokeSession(db, session.session.id, clock());
    },

    /** Step-up for the admin area: the signed-in admin re-enters their credentials. */
    async elevateAdmin(session: AuthenticatedSession, input: z.output<typeof AdminAccessRequestSchema>, ctx: RequestContext) {
      const a = messages.auth.adminAccess;
      const actor = { actorUserId: session.user.id, companyId: session.user.companyId };
      const attemptKey = `admin:${session.user.id}`;
      const lockedFor = await claimAttempt(attemptKey);
      if (lockedFor) throw new AppError('rate_limited', m.locked, undefined, { 'retry-after': String(lockedFor) });
      const deny = async (reason: string, message: string) => {
        await settleAttempt(attemptKey, false);
        await recordEvent(db, { type: 'admin.access.denied', ...actor, payload: { reason, ip: maskIp(ctx.ip) }, at: clock() });
        return new AppError('forbidden', message);
      };
      if (input.email !== session.user.email) throw await deny('not_signed_in_user', a.notAdminUser);
      const user = await repo.findUserByEmail(db, input.email);
      const ok = user ? await verifyPassword(user.passwordHash, input.password) : false;
      if (!ok || session.user.role !== 'admin') throw await deny(ok ? 'not_admin' : 'bad_password', a.invalidAdmin);
      await settleAttempt(attemptKey, true);
      const now = clock();
      await db.transaction(async (tx) => {
        await repo.elevateSession(tx, session.session.id, now);
        await recordEvent(tx, { type: 'admin.access.granted', ...actor, payload: { ip: maskIp(ctx.ip) }, at: now });
      });
      return { adminEmail: session.user.email };
    },

    isAdminElevated,

    /** Deletes sessions that ended over a day ago (login_audits keep the history). */
    purgeEndedSessions: () => repo.deleteEndedSessions(db, new Date(clock().getTime() - ENDED_SESSION_RETENTION_MS)),

    describe(session: AuthenticatedSession) {
      return {
        user: toSessionUser(session.user),
        session: {
          expiresAt: session.session.expiresAt.toISOString(),
          idleExpiresAt: idleExpiry(session.session).toISOString(),
          adminElevated: isAdminElevated(session),
        },
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
