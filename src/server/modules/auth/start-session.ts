import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { users } from '#db/schema';
import { messages } from '#shared/messages/index';
import { isIanaTimeZone } from '#shared/schemas/popups';
import { AppError } from '../../lib/app-error';
import { sha256Hex } from '../../lib/crypto';
import type { SessionTokens } from './session-tokens';
import { describeDevice } from './device';
import * as repo from './auth.repository';
import { absoluteExpiry } from './session-rules';

/**
 * Locks the user's row for the rest of the transaction if `passwordHash`, the
 * hash a password was just verified against, is still the account's password; false when it
 * changed meanwhile. A password reset or change updates that row first and ends the account's
 * sessions after, in one transaction, so against a sign-in holding this lock it either waits
 * (and then ends the session the sign-in opened) or has committed already (and the sign-in is
 * refused here). Call it first in the transaction: the users row is then the first lock both
 * sides take, so they never wait on each other in a cycle.
 *
 * FOR NO KEY UPDATE, the lock an UPDATE of the row takes (so a password change still waits for
 * it), not FOR UPDATE: that one also blocks the foreign-key checks of every insert naming the
 * user (an event, a family member's audit row), which, with the sign-in then waiting on the
 * participant row such a write holds, made a deadlock under load.
 */
export async function holdVerifiedPassword(tx: DbOrTx, userId: string, passwordHash: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.passwordHash, passwordHash)))
    .for('no key update');
  return rows.length === 1;
}

/**
 * For the code step of two-step sign-in, which carries no password: locks the user's row and
 * answers the current password hash if the password has not changed since the challenge was
 * made at the password step (`challengeCreatedAt`); undefined when it has. A change at the
 * very same millisecond also expired the challenge, which the caller checks too.
 */
export async function holdPasswordSince(tx: DbOrTx, userId: string, challengeCreatedAt: Date): Promise<string | undefined> {
  const [row] = await tx
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), or(isNull(users.passwordChangedAt), lte(users.passwordChangedAt, challengeCreatedAt))))
    .for('no key update');
  return row?.passwordHash;
}

/**
 * Opens a session and returns its bearer token, signed (session-tokens.ts; only its SHA-256 is
 * stored). Every path that
 * signs someone in goes through here (password sign-in, the second step of two-step sign-in,
 * the admin step-up's new token), inside the transaction that decides it, with the password
 * hash that was verified: the session opens only while that is still the account's password
 * (see holdVerifiedPassword), else a 401 as for a wrong password. Each session gets its device
 * summary: browser and system parsed from the user agent at sign-in ("Chrome on Android"); the
 * user agent itself is never stored.
 */
export async function startSession(
  tx: DbOrTx,
  tokens: SessionTokens,
  input: {
    userId: string;
    verifiedPasswordHash: string;
    userAgent: string | undefined;
    now: Date;
    adminElevatedAt?: Date | null;
    /** The browser's IANA zone (popup quiet hours and daily cap); kept only when it is a real zone. */
    timeZone?: string | null | undefined;
  },
): Promise<{ token: string; sessionId: string }> {
  if (!(await holdVerifiedPassword(tx, input.userId, input.verifiedPasswordHash))) {
    throw new AppError('unauthenticated', messages.auth.server.invalidCredentials);
  }
  const token = tokens.mint();
  const row = await repo.insertSession(tx, {
    userId: input.userId,
    tokenHash: sha256Hex(token),
    signed: true,
    createdAt: input.now,
    lastSeenAt: input.now,
    expiresAt: absoluteExpiry(input.now),
    adminElevatedAt: input.adminElevatedAt ?? null,
    device: describeDevice(input.userAgent),
    timeZone: input.timeZone && isIanaTimeZone(input.timeZone) ? input.timeZone : null,
  });
  return { token, sessionId: row.id };
}
