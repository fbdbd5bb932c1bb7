import { type SQL, and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '#db/client';
import { outbox } from '#db/schema';

export type OutboxRow = typeof outbox.$inferSelect;
export type NewOutboxRow = typeof outbox.$inferInsert;

/** Written to `last_error` of a message printed to the console because SMTP_URL is not set. */
export const CONSOLE_NOTE = 'not sent: SMTP_URL is not set (printed to the console)';

/**
 * `next_attempt_at` of a message that is finished without being sent (given up, or shown on the
 * console): never due, so no pass scans it again through `outbox_pending_idx` and a worker with
 * SMTP_URL never sends it. A far-future date rather than PostgreSQL's 'infinity', which Drizzle
 * reads back as an Invalid Date on both drivers.
 */
export const NEVER = new Date('9999-12-31T00:00:00.000Z');

/**
 * A point in time as SQL, so the worker decides where time comes from: the database's `now()`
 * (production: every instance leases by the same clock) or a fixed instant (the injected test clock).
 */
export type SqlTime = SQL;

export const databaseNow = (): SqlTime => sql`now()`;
export const fixedTime = (at: Date): SqlTime => sql`${at.toISOString()}::timestamptz`;
/**
 * `at` plus `ms`, cut to whole milliseconds: a lease must read back into a JavaScript Date
 * unchanged, because it is the token the later update is conditioned on.
 */
export const later = (at: SqlTime, ms: number): SqlTime =>
  sql`date_trunc('milliseconds', ${at} + ${Math.round(ms)}::double precision * interval '1 millisecond')`;

export async function insertMessage(tx: DbOrTx, row: NewOutboxRow): Promise<void> {
  await tx.insert(outbox).values(row);
}

/**
 * Claims the next due message for this worker, atomically and safely against other instances:
 * the row is picked with FOR UPDATE SKIP LOCKED (a row another instance is claiming right now
 * is skipped, not waited for) and, in the same statement, leased by moving `next_attempt_at`
 * to `now + leaseMs`. One message per claim, so each lease covers one send, however slow the
 * ones before it were. No transaction stays open while the message is sent; if this instance
 * dies mid-send, the lease runs out and another instance sends it. The returned row's
 * `nextAttemptAt` is the lease: markSent / markFailed / markGivenUp only write while it is
 * still there.
 */
export async function claimNext(db: Db, input: { now: SqlTime; leaseMs: number; maxAttempts: number }): Promise<OutboxRow | undefined> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(isNull(outbox.sentAt), lt(outbox.attempts, input.maxAttempts), sql`${outbox.nextAttemptAt} <= ${input.now}`))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(outbox)
    .set({ nextAttemptAt: later(input.now, input.leaseMs) })
    .where(and(inArray(outbox.id, due), isNull(outbox.sentAt)))
    .returning();
  return row;
}

/**
 * Without SMTP: claims messages never shown before (no attempt, no note) and marks them with
 * CONSOLE_NOTE and `next_attempt_at = NEVER`, so each is printed once by one instance and then
 * leaves the pending set for good (SMTP_URL set later does not send it). Bodies are kept.
 */
export async function claimUnprinted(db: Db, input: { now: SqlTime; limit: number }): Promise<OutboxRow[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(isNull(outbox.sentAt), isNull(outbox.lastError), eq(outbox.attempts, 0), sql`${outbox.nextAttemptAt} <= ${input.now}`))
    .orderBy(asc(outbox.id))
    .limit(input.limit)
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({ lastError: CONSOLE_NOTE, nextAttemptAt: NEVER })
    .where(and(inArray(outbox.id, due), isNull(outbox.lastError)))
    .returning();
}

/** The row is still ours: not sent, and leased until exactly the lease this worker took. */
const held = (id: number, lease: Date) => and(eq(outbox.id, id), isNull(outbox.sentAt), eq(outbox.nextAttemptAt, lease));

/**
 * Sent: records when, counts the attempt and drops the bodies (they hold single-use links).
 * Only while this worker holds the lease; false when it ran out and another instance took the row.
 */
export async function markSent(db: Db, id: number, input: { lease: Date; now: SqlTime }): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ sentAt: input.now, attempts: sql`${outbox.attempts} + 1`, textBody: null, htmlBody: null })
    .where(held(id, input.lease))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

/** A failed attempt: counted, a short reason kept, retried at `retryAt`. Only while the lease is held. */
export async function markFailed(db: Db, id: number, input: { lease: Date; error: string; retryAt: SqlTime }): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ attempts: sql`${outbox.attempts} + 1`, lastError: input.error, nextAttemptAt: input.retryAt })
    .where(held(id, input.lease))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

/**
 * The last attempt failed: counted, the reason kept with a "gave up" prefix, bodies dropped
 * (their links have expired by now; the member asks for a new one), and out of the pending set
 * (`next_attempt_at = NEVER`). Only while the lease is held.
 */
export async function markGivenUp(db: Db, id: number, input: { lease: Date; error: string }): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ attempts: sql`${outbox.attempts} + 1`, lastError: input.error, nextAttemptAt: NEVER, textBody: null, htmlBody: null })
    .where(held(id, input.lease))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

