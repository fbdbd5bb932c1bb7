import type { Language } from '#shared/i18n/languages';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '#db/client';
import { oneTimeTokens, users } from '#db/schema';

/** What a row of one_time_tokens is for. */
export type TokenPurpose = (typeof oneTimeTokens.$inferInsert)['purpose'];

/** Every purpose of a token: a promoted or re-passworded account ends them all. */
export const ALL_TOKEN_PURPOSES: TokenPurpose[] = ['verify_email', 'reset_password', 'set_password', 'mfa_challenge'];

/**
 * Stores a new token for the user named by id or by email, and expires their older unused
 * tokens of the same purpose, in one statement, returning who it was for. An email that
 * belongs to nobody runs the same statement, finds no row and stores nothing (forgot password:
 * both answers cost the same database work).
 */
export async function issueToken(
  db: DbOrTx,
  input: { user: { id: string } | { email: string }; purpose: TokenPurpose; tokenHash: string; expiresAt: Date; now: Date },
) {
  const match = 'id' in input.user ? sql`u.id = ${input.user.id}` : sql`u.email = ${input.user.email}`;
  const result = await db.execute(sql`
    with target as (
      select u.id, u.first_name, u.email, u.company_id, u.language from ${users} u where ${match}
    ), retired as (
      update ${oneTimeTokens} set expires_at = ${input.now}
      where user_id in (select id from target) and purpose = ${input.purpose} and used_at is null and expires_at > ${input.now}
    ), issued as (
      insert into ${oneTimeTokens} (user_id, purpose, token_hash, expires_at, created_at)
      select id, ${input.purpose}, ${input.tokenHash}, ${input.expiresAt}, ${input.now} from target
    )
    select id::text as id, first_name, email, company_id::text as company_id, language from target`);
  const row = rowsOf<{ id: string; first_name: string; email: string; company_id: string; language: Language | null }>(result)[0];
  return row ? { id: row.id, firstName: row.first_name, email: row.email, companyId: row.company_id, language: row.language } : undefined;
}

/**
 * Ends every unused token of these purposes of a user (a newer link or a new password
 * replaces them): they are expired, not marked used, so an old link says it has expired.
 */
export async function expireUnusedTokens(db: DbOrTx, userId: string, purposes: TokenPurpose[], now: Date) {
  await db
    .update(oneTimeTokens)
    .set({ expiresAt: now })
    .where(and(eq(oneTimeTokens.userId, userId), inArray(oneTimeTokens.purpose, purposes), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)));
}

/**
 * Uses a token: one statement, so two requests racing with the same link cannot both win.
 * Returns the owner and purpose, or undefined when the token is unknown, used or expired.
 */
export async function consumeToken(db: DbOrTx, tokenHash: string, purposes: TokenPurpose[], now: Date) {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.tokenHash, tokenHash), inArray(oneTimeTokens.purpose, purposes), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)))
    .returning({ userId: oneTimeTokens.userId, purpose: oneTimeTokens.purpose });
  return row;
}

/** A token as it stands (to say why it cannot be used, or whose it is before using it). */
export async function findToken(db: DbOrTx, tokenHash: string, purposes: TokenPurpose[]) {
  const [row] = await db
    .select({ userId: oneTimeTokens.userId, purpose: oneTimeTokens.purpose, expiresAt: oneTimeTokens.expiresAt, usedAt: oneTimeTokens.usedAt })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tokenHash, tokenHash), inArray(oneTimeTokens.purpose, purposes)))
    .limit(1);
  return row;
}

/** Stamps emailVerifiedAt once (the mailbox is proven); a later proof keeps the first date. */
export async function markEmailVerified(db: DbOrTx, userId: string, now: Date) {
  await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` })
    .where(eq(users.id, userId));
}
