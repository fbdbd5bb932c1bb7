import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { events } from '#db/schema';

export interface AuditEvent {
  type: string;
  actorUserId?: string | null;
  companyId?: string | null;
  payload?: Record<string, unknown>;
  at?: Date;
}

/** Appends one row to the audit trail (`events`). Call inside the write's transaction. */
export async function recordEvent(db: DbOrTx, event: AuditEvent): Promise<void> {
  await db.insert(events).values({
    type: event.type,
    actorUserId: event.actorUserId ?? null,
    companyId: event.companyId ?? null,
    payloadJson: event.payload ?? {},
    ...(event.at ? { createdAt: event.at } : {}),
  });
}

/** An event's values in a statement: bind values or `sql.placeholder`s; `payload` a jsonb expression. */
export interface EventColumns {
  type: string;
  actorUserId: unknown;
  companyId: unknown;
  payload: SQL;
  /** ISO 8601 text, or a placeholder for it. */
  at: unknown;
}

/**
 * The audit events a data-modifying statement writes, one for each row of its CTE `source`
 * (`payload` may read that CTE's columns): the change and its event commit together, in one
 * round trip. The same columns as `recordEvent`.
 */
export function eventsFrom(source: string, event: EventColumns): SQL {
  return sql`insert into events (actor_user_id, company_id, type, payload_json, created_at)
    select ${event.actorUserId}::uuid, ${event.companyId}::uuid, ${event.type}, ${event.payload}, ${event.at}::timestamptz from ${sql.raw(source)}`;
}
