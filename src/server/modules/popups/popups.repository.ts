import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { pgArray, rowsOf, type DbOrTx } from '#db/client';
import { prepared, preparedStatement } from '../../lib/prepared';
import { eventsFrom } from '../audit/audit.repository';
import { substringPattern } from '../../lib/sql-text';
import { events, popups, userPopupStates, users } from '#db/schema';
import type { PopupAudience, PopupSortField, SortOrder } from '#shared/schemas/popups';
import type { NewShow } from './delivery';
import type { AudienceFacts } from './live-popups';
import type { PopupUserState } from './schedule';

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
  lastShownAt: userPopupStates.lastShownAt,
  shownSessionId: userPopupStates.shownSessionId,
};

/** The order of "best": highest priority, earliest end, oldest, then id. */
const bestOrder = [desc(popups.priority), asc(popups.endAt), asc(popups.createdAt), asc(popups.id)];

/**
 * The popup's audience holds this member: their employer is listed (or none is), and they are
 * enrolled / have family members when the popup asks for it (placeholders `audienceUserId`,
 * `audienceCompanyId`). Evaluated by the database, once per member (the EXISTS are uncorrelated
 * with the popup row: init plans). The same rule in memory, for the popups held by
 * live-popups.ts: `forEmployer` and `matchesFacts` there.
 */
const inAudience = sql`(cardinality(${popups.audienceCompanyIds}) = 0 or ${sql.placeholder('audienceCompanyId')}::uuid = any(${popups.audienceCompanyIds}))
    and (not ${popups.audienceEnrolledOnly} or exists (select 1 from users au where au.id = ${sql.placeholder('audienceUserId')}::uuid and au.enrolled_at is not null))
    and (not ${popups.audienceWithFamilyOnly} or exists (select 1 from participants ap where ap.user_id = ${sql.placeholder('audienceUserId')}::uuid and ap.family_member_count > 0))`;

/** `inAudience`'s placeholders for this member. */
const audienceOf = (member: { userId: string; companyId: string }) => ({ audienceUserId: member.userId, audienceCompanyId: member.companyId });

const livePopupsQuery = (db: DbOrTx) =>
  prepared(db, 'popups_on', (d) =>
    d
      .select()
      .from(popups)
      .where(and(eq(popups.isActive, true), sql`${popups.endAt} > ${sql.placeholder('now')}::timestamptz`))
      .orderBy(...bestOrder)
      .prepare('popups_on'),
  );

/** Every popup that is on and not over at `now` (scheduled ones included), best first (live-popups.ts, which holds them, sorts them again to delivery's order). */
export async function loadLivePopups(db: DbOrTx, now: Date): Promise<PopupRow[]> {
  return livePopupsQuery(db).execute({ now: now.toISOString() });
}

/** A member's stored state of one popup: the schedule's state, and the session it was last counted as shown in. */
export type MemberPopupState = PopupUserState & { lastShownAt: Date | null; shownSessionId: string | null };

const memberStatesQuery = (db: DbOrTx) =>
  prepared(db, 'popups_member_states', (d) =>
    d
      .select({ popupId: userPopupStates.popupId, ...stateColumns })
      .from(userPopupStates)
      .where(and(eq(userPopupStates.userId, sql.placeholder('userId')), sql`${userPopupStates.popupId} = any(${sql.placeholder('popupIds')}::uuid[])`))
      .prepare('popups_member_states'),
  );

const allMemberStatesQuery = (db: DbOrTx) =>
  prepared(db, 'popups_all_member_states', (d) =>
    d
      .select({ popupId: userPopupStates.popupId, ...stateColumns })
      .from(userPopupStates)
      .where(eq(userPopupStates.userId, sql.placeholder('userId')))
      .prepare('popups_all_member_states'),
  );

/** Every stored state of the member, by popup id (the prefix of user_popup_states_user_popup_key): what member-popup-states.ts holds. */
export async function allMemberStates(db: DbOrTx, userId: string): Promise<Map<string, MemberPopupState>> {
  const rows = await allMemberStatesQuery(db).execute({ userId });
  return new Map(rows.map(({ popupId, ...state }) => [popupId, state]));
}

/** The member's stored state of each of these popups that has one (user_popup_states_user_popup_key), by popup id. */
export async function memberStates(db: DbOrTx, userId: string, popupIds: readonly string[]): Promise<Map<string, MemberPopupState>> {
  const rows = await memberStatesQuery(db).execute({ userId, popupIds: pgArray(popupIds) });
  return new Map(rows.map(({ popupId, ...state }) => [popupId, state]));
}

const audienceFactsQuery = (db: DbOrTx) =>
  prepared(db, 'popups_audience_facts', (d) =>
    d
      .select({
        enrolled: sql<boolean>`${users.enrolledAt} is not null`,
        withFamily: sql<boolean>`exists (select 1 from participants ap where ap.user_id = ${sql.placeholder('userId')}::uuid and ap.family_member_count > 0)`,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare('popups_audience_facts'),
  );

/** Whether the member is enrolled and has family members: what an audience may ask beyond the employer. */
export async function audienceFacts(db: DbOrTx, userId: string): Promise<AudienceFacts> {
  const [row] = await audienceFactsQuery(db).execute({ userId });
  return { enrolled: row?.enrolled === true, withFamily: row?.withFamily === true };
}

/**
 * The member's first shows in an occurrence since `since` (the daily cap counts them), from
 * their `popup.shown` events (events_actor_idx). A show flagged `newInOccurrence: false` (a
 * snoozed popup coming back) is not one.
 */
export async function newShowsSince(db: DbOrTx, userId: string, since: Date): Promise<NewShow[]> {
  return newShowsQuery(db).execute({ userId, since: since.toISOString() });
}

const newShowsQuery = (db: DbOrTx) =>
  prepared(db, 'popups_new_shows', (d) =>
    d
      .select({ popupId: sql<string>`${events.payloadJson}->>'popupId'`, at: events.createdAt })
      .from(events)
      .where(
        and(
          eq(events.actorUserId, sql.placeholder('userId')),
          sql`${events.createdAt} >= ${sql.placeholder('since')}::timestamptz`,
          eq(events.type, POPUP_EVENT.shown),
          sql`${events.payloadJson}->>'newInOccurrence' = 'true'`,
        ),
      )
      .prepare('popups_new_shows'),
  );

/**
 * Holds, until the transaction ends, a lock on this member's popup deliveries: a show that a
 * daily cap allowed is re-checked and written under it, so two parallel calls cannot both
 * take the last place of the day.
 */
export async function lockMemberDeliveries(tx: DbOrTx, userId: string): Promise<void> {
  // Two-key form: the first key is this lock's namespace ("popu"), the second the member.
  await tx.execute(sql`select pg_advisory_xact_lock(1886351477, hashtext(${userId}))`);
}

export async function findPopup(db: DbOrTx, id: string): Promise<PopupRow | undefined> {
  const [row] = await db.select().from(popups).where(eq(popups.id, id)).limit(1);
  return row;
}

const popupForMemberQuery = (db: DbOrTx) =>
  prepared(db, 'popups_for_member', (d) =>
    d
      .select()
      .from(popups)
      .where(and(eq(popups.id, sql.placeholder('id')), inAudience))
      .limit(1)
      .prepare('popups_for_member'),
  );

/** The popup, if this member is in its audience (a member outside it cannot snooze or complete it). */
export async function findPopupForMember(db: DbOrTx, id: string, member: { userId: string; companyId: string }): Promise<PopupRow | undefined> {
  const [row] = await popupForMemberQuery(db).execute({ id, ...audienceOf(member) });
  return row;
}

/** True when the stored row belongs to another occurrence, i.e. counts as fresh. */
const staleOccurrence = sql`user_popup_states.occurrence_start is distinct from excluded.occurrence_start`;

export interface StateKey {
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

const p = (name: string) => sql.placeholder(name);

/** The placeholders' values every state write takes: the state's key, the time, who acts, and the event's payload. */
const stateValues = (k: StateKey, actor: EventActor, extra: Record<string, unknown> = {}) => ({
  userId: k.userId,
  popupId: k.popupId,
  occurrenceStart: k.occurrenceStart.toISOString(),
  now: k.now.toISOString(),
  actorUserId: actor.actorUserId,
  companyId: actor.companyId,
  payload: JSON.stringify({ popupId: k.popupId, ...extra }),
});

/** The `events` row a member action writes, fed by the upsert in the same statement (`eventsFrom`); `payload` may add to the given one. */
const eventFrom = (source: string, type: string, payload: SQL = sql`${p('payload')}::jsonb`) =>
  eventsFrom(source, { type, actorUserId: p('actorUserId'), companyId: p('companyId'), payload, at: p('now') });

/** The state a write leaves, as its upsert returns it (`STATE_RETURNING`). */
interface WrittenState {
  occurrence_start: string | null;
  snooze_count: number;
  last_snoozed_at: string | null;
  completed_at: string | null;
  last_shown_at: string | null;
  shown_session_id: string | null;
}

/** The row a state upsert returns, times as JSON text (the driver's rows come as they are). */
const STATE_RETURNING = sql.raw(`to_json(occurrence_start) #>> '{}' as occurrence_start, snooze_count, to_json(last_snoozed_at) #>> '{}' as last_snoozed_at,
    to_json(completed_at) #>> '{}' as completed_at, to_json(last_shown_at) #>> '{}' as last_shown_at, shown_session_id`);

const dateOrNull = (at: string | null) => (at === null ? null : new Date(at));

function fromWrittenState(row: WrittenState | undefined): MemberPopupState | undefined {
  if (!row) return undefined;
  return {
    occurrenceStart: dateOrNull(row.occurrence_start),
    snoozeCount: Number(row.snooze_count),
    lastSnoozedAt: dateOrNull(row.last_snoozed_at),
    completedAt: dateOrNull(row.completed_at),
    lastShownAt: dateOrNull(row.last_shown_at),
    shownSessionId: row.shown_session_id,
  };
}

/**
 * Counts a show: stamps the state and records `popup.shown`, at most once per member, popup
 * occurrence and session. One conditional upsert, prepared once: the row is written (and the
 * event with it) only when the stored show is of another occurrence, or of another session
 * and this session began after it (a later sign-in). Concurrent calls serialise on the row
 * lock and re-check that condition, so exactly one counts. (A session that began before the
 * last counted show and never counted itself is not counted either: two devices signed in
 * side by side count once, never once per call.) A state left from an earlier occurrence is
 * reset to fresh first. The event says whether this was the first show in the occurrence
 * (`newInOccurrence`, what the daily cap counts): read from the row as it was before this
 * statement. A row, the state as written, when this call counted the show.
 */
const showStatement = (db: DbOrTx) =>
  preparedStatement<WrittenState>(
    db,
    'popups_record_show',
    () => sql`with prev as (
      select occurrence_start, last_shown_at from user_popup_states where user_id = ${p('userId')}::uuid and popup_id = ${p('popupId')}::uuid
    ), s as (
      insert into user_popup_states (user_id, popup_id, occurrence_start, snooze_count, last_shown_at, shown_session_id, created_at)
      values (${p('userId')}::uuid, ${p('popupId')}::uuid, ${p('occurrenceStart')}::timestamptz, 0, ${p('now')}::timestamptz, ${p('sessionId')}::uuid, ${p('now')}::timestamptz)
      on conflict (user_id, popup_id) do update set
        snooze_count = case when ${staleOccurrence} then 0 else user_popup_states.snooze_count end,
        last_snoozed_at = case when ${staleOccurrence} then null else user_popup_states.last_snoozed_at end,
        completed_at = case when ${staleOccurrence} then null else user_popup_states.completed_at end,
        occurrence_start = excluded.occurrence_start,
        last_shown_at = excluded.last_shown_at,
        shown_session_id = excluded.shown_session_id
      where ${staleOccurrence}
        or (user_popup_states.shown_session_id is distinct from excluded.shown_session_id
          and (user_popup_states.last_shown_at is null or user_popup_states.last_shown_at < ${p('sessionStartedAt')}::timestamptz))
      returning ${STATE_RETURNING}
    ), e as (
      ${eventFrom(
        's',
        POPUP_EVENT.shown,
        sql`${p('payload')}::jsonb || jsonb_build_object('newInOccurrence', not exists (
          select 1 from prev where prev.occurrence_start = ${p('occurrenceStart')}::timestamptz and prev.last_shown_at >= prev.occurrence_start))`,
      )}
    )
    select * from s`,
  );

/** `showStatement`: the state as written when this call counted the show, else undefined. */
export async function recordShow(
  db: DbOrTx,
  k: StateKey & { sessionId: string; sessionStartedAt: Date },
  actor: EventActor,
  extra: Record<string, unknown> = {},
): Promise<MemberPopupState | undefined> {
  const values = stateValues(k, actor, { ...extra, sessionId: k.sessionId, occurrenceStart: k.occurrenceStart.toISOString() });
  const [row] = await showStatement(db).execute({ ...values, sessionId: k.sessionId, sessionStartedAt: k.sessionStartedAt.toISOString() });
  return fromWrittenState(row);
}

/**
 * A popup a member acts on, as the call found it (held in memory, or read): what the write
 * relies on, its schedule (the occurrence the state is kept for) and its snooze limit.
 */
export interface ActedOn {
  popupId: string;
  startAt: Date;
  endAt: Date;
  recurrence: string;
  interval: number;
  timezone: string;
  maxSnoozes: number;
}

/**
 * The popup a snooze or completion names, as the database has it in the write's own statement:
 * on, live at the call's time, the member in its audience, and with the schedule and snooze
 * limit the call worked from (times to the millisecond, as the app holds them). The write takes
 * its rows from this, so it writes nothing when any of that no longer holds, and says so
 * (`live`); the call then reads the popup afresh. A change that commits while the statement
 * runs is not seen, as by any read (READ COMMITTED: its snapshot).
 */
const actedOn = sql`select 1 from popups where ${popups.id} = ${p('popupId')}::uuid and ${popups.isActive}
      and ${popups.startAt} <= ${p('now')}::timestamptz and ${popups.endAt} > ${p('now')}::timestamptz
      and date_trunc('milliseconds', ${popups.startAt}) = ${p('startAt')}::timestamptz and date_trunc('milliseconds', ${popups.endAt}) = ${p('endAt')}::timestamptz
      and ${popups.recurrence} = ${p('recurrence')} and ${popups.interval} = ${p('interval')}::int and ${popups.timezone} = ${p('timezone')}
      and ${popups.maxSnoozes} = ${p('maxSnoozes')}::int and ${inAudience}`;

/** `actedOn`'s placeholders. */
const actedOnValues = (k: ActedOn & { userId: string }, companyId: string) => ({
  startAt: k.startAt.toISOString(),
  endAt: k.endAt.toISOString(),
  recurrence: k.recurrence,
  interval: k.interval,
  timezone: k.timezone,
  maxSnoozes: k.maxSnoozes,
  ...audienceOf({ userId: k.userId, companyId }),
});

/** What a snooze or completion statement answers: whether the popup was as the call found it, and the state it wrote. */
export interface StateWrite {
  live: boolean;
  state: MemberPopupState | undefined;
}

/** The statement's one row (`StateWriteRow`). */
const stateWriteRow = sql.raw(`select exists (select 1 from live) as live, s.* from (select 1) as one left join s on true`);

/** The statement's row: `live`, then the written state's columns, all null when it wrote none. */
type StateWriteRow = { live: boolean } & { [K in keyof WrittenState]: WrittenState[K] | null };

function fromStateWrite(row: StateWriteRow | undefined): StateWrite {
  if (row?.live !== true) return { live: false, state: undefined };
  const { live: _live, ...written } = row;
  return { live: true, state: written.snooze_count === null ? undefined : fromWrittenState(written as WrittenState) };
}

/**
 * One atomic statement, prepared once: +1 snooze unless the count for this occurrence has
 * reached `maxSnoozes` (the popup's, as `actedOn` checks), and the `popup.snoozed` event only
 * when it counted; nothing when the popup is not as the call found it (`actedOn`). Concurrent calls serialise on the row lock and
 * re-check the condition, so the count can never pass the limit nor lose an increment.
 */
const snoozeStatement = (db: DbOrTx) =>
  preparedStatement<StateWriteRow>(
    db,
    'popups_snooze',
    () => sql`with live as (${actedOn}), s as (
      insert into user_popup_states (user_id, popup_id, occurrence_start, snooze_count, last_snoozed_at, created_at)
      select ${p('userId')}::uuid, ${p('popupId')}::uuid, ${p('occurrenceStart')}::timestamptz, 1, ${p('now')}::timestamptz, ${p('now')}::timestamptz
      from live where ${p('maxSnoozes')}::int >= 1
      on conflict (user_id, popup_id) do update set
        snooze_count = case when ${staleOccurrence} then 1 else user_popup_states.snooze_count + 1 end,
        completed_at = case when ${staleOccurrence} then null else user_popup_states.completed_at end,
        shown_session_id = case when ${staleOccurrence} then null else user_popup_states.shown_session_id end,
        occurrence_start = excluded.occurrence_start,
        last_snoozed_at = excluded.last_snoozed_at
      where ${staleOccurrence} or user_popup_states.snooze_count < ${p('maxSnoozes')}::int
      returning ${STATE_RETURNING}
    ), e as (${eventFrom('s', POPUP_EVENT.snoozed)})
    ${stateWriteRow}`,
  );

/** `snoozeStatement`: whether the popup was as found, and the state as written (the new count in it), none at the limit. */
export async function incrementSnooze(db: DbOrTx, k: StateKey & ActedOn, member: EventActor & { companyId: string }): Promise<StateWrite> {
  const [row] = await snoozeStatement(db).execute({ ...stateValues(k, member), ...actedOnValues(k, member.companyId) });
  return fromStateWrite(row);
}

/**
 * Marks the occurrence completed, atomically, with its `popup.completed` event, in one
 * statement prepared once: the state as written when this call completed it, none when it
 * already was (a double completion from two tabs records one event, not two), nothing when the
 * popup is not as the call found it (`actedOn`).
 */
const completeStatement = (db: DbOrTx) =>
  preparedStatement<StateWriteRow>(
    db,
    'popups_complete',
    () => sql`with live as (${actedOn}), s as (
      insert into user_popup_states (user_id, popup_id, occurrence_start, snooze_count, completed_at, created_at)
      select ${p('userId')}::uuid, ${p('popupId')}::uuid, ${p('occurrenceStart')}::timestamptz, 0, ${p('now')}::timestamptz, ${p('now')}::timestamptz
      from live
      on conflict (user_id, popup_id) do update set
        snooze_count = case when ${staleOccurrence} then 0 else user_popup_states.snooze_count end,
        last_snoozed_at = case when ${staleOccurrence} then null else user_popup_states.last_snoozed_at end,
        shown_session_id = case when ${staleOccurrence} then null else user_popup_states.shown_session_id end,
        occurrence_start = excluded.occurrence_start,
        completed_at = excluded.completed_at
      where ${staleOccurrence} or user_popup_states.completed_at is null
      returning ${STATE_RETURNING}
    ), e as (${eventFrom('s', POPUP_EVENT.completed)})
    ${stateWriteRow}`,
  );

/** `completeStatement`: whether the popup was as found, and the state as written when this call completed the occurrence. */
export async function markCompleted(db: DbOrTx, k: StateKey & ActedOn, member: EventActor & { companyId: string }): Promise<StateWrite> {
  const [row] = await completeStatement(db).execute({ ...stateValues(k, member), ...actedOnValues(k, member.companyId) });
  return fromStateWrite(row);
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

/** The employer ids among `ids` that do not exist. */
export async function unknownCompanyIds(db: DbOrTx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const result = await db.execute(sql`
    select x.id::text as id from unnest(${pgArray(ids)}::uuid[]) as x(id)
    where not exists (select 1 from companies c where c.id = x.id)`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/**
 * How many members (role member) an audience holds now, in ONE statement. Everyone matching,
 * minus the administrators matching (few, and indexed by users_admins_idx where it exists):
 * - no family filter: straight from company_stats (employees, or participants = enrolled),
 *   one row per employer, no user row read;
 * - only members with family: the partial index participants_with_family_idx, joined to the
 *   chosen employers' users when employers are chosen.
 * Plans at 1,000,000 employees: docs/decisions/popup-audiences-capping.md.
 */
export async function audienceSize(db: DbOrTx, audience: PopupAudience): Promise<number> {
  const result = await db.execute(audienceSizeQuery(audience));
  return Math.max(0, Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0));
}

/** The statement audienceSize runs (exported for bench/ and EXPLAIN). */
export function audienceSizeQuery(audience: PopupAudience): SQL {
  const ids = [...new Set(audience.companyIds)];
  const chosen = ids.length > 0;
  const idArray = sql`${pgArray(ids)}::uuid[]`;
  let everyone: SQL;
  let admins: SQL;
  if (audience.withFamilyOnly) {
    // Family members belong to participants, so "with family" implies enrolled.
    everyone = chosen
      ? sql`select count(*) from participants pa join users u on u.id = pa.user_id where pa.family_member_count > 0 and u.company_id = any(${idArray})`
      : sql`select count(*) from participants pa where pa.family_member_count > 0`;
    admins = sql`select count(*) from users u join participants pa on pa.user_id = u.id
      where u.role = 'admin' and pa.family_member_count > 0 ${chosen ? sql`and u.company_id = any(${idArray})` : sql``}`;
  } else {
    const column = audience.enrolledOnly ? sql`participants` : sql`employees`;
    everyone = sql`select coalesce(sum(cs.${column}), 0) from company_stats cs ${chosen ? sql`where cs.company_id = any(${idArray})` : sql``}`;
    admins = sql`select count(*) from users u where u.role = 'admin'
      ${chosen ? sql`and u.company_id = any(${idArray})` : sql``} ${audience.enrolledOnly ? sql`and u.enrolled_at is not null` : sql``}`;
  }
  return sql`select ((${everyone}) - (${admins}))::int as n`;
}

/**
 * Shows, snoozes and completions of one popup per day in `timeZone`, oldest first, in one
 * statement over its events (events_popup_id_type_idx). Every day from the earlier of
 * `from` and the first day with an event to the later of `to` and the last day with one is
 * listed, days without events as zeros; `from`/`to` null (a popup not started) lists the
 * event days' span only.
 */
export async function dailyResults(db: DbOrTx, q: DailyResultsQuery) {
  const result = await db.execute(dailyResultsQuery(q));
  return rowsOf<{ date: string; shows: number; snoozes: number; completions: number }>(result).map((r) => ({
    date: r.date,
    shows: Number(r.shows),
    snoozes: Number(r.snoozes),
    completions: Number(r.completions),
  }));
}

interface DailyResultsQuery {
  popupId: string;
  timeZone: string;
  from: string | null;
  to: string | null;
}

/** The statement dailyResults runs (exported for EXPLAIN). */
export function dailyResultsQuery(q: DailyResultsQuery): SQL {
  return sql`
    with ev as (
      select (created_at at time zone ${q.timeZone})::date as day,
        count(*) filter (where type = ${POPUP_EVENT.shown})::int as shows,
        count(*) filter (where type = ${POPUP_EVENT.snoozed})::int as snoozes,
        count(*) filter (where type = ${POPUP_EVENT.completed})::int as completions
      from events
      where payload_json->>'popupId' = ${q.popupId} and type in (${POPUP_EVENT.shown}, ${POPUP_EVENT.snoozed}, ${POPUP_EVENT.completed})
      group by 1
    ),
    span as (
      select least(min(day), ${q.from}::date) as first_day, greatest(max(day), ${q.to}::date) as last_day from ev
    )
    select to_char(d, 'YYYY-MM-DD') as date, coalesce(ev.shows, 0) as shows, coalesce(ev.snoozes, 0) as snoozes, coalesce(ev.completions, 0) as completions
    from span, generate_series(span.first_day::timestamp, span.last_day::timestamp, interval '1 day') as d
    left join ev on ev.day = d::date
    order by d`;
}
