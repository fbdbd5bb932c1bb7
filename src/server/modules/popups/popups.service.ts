import type { Db, DbOrTx } from '#db/client';
import { messages } from '#shared/messages/index';
import type {
  AdminPopup,
  AdminPopupListItem,
  AdminPopupListQuerySchema,
  MemberPopup,
  NextPopupQuerySchema,
  PopupAudience,
  PopupForm,
  PopupRecurrence,
  PopupResultsResponse,
  PopupTarget,
  PopupTheme,
} from '#shared/schemas/popups';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { announcingWrite } from '../../lib/notify';
import { pgError } from '../../lib/pg-errors';
import { enforceLimit } from '../../lib/rate-limit';
import { recordEvent } from '../audit/audit.repository';
import type { AuthenticatedSession } from '../auth/auth.service';
import * as repo from './popups.repository';
import {
  decide,
  type DeliveryContext,
  localDate,
  type NewShow,
  pickDeliverable,
  type ProgrammeRules,
  SHOWS_NEEDED,
} from './delivery';
import { currentOrNextOccurrenceStart, evaluatePopup, isLive, occurrenceAt, popupStatus, type PopupUserState } from './schedule';
import { isUuid } from '../../lib/sql-text';
import { type AudienceFacts, forEmployer, forFacts, type HeldPopup, type LivePopups, toHeld } from './live-popups';
import type { HeldFacts, HeldShows, HeldStates, MemberPopupStates } from './member-popup-states';

const m = messages.popups.server;
const v = messages.popups.validation;
/** `GET /api/popups/active` answers at most this many popups. */
export const ACTIVE_LIMIT = 50;
/** The member's first shows are read this far back: a local day (and its zone's offset) fits in it. */
const SHOWS_LOOKBACK_MS = 48 * 3_600_000;
const MINUTE_MS = 60_000;

/** The programme's popup settings (configuration, src/server/config.ts). */
export interface PopupSettings {
  /** VITAL_SCAN_URL: where a popup's button goes when it names no destination. */
  vitalScanUrl: string;
  /** POPUP_ACTION_URLS, URL-normalised: the https sites a button may open. */
  actionUrls: readonly string[];
  /** POPUPS_DAILY_CAP and POPUPS_QUIET_HOURS; null = off. */
  programme: ProgrammeRules;
  /** POPUPS_NEXT_RATE_LIMIT_PER_MINUTE. */
  nextPerMinute: number;
}

export interface PopupsDeps {
  db: Db;
  /** The popups that are on, held in memory (live-popups.ts). */
  livePopups: LivePopups;
  /** Members' states of them, held in memory (member-popup-states.ts). */
  memberPopupStates: MemberPopupStates;
  /** Enrolled members' audience facts, held in memory (member-popup-states.ts, `audienceFactsOptions`). */
  audienceFacts: HeldFacts;
  /** Members' first shows, held in memory (member-popup-states.ts, `memberShowsOptions`). */
  memberShows: HeldShows;
  clock: Clock;
  counters: CounterStore;
  settings: PopupSettings;
}

type Actor = Pick<AuthenticatedSession, 'user' | 'session'>;
/** The stored destination, or the vital-scan URL when it has none. */
const actionTargetOf = (row: Pick<HeldPopup, 'actionTarget'>, settings: PopupSettings) => row.actionTarget ?? settings.vitalScanUrl;

function toMemberPopup(row: HeldPopup, state: PopupUserState, settings: PopupSettings): MemberPopup {
  const canSnooze = state.snoozeCount < row.maxSnoozes;
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    theme: row.theme as PopupTheme,
    canSnooze,
    snoozeCount: state.snoozeCount,
    maxSnoozes: row.maxSnoozes,
    isLastReminder: !canSnooze,
    actionLabel: row.actionLabel,
    actionTarget: actionTargetOf(row, settings),
  };
}

/** The admin's view of a popup at `now`: its settings, status and next occurrence. */
export function toAdminPopup(row: repo.PopupRow, now: Date, settings: PopupSettings): AdminPopup {
  const schedule = toHeld(row);
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    target: row.target as PopupTarget,
    startAt: row.startAt.toISOString(),
    endAt: row.endAt.toISOString(),
    recurrence: row.recurrence as PopupRecurrence,
    interval: row.interval,
    timezone: row.timezone,
    theme: row.theme as PopupTheme,
    maxSnoozes: row.maxSnoozes,
    priority: row.priority,
    isActive: row.isActive,
    actionLabel: row.actionLabel,
    actionTarget: actionTargetOf(row, settings),
    audience: { companyIds: row.audienceCompanyIds, enrolledOnly: row.audienceEnrolledOnly, withFamilyOnly: row.audienceWithFamilyOnly },
    dailyCap: row.dailyCap,
    quietHours: schedule.quietHours,
    status: popupStatus(row, now),
    nextOccurrenceAt: currentOrNextOccurrenceStart(schedule, now)?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The destination to store: an app path as given; an https URL only when configured
 * (URL-normalised); the vital-scan URL, like no destination, as null (the default follows
 * the configuration). 400 with the field's message otherwise.
 */
function storedActionTarget(target: string | undefined, settings: PopupSettings): string | null {
  if (target === undefined) return null;
  if (target.startsWith('/')) return target;
  let href: string;
  try {
    href = new URL(target).href;
  } catch {
    throw new AppError('validation', v.actionTargetInvalid, { actionTarget: v.actionTargetInvalid });
  }
  if (href === new URL(settings.vitalScanUrl).href) return null;
  if (!settings.actionUrls.includes(href)) throw new AppError('validation', v.actionTargetNotAllowed, { actionTarget: v.actionTargetNotAllowed });
  return href;
}

function fromForm(input: PopupForm, settings: PopupSettings) {
  return {
    title: input.title,
    message: input.message,
    target: input.target,
    startAt: new Date(input.startAt),
    endAt: new Date(input.endAt),
    recurrence: input.recurrence,
    interval: input.interval,
    timezone: input.timezone,
    theme: input.theme,
    maxSnoozes: input.maxSnoozes,
    priority: input.priority,
    isActive: input.isActive,
    actionLabel: input.actionLabel,
    actionTarget: storedActionTarget(input.actionTarget, settings),
    audienceCompanyIds: [...new Set(input.audience.companyIds.map((id) => id.toLowerCase()))].sort(),
    audienceEnrolledOnly: input.audience.enrolledOnly,
    audienceWithFamilyOnly: input.audience.withFamilyOnly,
    dailyCap: input.dailyCap,
    quietHoursStart: input.quietHours?.start ?? null,
    quietHoursEnd: input.quietHours?.end ?? null,
  };
}

/** Reminder popups: the member's next / active popups, snooze and completion, and the admin console. */
export function createPopupsService(deps: PopupsDeps) {
  const { db, livePopups, memberPopupStates, audienceFacts, memberShows, clock, counters, settings } = deps;

  const actorOf = (a: Actor) => ({ actorUserId: a.user.id, companyId: a.user.companyId });

  /**
   * True when the popup's foreign key refused a member's state write: the popup was deleted
   * since it was found among those held (at another instance, whose announcement is not here yet).
   */
  const deletedMeanwhile = (err: unknown) => {
    const refused = pgError(err);
    return refused?.code === '23503' && refused.constraint === 'user_popup_states_popup_id_popups_id_fk';
  };

  /** A change to the popups, in one transaction, announced so every instance drops the popups it holds (live-popups.ts). */
  const changePopups = <T>(write: (tx: DbOrTx) => Promise<T>): Promise<T> => announcingWrite(db, { popups: true }, () => db.transaction(write));

  /**
   * A write of the member's state of one popup (a show, a snooze, a completion), announced when
   * it changed the row (`written` gives the state it left), so every other instance drops the
   * states it holds of them, and this one keeps them with the written state
   * (member-popup-states.ts, `wrote`); a no-op write (a show already counted in another
   * session, a snooze at its limit, a repeat completion) announces nothing.
   */
  const changeStates = <T>(auth: Actor, popupId: string, write: () => Promise<T>, written: (result: T) => repo.MemberPopupState | undefined): Promise<T> => {
    const userId = auth.user.id;
    const stamp = memberPopupStates.stamp();
    return announcingWrite(
      db,
      { popupStates: userId },
      write,
      (result) => written(result) !== undefined,
      (result, announce) => memberPopupStates.wrote(userId, stamp, clock(), popupId, written(result)!, announce),
    );
  };

  /**
   * A snooze or completion of popup `id`, written by `write` against the popup as this call
   * finds it: as held in memory first (no read), and, when the write's statement says the
   * database no longer has it so (switched off, rescheduled, its limit changed, over, out of the
   * member's audience, gone: repo `actedOn`), as read afresh. 404 when it is not live for the
   * member either way. The popup's row, and the state written (undefined: the write changed
   * nothing).
   */
  async function actOn(
    auth: Actor,
    id: string,
    write: (key: repo.StateKey & repo.ActedOn) => Promise<repo.StateWrite>,
  ): Promise<{ row: HeldPopup; state: repo.MemberPopupState | undefined }> {
    if (!isUuid(id)) throw new AppError('not_found', m.notFound);
    const now = clock();
    const attempt = async (row: HeldPopup | undefined) => {
      const occurrence = row && isLive(row, now) ? occurrenceAt(row, now) : null;
      if (!row || !occurrence) return undefined;
      const { startAt, endAt, recurrence, interval, timezone, maxSnoozes } = row;
      const key = { userId: auth.user.id, popupId: row.id, occurrenceStart: occurrence.start, now, startAt, endAt, recurrence, interval, timezone, maxSnoozes };
      const result = await changeStates(auth, row.id, () => write(key), (written) => written.state);
      return result.live ? { row, state: result.state } : undefined;
    };
    try {
      const wanted = id.toLowerCase();
      // With the copy off (or the channel down) it would load every live popup: read this one instead.
      const held = livePopups.enabled ? (await livePopups.current(now)).find((row) => row.id === wanted) : undefined;
      const fresh = async () => {
        const row = await repo.findPopupForMember(db, id, { userId: auth.user.id, companyId: auth.user.companyId });
        return row && toHeld(row);
      };
      const done = (await attempt(held)) ?? (await attempt(await fresh()));
      if (done) return done;
    } catch (err) {
      if (!deletedMeanwhile(err)) throw err;
    }
    throw new AppError('not_found', m.notFound);
  }

  /** The member's stored states of `rows`, by popup id: held in memory per member while nothing of theirs changes. */
  const statesOf = (auth: Actor, rows: readonly HeldPopup[], now: Date): Promise<HeldStates> =>
    memberPopupStates.read(auth.user.id, rows.map((row) => row.id), now);

  /** 400 on the audience field when an employer in it does not exist. */
  async function checkAudience(audience: PopupAudience) {
    if ((await repo.unknownCompanyIds(db, audience.companyIds)).length > 0) {
      throw new AppError('validation', v.audienceUnknownEmployer, { audience: v.audienceUnknownEmployer });
    }
  }

  /**
   * The popups for the member's audience and `target` (null: every target), best first: the
   * popups held in memory (live-popups.ts), narrowed to the member's employer, then, only when
   * a live one asks about them, by the member's enrolment and family (`factsOf`). None when
   * none is live at `now`. Some may not be (scheduled, or over since the load): each is checked
   * against its schedule as the caller reaches it.
   */
  async function popupsFor(auth: Actor, now: Date, target: string | null): Promise<readonly HeldPopup[]> {
    const { rows, askingFacts } = forEmployer(await livePopups.current(now), auth.user.companyId, target);
    const live = (row: HeldPopup) => isLive(row, now);
    if (!rows.some(live)) return [];
    return askingFacts.some(live) ? forFacts(rows, await factsOf(auth.user.id, now)) : rows;
  }

  /** The member's first shows since `since`: held (`memberShowsOptions`) while they cover it, else read. */
  async function showsOf(userId: string, since: Date, now: Date): Promise<readonly NewShow[]> {
    const from = since.getTime();
    const held = await memberShows.getOrLoad(userId, now, async () => ({ since: from, shows: await repo.newShowsSince(db, userId, since) }), { enough: (h) => h.since <= from });
    return held.shows.filter((s) => s.at.getTime() >= from);
  }

  /** The member's audience facts: held while they are enrolled (`audienceFactsOptions`), else read. */
  const factsOf = (userId: string, now: Date): Promise<AudienceFacts> =>
    audienceFacts.getOrLoad(userId, now, () => repo.audienceFacts(db, userId), { keep: (facts) => facts.enrolled });

  /**
   * One look for the next popup (see `next`): the popup, its show recorded; null when none
   * passes the rules; 'retry' when a parallel call of this member took the last place of
   * the day first. No statement for a member asking again whose states, facts (when a live
   * popup's audience asks about them) and shows (when a daily cap must count them) are held
   * (member-popup-states.ts); a show to count adds its write (and, capped, its re-check under
   * the member's lock).
   */
  async function findNext(auth: Actor, query: z.output<typeof NextPopupQuerySchema>, now: Date) {
    const rows = await popupsFor(auth, now, query.route);
    if (rows.length === 0) return null;
    const ctx: DeliveryContext = { signedInAt: auth.session.createdAt, now, sessionZone: auth.session.timeZone ?? null, programme: settings.programme, newShows: null };
    const since = new Date(now.getTime() - SHOWS_LOOKBACK_MS);
    const states = await statesOf(auth, rows, now);
    const stateOf = (row: HeldPopup) => states.get(row.id) ?? null;
    // The member's shows are read only when a daily cap must count them: not for a member asking again for the popup already shown.
    const first = pickDeliverable(rows, stateOf, ctx);
    const picked = first === SHOWS_NEEDED ? pickDeliverable(rows, stateOf, { ...ctx, newShows: await showsOf(auth.user.id, since, now) }) : first;
    if (!picked) return null;
    const row = picked.popup;
    const state = stateOf(row);
    const key = {
      userId: auth.user.id,
      popupId: row.id,
      occurrenceStart: picked.delivery.verdict.occurrence!.start,
      now,
      sessionId: auth.session.id,
      sessionStartedAt: auth.session.createdAt,
    };
    const extra = { context: query.context };
    // Already counted for this session and occurrence: the upsert would change nothing, and
    // skipping it keeps a repeat call read-only (no row lock, no commit to flush).
    const counted = state?.shownSessionId === auth.session.id && state.occurrenceStart?.getTime() === key.occurrenceStart.getTime();
    try {
      if (!counted && picked.delivery.capChecked === null) {
        await changeStates(auth, row.id, () => repo.recordShow(db, key, actorOf(auth), extra), (written) => written);
      } else if (!counted) {
        // A capped first show: re-checked and written under the member's lock, so parallel calls cannot both take the last place.
        const outcome = await changeStates(
          auth,
          row.id,
          () =>
            db.transaction(async (tx) => {
              await repo.lockMemberDeliveries(tx, auth.user.id);
              const fresh = { ...ctx, newShows: await repo.newShowsSince(tx, auth.user.id, since) };
              if (!decide(picked.popup, state, fresh).show) return 'refused' as const;
              return (await repo.recordShow(tx, key, actorOf(auth), extra)) ?? ('unchanged' as const);
            }),
          (result) => (typeof result === 'object' ? result : undefined),
        );
        if (outcome === 'refused') {
          // Another call of the member took the place first; its announcement may not have reached this copy yet: look again with the shows read afresh.
          memberShows.invalidate({ popupStates: auth.user.id });
          return 'retry' as const;
        }
      }
    } catch (err) {
      if (!deletedMeanwhile(err)) throw err;
      // What is held is behind: drop it, and look again among the popups that are still there.
      livePopups.invalidate({ popups: true });
      return 'retry' as const;
    }
    return toMemberPopup(row, picked.delivery.verdict.state, settings);
  }

  return {
    /**
     * The best popup for this page that the member should see now, or null, after the rules
     * of delivery.ts (audience, snoozes, quiet hours, daily cap, priority). Counts the show
     * at most once per session and occurrence. Rate-limited per member (429).
     */
    async next(auth: Actor, query: z.output<typeof NextPopupQuerySchema>): Promise<MemberPopup | null> {
      await enforceLimit(counters, `member:popups-next:${auth.user.id}`, settings.nextPerMinute, MINUTE_MS, m.rateLimited);
      const now = clock();
      // Each retry follows a show another call of this member wrote meanwhile, or a popup deleted
      // meanwhile at another instance; the third look decides.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const found = await findNext(auth, query, now);
        if (found !== 'retry') return found;
      }
      return null;
    },

    /**
     * The member's live popups on every page, for their audience, that they have not completed
     * in this occurrence. A list the member asks for: quiet hours and the daily cap, which
     * govern interruptions, do not apply, and no show is recorded.
     */
    async active(auth: Actor): Promise<MemberPopup[]> {
      const now = clock();
      const rows = await popupsFor(auth, now, null);
      if (rows.length === 0) return [];
      const states = await statesOf(auth, rows, now);
      const out: MemberPopup[] = [];
      for (const row of rows) {
        const verdict = evaluatePopup(row, states.get(row.id) ?? null, auth.session.createdAt, now);
        if (verdict.live && !verdict.completed) out.push(toMemberPopup(row, verdict.state, settings));
        if (out.length === ACTIVE_LIMIT) break;
      }
      return out;
    },

    /** +1 snooze in the current occurrence; 400 at the limit, 404 when gone or not live. */
    async snooze(auth: Actor, id: string): Promise<MemberPopup> {
      const { row, state } = await actOn(auth, id, (key) => repo.incrementSnooze(db, key, actorOf(auth)));
      if (!state) throw new AppError('snooze_limit_reached', m.snoozeLimit);
      return toMemberPopup(row, state, settings);
    },

    /** Marks the current occurrence completed; a repeat is answered the same and not counted twice. */
    async complete(auth: Actor, id: string): Promise<{ id: string; completed: true }> {
      const { row } = await actOn(auth, id, (key) => repo.markCompleted(db, key, actorOf(auth)));
      return { id: row.id, completed: true };
    },

    /** The https sites a popup's button may open: the vital-scan URL (always allowed, the default) and POPUP_ACTION_URLS. */
    actionUrls(): { urls: string[] } {
      const vitalScan = settings.vitalScanUrl.startsWith('https:') ? [new URL(settings.vitalScanUrl).href] : [];
      return { urls: [...new Set([...vitalScan, ...settings.actionUrls])] };
    },

    /** How many members (role member) the audience reaches now; 400 when an employer in it does not exist. */
    async reach(audience: PopupAudience): Promise<{ audienceSize: number }> {
      await checkAudience(audience);
      return { audienceSize: await repo.audienceSize(db, audience) };
    },

    /**
     * Shows, snoozes and completions per day in the popup's time zone, from the start of the
     * popup (or its first event) to today or its end (or its last event), and its audience size now.
     */
    async results(id: string): Promise<PopupResultsResponse> {
      const row = isUuid(id) ? await repo.findPopup(db, id) : undefined;
      if (!row) throw new AppError('not_found', m.notFound);
      const now = clock();
      const started = row.startAt.getTime() <= now.getTime();
      const last = new Date(Math.min(now.getTime(), row.endAt.getTime() - 1));
      const [days, audienceSize] = await Promise.all([
        repo.dailyResults(db, {
          popupId: row.id,
          timeZone: row.timezone,
          from: started ? localDate(row.startAt, row.timezone) : null,
          to: started ? localDate(last, row.timezone) : null,
        }),
        repo.audienceSize(db, { companyIds: row.audienceCompanyIds, enrolledOnly: row.audienceEnrolledOnly, withFamilyOnly: row.audienceWithFamilyOnly }),
      ]);
      return { days, audienceSize };
    },

    /** The admin list with exact statistics, filtered and sorted as asked. */
    async list(query: z.output<typeof AdminPopupListQuerySchema>): Promise<AdminPopupListItem[]> {
      const rows = await repo.listPopups(db, query);
      const stats = await repo.countPopupEvents(db, rows.map((r) => r.id));
      const now = clock();
      return rows.map((r) => ({ ...toAdminPopup(r, now, settings), statistics: stats.get(r.id)! }));
    },

    async create(actor: Actor, input: PopupForm): Promise<AdminPopup> {
      const values = fromForm(input, settings);
      await checkAudience(input.audience);
      const now = clock();
      return changePopups(async (tx) => {
        const row = await repo.insertPopup(tx, { ...values, createdAt: now, updatedAt: now });
        await recordEvent(tx, { type: 'admin.popup.created', ...actorOf(actor), payload: { popupId: row.id, title: row.title }, at: now });
        return toAdminPopup(row, now, settings);
      });
    },

    async update(actor: Actor, id: string, input: PopupForm): Promise<AdminPopup> {
      if (!isUuid(id)) throw new AppError('not_found', m.notFound);
      const values = fromForm(input, settings);
      await checkAudience(input.audience);
      const now = clock();
      return changePopups(async (tx) => {
        const row = await repo.updatePopup(tx, id, { ...values, updatedAt: now });
        if (!row) throw new AppError('not_found', m.notFound);
        await recordEvent(tx, { type: 'admin.popup.updated', ...actorOf(actor), payload: { popupId: row.id, title: row.title }, at: now });
        return toAdminPopup(row, now, settings);
      });
    },

    async setActive(actor: Actor, id: string, isActive: boolean): Promise<AdminPopup> {
      if (!isUuid(id)) throw new AppError('not_found', m.notFound);
      const now = clock();
      return changePopups(async (tx) => {
        const row = await repo.updatePopup(tx, id, { isActive, updatedAt: now });
        if (!row) throw new AppError('not_found', m.notFound);
        await recordEvent(tx, {
          type: isActive ? 'admin.popup.activated' : 'admin.popup.deactivated',
          ...actorOf(actor),
          payload: { popupId: row.id },
          at: now,
        });
        return toAdminPopup(row, now, settings);
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      if (!isUuid(id)) throw new AppError('not_found', m.notFound);
      const now = clock();
      await changePopups(async (tx) => {
        const row = await repo.deletePopup(tx, id);
        if (!row) throw new AppError('not_found', m.notFound);
        await recordEvent(tx, { type: 'admin.popup.deleted', ...actorOf(actor), payload: { popupId: row.id, title: row.title }, at: now });
      });
    },
  };
}

export type PopupsService = ReturnType<typeof createPopupsService>;
