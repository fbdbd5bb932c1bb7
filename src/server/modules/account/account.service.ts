import type { Db } from '#db/client';
import { messages } from '#shared/messages/index';
import { paths } from '#shared/paths';
import type {
  AccountSession,
  ChangePasswordRequestSchema,
  ResetPasswordRequestSchema,
} from '#shared/schemas/account';
import type { Preferences } from '#shared/schemas/auth';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { sha256Hex } from '../../lib/crypto';
import type { PooledHasher } from '../../lib/hash-pool';
import { maskIp, rateLimitKey } from '../../lib/ip';
import { announceChange } from '../../lib/notify';
import { IP_WINDOW_MS, countHit, enforceLimit, perIpKey } from '../../lib/rate-limit';
import { isUuid } from '../../lib/sql-text';
import { recordEvent } from '../audit/audit.repository';
import { revokeSession, revokeUserSessions } from '../auth/auth.repository';
import type { AuthenticatedSession, RequestContext } from '../auth/auth.service';
import { PASSWORD_LINK_PURPOSES, issueLink } from '../auth/links';
import { consumeToken, expireUnusedTokens, findToken, markEmailVerified } from '../auth/links.repository';
import { passwordProblem } from '../auth/passwords';
import { createThrottle, passwordThrottleKeys } from '../auth/throttle';
import type { Mailer } from '../mail/mailer';
import * as repo from './account.repository';

const m = messages.account.server;
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** "Resend email": at most this many per member per hour. */
export const RESEND_LIMIT_PER_HOUR = 3;
/**
 * Reset links asked for one address from one IP (an IPv6 /64): at most this many per hour,
 * whether or not the address has an account. Past it, and past the overall cap per address
 * below, the answer is the same 200 and nothing is sent.
 */
export const FORGOT_LIMIT_PER_ADDRESS_AND_IP_PER_HOUR = 3;
/** Reset links asked for one address from anywhere: at most this many per hour (the mailbox is not flooded). */
export const FORGOT_LIMIT_PER_ADDRESS_PER_HOUR = 10;
/** Tries with one password link (each runs the password rules, a good one an argon2 hash): at most this many per hour. */
export const RESET_TRIES_PER_LINK_PER_HOUR = 5;
/** Password changes tried by one member: at most this many per 15 minutes. */
export const CHANGE_LIMIT_PER_15_MIN = 5;

export interface AccountDeps {
  db: Db;
  clock: Clock;
  counters: CounterStore;
  /** argon2id hashes and checks, through the bounded pool (src/server/lib/hash-pool.ts). */
  passwords: PooledHasher;
  mailer: Mailer;
  /** BRAND_NAME: a password may not contain it. */
  brandName: string;
  /** AUTH_RATE_LIMIT_PER_IP: forgot-password, reset-password and verify-email requests per IP per minute, as for sign-in. */
  ipLimitPerMinute: number;
}

type Reason = { unknown: string; used: string; expired: string };
const verifyReasons: Reason = { unknown: m.verifyUnknown, used: m.verifyUsed, expired: m.verifyExpired };
const resetReasons: Reason = { unknown: m.resetUnknown, used: m.resetUsed, expired: m.resetExpired };

/** Why a token cannot be used, as a 400: unknown, already used, or expired (the message says which). */
function tokenRefusal(token: { usedAt: Date | null; expiresAt: Date } | undefined, now: Date, reasons: Reason): AppError {
  const message = !token ? reasons.unknown : token.usedAt ? reasons.used : token.expiresAt.getTime() <= now.getTime() ? reasons.expired : reasons.unknown;
  return new AppError('validation', message);
}

/** Email verification, password reset and change, and the member's own sessions. */
export function createAccountService(deps: AccountDeps) {
  const { db, clock, counters, mailer } = deps;
  const throttle = createThrottle(counters);
  const limit = (key: string, max: number, windowMs: number, message: string) => enforceLimit(counters, key, max, windowMs, message);
  /** The public link routes' per-IP limit (AUTH_RATE_LIMIT_PER_IP a minute, as for sign-in). */
  const limitIp = (action: string, ctx: RequestContext, message: string) => limit(perIpKey(action, ctx.ip), deps.ipLimitPerMinute, IP_WINDOW_MS, message);

  const policyFor = (user: { email: string; firstName: string; lastName: string; company: string }) => ({
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    company: user.company,
    brand: deps.brandName,
  });

  return {
    /** Confirms an address from the emailed link: single use, 24 h. */
    async verifyEmail(token: string, ctx: RequestContext): Promise<{ emailVerified: true }> {
      await limitIp('verify', ctx, messages.auth.server.rateLimited);
      const tokenHash = sha256Hex(token);
      const now = clock();
      const verified = await db.transaction(async (tx) => {
        const used = await consumeToken(tx, tokenHash, ['verify_email'], now);
        if (!used) return null;
        await markEmailVerified(tx, used.userId, now);
        await expireUnusedTokens(tx, used.userId, ['verify_email'], now);
        const user = await repo.findAccountUser(tx, used.userId);
        await recordEvent(tx, { type: 'user.email_verified', actorUserId: used.userId, companyId: user?.companyId ?? null, payload: { ip: maskIp(ctx.ip) }, at: now });
        return used.userId;
      });
      if (!verified) throw tokenRefusal(await findToken(db, tokenHash, ['verify_email']), now, verifyReasons);
      // GET /api/auth/me reports the address as verified from now on, on every instance.
      await announceChange(db, { userId: verified });
      return { emailVerified: true };
    },

    /** Sends a new verification link to the signed-in member; nothing when already verified. */
    async resendVerification(session: AuthenticatedSession, ctx: RequestContext): Promise<{ status: 'sent' | 'already_verified' }> {
      const { user } = session;
      if (session.account.emailVerifiedAt) return { status: 'already_verified' };
      await limit(`verify-resend:${user.id}`, RESEND_LIMIT_PER_HOUR, HOUR, m.resendLimited);
      const now = clock();
      await db.transaction(async (tx) => {
        await issueLink(tx, mailer, user, 'verify_email', now, ctx.language);
        await recordEvent(tx, { type: 'user.verification_sent', actorUserId: user.id, companyId: user.companyId, payload: { ip: maskIp(ctx.ip) }, at: now });
      });
      return { status: 'sent' };
    },

    /**
     * Emails a reset link if the address has an account. The answer, and the work done to
     * reach it, are the same either way: the same limits, a token made and hashed, one
     * statement that looks the address up and stores the token only if it found someone,
     * and an audit row. The only extra for a real account is the outbox row.
     * Past the per-address limits the answer is the same 200 too, and nothing is sent: a 429
     * would confirm nothing about the account but would let anyone keep a member from ever
     * getting a link. The address is limited per caller IP, so requests from elsewhere do not
     * use up the owner's allowance, and overall, so the mailbox is not flooded.
     */
    async forgotPassword(email: string, ctx: RequestContext): Promise<{ message: string }> {
      await limitIp('forgot', ctx, m.forgotLimited);
      const address = sha256Hex(email);
      // Checked in this order so that requests refused per IP never use up the overall allowance.
      const limited = (await countHit(counters, `forgot:${address}:${rateLimitKey(ctx.ip)}`, FORGOT_LIMIT_PER_ADDRESS_AND_IP_PER_HOUR, HOUR))
        ? 'address_and_ip'
        : (await countHit(counters, `forgot:${address}`, FORGOT_LIMIT_PER_ADDRESS_PER_HOUR, HOUR))
          ? 'address'
          : null;
      const now = clock();
      await db.transaction(async (tx) => {
        const user = limited ? undefined : await issueLink(tx, mailer, { email }, 'reset_password', now, ctx.language);
        await recordEvent(tx, {
          type: 'password.reset_requested',
          actorUserId: user?.id ?? null,
          companyId: user?.companyId ?? null,
          payload: { ip: maskIp(ctx.ip), ...(limited ? { limited } : { accountFound: Boolean(user) }) },
          at: now,
        });
      });
      return { message: m.forgotSent };
    },

    /**
     * Sets a new password from a reset or set-password link. The policy is checked before the
     * link is used, so a refused password leaves the link working; each link allows a few
     * tries an hour (each runs the password rules, a good one an argon2 hash). The link is
     * spent in the transaction that sets the password (one UPDATE ... WHERE used_at IS NULL),
     * so of two requests racing with it only one succeeds. Every session of the person ends;
     * the mailbox is proven, so the address counts as verified; after the commit the password
     * throttles of the account start afresh, so an owner locked out by someone guessing gets
     * in with the new password at once.
     */
    async resetPassword(input: z.output<typeof ResetPasswordRequestSchema>, ctx: RequestContext): Promise<{ ok: true }> {
      await limitIp('reset', ctx, messages.auth.server.rateLimited);
      const tokenHash = sha256Hex(input.token);
      const now = clock();
      const found = await findToken(db, tokenHash, PASSWORD_LINK_PURPOSES);
      if (!found || found.usedAt || found.expiresAt.getTime() <= now.getTime()) throw tokenRefusal(found, now, resetReasons);
      // A full hash pool answers 503 before the link's tries are counted.
      deps.passwords.admit(rateLimitKey(ctx.ip));
      await limit(`reset-link:${tokenHash}`, RESET_TRIES_PER_LINK_PER_HOUR, HOUR, m.resetLinkLimited);
      const user = await repo.findAccountUser(db, found.userId);
      if (!user) throw tokenRefusal(undefined, now, resetReasons);
      const weak = passwordProblem(input.password, policyFor(user));
      if (weak) throw new AppError('validation', weak, { password: weak });
      const passwordHash = await deps.passwords.hash(input.password, rateLimitKey(ctx.ip));
      await db.transaction(async (tx) => {
        const used = await consumeToken(tx, tokenHash, PASSWORD_LINK_PURPOSES, now);
        // Another request used the link meanwhile.
        if (!used) throw tokenRefusal({ usedAt: now, expiresAt: found.expiresAt }, now, resetReasons);
        await repo.setPassword(tx, user.id, passwordHash, now);
        await markEmailVerified(tx, user.id, now);
        // Other reset links, and sign-ins half-way through two-step (begun with the old password), end too.
        await expireUnusedTokens(tx, user.id, [...PASSWORD_LINK_PURPOSES, 'mfa_challenge'], now);
        const sessionsRevoked = await revokeUserSessions(tx, user.id, now);
        await mailer.queue(tx, { to: user.email, template: 'password_changed', firstName: user.firstName, path: paths.forgotPassword, language: user.language ?? ctx.language });
        await recordEvent(tx, {
          type: 'password.reset',
          actorUserId: user.id,
          companyId: user.companyId,
          payload: { ip: maskIp(ctx.ip), via: used.purpose, sessionsRevoked },
          at: now,
        });
      });
      await announceChange(db, { userId: user.id });
      // Best effort: the password is set either way, and a throttle left behind ends by itself (15 minutes at most).
      for (const key of passwordThrottleKeys(user)) await throttle.clear(key).catch(() => undefined);
      return { ok: true };
    },

    /** Changes the signed-in member's password; their other sessions end, this one stays. */
    async changePassword(session: AuthenticatedSession, input: z.output<typeof ChangePasswordRequestSchema>, ctx: RequestContext): Promise<{ otherSessionsRevoked: number }> {
      const attemptsKey = `change-password:${session.user.id}`;
      const client = rateLimitKey(ctx.ip);
      // A full hash pool answers 503 before the attempt is counted.
      deps.passwords.admit(client);
      await limit(attemptsKey, CHANGE_LIMIT_PER_15_MIN, 15 * MINUTE, m.changeLimited);
      const user = await repo.findAccountUser(db, session.user.id);
      if (!user || !(await deps.passwords.verify(user.passwordHash, input.currentPassword, client))) {
        await recordEvent(db, { type: 'password.change.denied', actorUserId: session.user.id, companyId: session.user.companyId, payload: { ip: maskIp(ctx.ip) }, at: clock() });
        throw new AppError('validation', m.currentPasswordWrong, { currentPassword: m.currentPasswordWrong });
      }
      const weak = passwordProblem(input.newPassword, policyFor(user));
      if (weak) throw new AppError('validation', weak, { newPassword: weak });
      if (await deps.passwords.verify(user.passwordHash, input.newPassword, client)) {
        const same = messages.account.validation.sameAsCurrent;
        throw new AppError('validation', same, { newPassword: same });
      }
      const passwordHash = await deps.passwords.hash(input.newPassword, client);
      const now = clock();
      const otherSessionsRevoked = await db.transaction(async (tx) => {
        await repo.setPassword(tx, user.id, passwordHash, now);
        // A reset link asked for earlier must not undo this change; a sign-in half-way through
        // two-step (begun with the old password) must not finish.
        await expireUnusedTokens(tx, user.id, [...PASSWORD_LINK_PURPOSES, 'mfa_challenge'], now);
        const revoked = await revokeUserSessions(tx, user.id, now, session.session.id);
        await mailer.queue(tx, { to: user.email, template: 'password_changed', firstName: user.firstName, path: paths.forgotPassword, language: user.language ?? ctx.language });
        await recordEvent(tx, { type: 'password.changed', actorUserId: user.id, companyId: user.companyId, payload: { ip: maskIp(ctx.ip), sessionsRevoked: revoked }, at: now });
        return revoked;
      });
      await announceChange(db, { userId: user.id });
      await counters.reset(attemptsKey);
      return { otherSessionsRevoked };
    },

    /** Every live session of the caller, this one first. */
    async listSessions(session: AuthenticatedSession): Promise<AccountSession[]> {
      const rows = await repo.listLiveSessions(db, session.user.id, clock());
      return rows
        .map((row) => ({
          id: row.id,
          device: row.device,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          current: row.id === session.session.id,
        }))
        .sort((a, b) => Number(b.current) - Number(a.current));
    },

    /** Signs out one of the caller's own sessions; any other id (someone else's too) is a 404. */
    async revokeSession(session: AuthenticatedSession, sessionId: string, ctx: RequestContext): Promise<void> {
      if (!isUuid(sessionId)) throw new AppError('not_found', m.sessionNotFound);
      const now = clock();
      await db.transaction(async (tx) => {
        if (!(await revokeSession(tx, sessionId, now, session.user.id))) throw new AppError('not_found', m.sessionNotFound);
        await recordEvent(tx, {
          type: 'session.revoked',
          actorUserId: session.user.id,
          companyId: session.user.companyId,
          payload: { sessionId, current: sessionId === session.session.id, ip: maskIp(ctx.ip) },
          at: now,
        });
      });
      await announceChange(db, { sessionId });
    },

    /** Signs out every session of the caller but this one. */
    async revokeOtherSessions(session: AuthenticatedSession, ctx: RequestContext): Promise<{ revoked: number }> {
      const now = clock();
      const revoked = await db.transaction(async (tx) => {
        const count = await revokeUserSessions(tx, session.user.id, now, session.session.id);
        await recordEvent(tx, { type: 'session.revoked_others', actorUserId: session.user.id, companyId: session.user.companyId, payload: { count, ip: maskIp(ctx.ip) }, at: now });
        return count;
      });
      await announceChange(db, { userId: session.user.id });
      return { revoked };
    },

    /** Saves the caller's choices on the account; every instance's cached session picks them up. */
    async savePreferences(session: AuthenticatedSession, preferences: Preferences): Promise<Preferences> {
      const now = clock();
      await db.transaction(async (tx) => {
        await repo.setLanguage(tx, session.user.id, preferences.language);
        await recordEvent(tx, { type: 'user.preferences_changed', actorUserId: session.user.id, companyId: session.user.companyId, payload: preferences, at: now });
      });
      await announceChange(db, { userId: session.user.id });
      return preferences;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
