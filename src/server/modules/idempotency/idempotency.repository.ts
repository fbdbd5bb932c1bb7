import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { idempotencyKeys } from '#db/schema';

export interface IdempotencyRow {
  requestHash: string;
  /** Null while the first request is still running. */
  statusCode: number | null;
  responseBody: unknown;
  createdAt: Date;
}

const whereKey = (userId: string, key: string) => and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

/** Inserts the running row for a first request; false when the key is already taken. */
export async function claimKey(db: DbOrTx, row: { userId: string; key: string; requestHash: string; now: Date }): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ userId: row.userId, key: row.key, requestHash: row.requestHash, statusCode: null, responseBody: null, createdAt: row.now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

export async function findKey(db: DbOrTx, userId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      statusCode: idempotencyKeys.statusCode,
      responseBody: idempotencyKeys.responseBody,
      createdAt: idempotencyKeys.createdAt,
    })
    .from(idempotencyKeys)
    .where(whereKey(userId, key))
    .limit(1);
  return row;
}

/**
 * Takes over a key whose row has expired (any state) or whose first request stopped
 * running long ago (a crash): one statement, so of two callers at most one wins.
 */
export async function takeOverKey(
  db: DbOrTx,
  row: { userId: string; key: string; requestHash: string; now: Date; expiredBefore: Date; staleBefore: Date },
): Promise<boolean> {
  const updated = await db
    .update(idempotencyKeys)
    .set({ requestHash: row.requestHash, statusCode: null, responseBody: null, createdAt: row.now })
    .where(
      and(
        whereKey(row.userId, row.key),
        or(lt(idempotencyKeys.createdAt, row.expiredBefore), and(isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, row.staleBefore))),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return updated.length > 0;
}

/** Records the first answer on the running row. */
export async function completeKey(db: DbOrTx, row: { userId: string; key: string; statusCode: number; responseBody: unknown }): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode: row.statusCode, responseBody: row.responseBody })
    .where(and(whereKey(row.userId, row.key), isNull(idempotencyKeys.statusCode)));
}

/** Drops a running row (the request failed with a 5xx or never answered), so a retry runs again. */
export async function releaseKey(db: DbOrTx, userId: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(whereKey(userId, key), isNull(idempotencyKeys.statusCode)));
}

/** Deletes every key created before `before` (the index on created_at serves it). */
export async function deleteKeysBefore(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
}
