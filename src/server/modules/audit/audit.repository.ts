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
