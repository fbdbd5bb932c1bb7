import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { mfaRecoveryCodes, oneTimeTokens, users } from '#db/schema';

/** A user's second factor as stored: the confirmed secret, a secret offered for set-up, the last step used. */
export async function findMfaState(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      secret: users.mfaSecret,
      pendingSecret: users.mfaPendingSecret,
      enabledAt: users.mfaEnabledAt,
      lastStep: users.mfaLastStep,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export type MfaState = NonNullable<Awaited<ReturnType<typeof findMfaState>>>;

export async function setPendingSecret(db: DbOrTx, userId: string, secret: string) {
  await db.update(users).set({ mfaPendingSecret: secret }).where(and(eq(users.id, userId), isNull(users.mfaSecret)));
}

/**
 * Records `step` as used, only if it is later than every step used before and the secret is
 * still the one the code was checked against. One statement: of two requests carrying the
 * same code, the second finds the row already moved on (PostgreSQL re-checks the WHERE after
 * the first commits) and gets false.
 */
export async function claimTotpStep(db: DbOrTx, userId: string, secret: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, userId), eq(users.mfaSecret, secret), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Turns the pending secret into the factor, with the confirming step as the last used one. */
export async function confirmPendingSecret(db: DbOrTx, userId: string, secret: string, step: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ mfaSecret: secret, mfaPendingSecret: null, mfaEnabledAt: now, mfaLastStep: step })
    .where(and(eq(users.id, userId), isNull(users.mfaSecret), eq(users.mfaPendingSecret, secret)))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Replaces a user's recovery codes with new ones (hashes only). */
export async function replaceRecoveryCodes(db: DbOrTx, userId: string, codeHashes: string[], now: Date) {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
}

/** Spends a recovery code: true once per code, however many requests carry it at once. */
export async function useRecoveryCode(db: DbOrTx, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length === 1;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Removes the factor entirely: secret, pending secret, last step, recovery codes, open challenges. */
export async function clearMfa(db: DbOrTx, userId: string) {
  await db.update(users).set({ mfaSecret: null, mfaPendingSecret: null, mfaEnabledAt: null, mfaLastStep: null }).where(eq(users.id, userId));
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db.delete(oneTimeTokens).where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'mfa_challenge')));
}

/** Stores a new sign-in challenge, clearing the user's spent and expired ones so they do not pile up. */
export async function insertChallenge(db: DbOrTx, challenge: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }) {
  await db
    .delete(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.userId, challenge.userId),
        eq(oneTimeTokens.purpose, 'mfa_challenge'),
        or(sql`${oneTimeTokens.usedAt} is not null`, lt(oneTimeTokens.expiresAt, challenge.createdAt)),
      ),
    );
  await db.insert(oneTimeTokens).values({ ...challenge, purpose: 'mfa_challenge' });
}

/** A sign-in challenge that is unused and unexpired, with its user's id and when the password step made it. */
export async function findLiveChallenge(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ id: oneTimeTokens.id, userId: oneTimeTokens.userId, createdAt: oneTimeTokens.createdAt })
    .from(oneTimeTokens)
    .where(
      and(eq(oneTimeTokens.tokenHash, tokenHash), eq(oneTimeTokens.purpose, 'mfa_challenge'), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)),
    )
    .limit(1);
  return row;
}

/**
 * Uses a challenge up: true for exactly one caller, and only while it is unexpired (a password
 * reset or change expires the account's challenges; the check here sees one that committed
 * after the challenge was looked up).
 */
export async function spendChallenge(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)))
    .returning({ id: oneTimeTokens.id });
  return rows.length === 1;
}
