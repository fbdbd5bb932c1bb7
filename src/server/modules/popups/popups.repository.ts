import { and, asc, desc, eq, gt, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '#db/client';
import { substringPattern } from '../../lib/sql-text';
import { events, popups, userPopupStates } from '#db/schema';
import type { PopupSortField, SortOrder } from '#shared/schemas/popups';

export type PopupRow = typeof popups.$inferSelect;
export type NewPopup = Omit<typeof popups.$inferInsert, 'id'>;

export const POPUP_EVENT = {
  shown: 'popup.shown',
  snoozed: 'popup.snoozed',
  completed: 'popup.completed',
} as const;

const stateColumns = {
  occurrenceStart: userPopupStates.occurrenceStart,
  snoozeCount: userPopupStates.snoozeCount,
  lastSnoozedAt: userPopupStates.lastSnoozedAt,
  completedAt: userPopupStates.completedAt,
};

/** The order of "best": highest priority, earliest end, oldest, then id. */
const bestOrder = [desc(popups.priority), asc(popups.endAt), asc(popups.createdAt), asc(popups.id)];

/**
 * One page of live popups (active, startAt <= now < endAt) with this user's stored state,
 * best first. `target` null means every target.
 */
export async function listLiveWithState(
  db: DbOrTx,
  q: { userId: string; target: string | null; now: Date; limit: number; offset: number },
) {
  const rows = await db
    .select({ popup: popups, state: stateColumns, stateId: userPopupStates.id })
    .from(popups)
    .leftJoin(userPopupStates, and(eq(userPopupStates.popupId, popups.id), eq(userPopupStates.userId, q.userId)))
    .where(
      and(
        eq(popups.isActive, true),
        lte(popups.startAt, q.now),
        gt(popups.endAt, q.now),
        q.target === null ? undefined : eq(popups.target, q.target),
      ),
    )
    .orderBy(...bestOrder)
    .limit(q.limit)
    .offset(q.offset);
  return rows.map((r) => ({ popup: r.popup, state: r.stateId === null ? null : r.state }));
}

export async function findPopup(db: DbOrTx, id: string): Promise<PopupRow | undefined> {
  const [row] = await db.select().from(popups).where(eq(popups.id, id)).limit(1);
  return row;
}

/** True when the stored row belongs to another occurrence, i.e. counts as fresh. */
const staleOccurrence = sql`user_popup_states.occurrence_start is distinct from excluded.occurrence_start`;

interface StateKey {
  userId: string;
  popupId: string;
  occurrenceStart: Date;
  now: Date;
}

/** Who the event is about; the event's payload is `{ popupId, ...extra }`. */
export interface EventActor {
  actorUserId: string;
  companyId: string | null;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The `events` row a member action writes, fed by the upsert in the same statement (a
 * data-modifying CTE): the state change and its event commit together or not at all, in
 * one round trip. Same columns as audit.repository's recordEvent.
 */
function eventFrom(source: string, type: string, k: StateKey, actor: EventActor, extra: Record<string, unknown> = {}) {
  const payload = JSON.stringify({ popupId: k.popupId, ...extra });
  return sql`insert into events (actor_user_id, company_id, type, payload_json, created_at)
    select ${actor.actorUserId}::uuid, ${actor.companyId}::uuid, ${type}, ${payload}::jsonb, ${ts(k.now)} from ${sql.raw(source)}`;
}

/** Stamps a show and records `popup.shown`; a state left from an earlier occurrence is reset to fresh first. */
export async function recordShow(db: DbOrTx, k: StateKey, actor: EventActor, extra: Record<string, unknown> = {}) {
  await db.execute(sql`
    with s as (
      insert into user_popup_states (user_id, popup_id, occurrence_start, snooze_count, last_shown_at, created_at)
      values (${k.userId}::uuid, ${k.popupId}::uuid, ${ts(k.occurrenceStart)}, 0, ${ts(k.now)}, ${ts(k.now)})
      on conflict (user_id, popup_id) do update set
        snooze_count = case when ${staleOccurrence} then 0 else user_popup_states.snooze_count end,
        last_snoozed_at = case when ${staleOccurrence} then null else user_popup_states.last_snoozed_at end,
        completed_at = case when ${staleOccurrence} then null else user_popup_states.completed_at end,
        occurrence_start = excluded.occurrence_start,
        last_shown_at = excluded.last_shown_at
      returning 1
    )
    ${eventFrom('s', POPUP_EVENT.shown, k, actor, extra)}`);
}

/**
 * One atomic statement: +1 snooze unless the count for this occurrence has reached
 * `maxSnoozes`, and the `popup.snoozed` event only when it counted. Concurrent calls
 * serialise on the row lock and re-check the condition, so the count can never pass the
 * limit nor lose an increment. Returns the new count, or null at the limit.
 */
export async function incrementSnooze(db: DbOrTx, k: StateKey & { maxSnoozes: number }, actor: EventActor): Promise<number | null> {
  const result = await db.execute(sql`
    with s as (
      insert into user_popup_states (user_id, popup_id, occurrence_start, snooze_count, last_snoozed_at, created_at)
      select ${k.userId}::uuid, ${k.popupId}::uuid, ${ts(k.occurrenceStart)}, 1, ${ts(k.now)}, ${ts(k.now)}
      where ${k.maxSnoozes}::int >= 1
      on conflict (user_id, popup_id) do update set
        snooze_count = case when ${staleOccurrence} then 1 else user_popup_states.snooze_count + 1 end,
        completed_at = case when ${staleOccurrence} then null else user_popup_states.completed_at end,
        occurrence_start = excluded.occurrence_start,
        last_snoozed_at = excluded.last_snoozed_at
      where ${staleOccurrence} or user_popup_states.snooze_count < ${k.maxSnoozes}::int
      returning snooze_count
    ),
    e as (${eventFrom('s', POPUP_EVENT.snoozed, k, actor)})
    select snooze_count from s`);
  const row = rowsOf<{ snooze_count: number }>(result)[0];
  return row ? Number(row.snooze_count) : null;
}

/**
 * Marks the occurrence completed, atomically, with its `popup.completed` event: true when
 * this call completed it, false when it already was (a double completion from two tabs
 * records one event, not two).
 */
export async function markCompleted(db: DbOrTx, k: StateKey, actor: EventActor): Promise<boolean> {
  const result = await db.execute(sql`
    with s as (
      insert into user_popup_states (user_id, popup_id, occurrence_start, snooze_count, completed_at, created_at)
      values (${k.userId}::uuid, ${k.popupId}::uuid, ${ts(k.occurrenceStart)}, 0, ${ts(k.now)}, ${ts(k.now)})
      on conflict (user_id, popup_id) do update set
        snooze_count = case when ${staleOccurrence} then 0 else user_popup_states.snooze_count end,
        last_snoozed_at = case when ${staleOccurrence} then null else user_popup_states.last_snoozed_at end,
        occurrence_start = excluded.occurrence_start,
        completed_at = excluded.completed_at
      where ${staleOccurrence} or user_popup_states.completed_at is null
      returning id
    ),
    e as (${eventFrom('s', POPUP_EVENT.completed, k, actor)})
    select id from s`);
  return rowsOf(result).length > 0;
}

const sortColumns: Record<PopupSortField, SQL | typeof popups.priority | typeof popups.createdAt> = {
  priority: popups.priority,
  title: sql`lower(${popups.title})`,
  createdAt: popups.createdAt,
};

export async function listPopups(
  db: DbOrTx,
  q: { search?: string | undefined; status?: 'active' | 'inactive' | undefined; sortBy: PopupSortField; sortOrder: SortOrder },
): Promise<PopupRow[]> {
  const pattern = q.search ? substringPattern(q.search) : undefined;
  const dir = q.sortOrder === 'asc' ? asc : desc;
  return db
    .select()
    .from(popups)
    .where(
      and(
        pattern ? or(ilike(popups.title, pattern), ilike(popups.message, pattern)) : undefined,
        q.status ? eq(popups.isActive, q.status === 'active') : undefined,
      ),
    )
    .orderBy(dir(sortColumns[q.sortBy]), desc(popups.createdAt), asc(popups.id));
}

/** Exact show, snooze and completion counts per popup, from the recorded events. */
export async function countPopupEvents(db: DbOrTx, popupIds: string[]) {
  const counts = new Map<string, { totalShows: number; totalSnoozes: number; totalCompletions: number }>();
  for (const id of popupIds) counts.set(id, { totalShows: 0, totalSnoozes: 0, totalCompletions: 0 });
  if (popupIds.length === 0) return counts;
  const popupIdOf = sql<string>`${events.payloadJson}->>'popupId'`;
  const rows = await db
    .select({ popupId: popupIdOf, type: events.type, n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(inArray(popupIdOf, popupIds), inArray(events.type, Object.values(POPUP_EVENT))))
    .groupBy(popupIdOf, events.type);
  for (const r of rows) {
    const c = counts.get(r.popupId);
    if (!c) continue;
    const n = Number(r.n);
    if (r.type === POPUP_EVENT.shown) c.totalShows = n;
    else if (r.type === POPUP_EVENT.snoozed) c.totalSnoozes = n;
    else if (r.type === POPUP_EVENT.completed) c.totalCompletions = n;
  }
  return counts;
}

export async function insertPopup(db: DbOrTx, popup: NewPopup): Promise<PopupRow> {
  const [row] = await db.insert(popups).values(popup).returning();
  return row!;
}

export async function updatePopup(db: DbOrTx, id: string, changes: Partial<NewPopup>): Promise<PopupRow | undefined> {
  const [row] = await db.update(popups).set(changes).where(eq(popups.id, id)).returning();
  return row;
}

export async function deletePopup(db: DbOrTx, id: string): Promise<PopupRow | undefined> {
  const [row] = await db.delete(popups).where(eq(popups.id, id)).returning();
  return row;
}
