import type { Db } from '#db/client';
import { messages } from '#shared/messages/index';
import type {
  AdminPopup,
  AdminPopupListItem,
  AdminPopupListQuerySchema,
  MemberPopup,
  NextPopupQuerySchema,
  PopupForm,
  PopupRecurrence,
  PopupTarget,
  PopupTheme,
} from '#shared/schemas/popups';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import { recordEvent } from '../audit/audit.repository';
import type { AuthenticatedSession } from '../auth/auth.service';
import * as repo from './popups.repository';
import { evaluatePopup, isLive, occurrenceAt, pickNext, type PopupUserState, type SchedulablePopup } from './schedule';
import { isUuid } from '../../lib/sql-text';

const m = messages.popups.server;
/** Candidates read per query while looking for the next popup; most users need one page. */
const PAGE = 25;
/** `GET /api/popups/active` answers at most this many popups. */
export const ACTIVE_LIMIT = 50;

export interface PopupsDeps {
  db: Db;
  clock: Clock;
}

type Actor = Pick<AuthenticatedSession, 'user' | 'session'>;

function schedulable(row: repo.PopupRow): SchedulablePopup & { priority: number; createdAt: Date; id: string } {
  return { ...row, recurrence: row.recurrence as PopupRecurrence };
}

function toMemberPopup(row: repo.PopupRow, state: PopupUserState): MemberPopup {
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
  };
}

export function toAdminPopup(row: repo.PopupRow): AdminPopup {
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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function fromForm(input: PopupForm) {
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
  };
}

/** Reminder popups: the member's next / active popups, snooze and completion, and the admin console. */
export function createPopupsService(deps: PopupsDeps) {
  const { db, clock } = deps;

  const actorOf = (a: Actor) => ({ actorUserId: a.user.id, companyId: a.user.companyId });

  /** The popup behind a member action: 404 when it is gone or not live. */
  async function livePopup(id: string, now: Date) {
    const row = isUuid(id) ? await repo.findPopup(db, id) : undefined;
    if (!row || !isLive(row, now)) throw new AppError('not_found', m.notFound);
    const occurrence = occurrenceAt(schedulable(row), now);
    if (!occurrence) throw new AppError('not_found', m.notFound);
    return { row, occurrence };
  }

  return {
    /**
     * The best popup for this page that the member should see now, or null. Records a show:
     * the state is stamped for the current occurrence and a `popup.shown` event written.
     */
    async next(auth: Actor, query: z.output<typeof NextPopupQuerySchema>): Promise<MemberPopup | null> {
      const now = clock();
      const signedInAt = auth.session.createdAt;
      for (let offset = 0; ; offset += PAGE) {
        const page = await repo.listLiveWithState(db, { userId: auth.user.id, target: query.route, now, limit: PAGE, offset });
        const picked = pickNext(
          page.map((c) => ({ popup: schedulable(c.popup), state: c.state })),
          signedInAt,
          now,
        );
        if (picked) {
          const row = page.find((c) => c.popup.id === picked.popup.id)!.popup;
          await repo.recordShow(db, { userId: auth.user.id, popupId: row.id, occurrenceStart: picked.verdict.occurrence!.start, now }, actorOf(auth), {
            context: query.context,
          });
          return toMemberPopup(row, picked.verdict.state);
        }
        if (page.length < PAGE) return null;
      }
    },

    /** The member's live popups on every page that they have not completed in this occurrence. */
    async active(auth: Actor): Promise<MemberPopup[]> {
      const now = clock();
      const out: MemberPopup[] = [];
      for (let offset = 0; out.length < ACTIVE_LIMIT; offset += PAGE) {
        const page = await repo.listLiveWithState(db, { userId: auth.user.id, target: null, now, limit: PAGE, offset });
        for (const c of page) {
          const verdict = evaluatePopup(schedulable(c.popup), c.state, auth.session.createdAt, now);
          if (verdict.live && !verdict.completed && out.length < ACTIVE_LIMIT) out.push(toMemberPopup(c.popup, verdict.state));
        }
        if (page.length < PAGE) break;
      }
      return out;
    },

    /** +1 snooze in the current occurrence; 400 at the limit, 404 when gone or not live. */
    async snooze(auth: Actor, id: string): Promise<MemberPopup> {
      const now = clock();
      const { row, occurrence } = await livePopup(id, now);
      const count = await repo.incrementSnooze(
        db,
        { userId: auth.user.id, popupId: row.id, occurrenceStart: occurrence.start, now, maxSnoozes: row.maxSnoozes },
        actorOf(auth),
      );
      if (count === null) throw new AppError('validation', m.snoozeLimit);
      return toMemberPopup(row, { occurrenceStart: occurrence.start, snoozeCount: count, lastSnoozedAt: now, completedAt: null });
    },

    /** Marks the current occurrence completed; a repeat is answered the same and not counted twice. */
    async complete(auth: Actor, id: string): Promise<{ id: string; completed: true }> {
      const now = clock();
      const { row, occurrence } = await livePopup(id, now);
      await repo.markCompleted(db, { userId: auth.user.id, popupId: row.id, occurrenceStart: occurrence.start, now }, actorOf(auth));
      return { id: row.id, completed: true };
    },

    /** The admin list with exact statistics, filtered and sorted as asked. */
    async list(query: z.output<typeof AdminPopupListQuerySchema>): Promise<AdminPopupListItem[]> {
      const rows = await repo.listPopups(db, query);
      const stats = await repo.countPopupEvents(db, rows.map((r) => r.id));
      return rows.map((r) => ({ ...toAdminPopup(r), statistics: stats.get(r.id)! }));
    },

    async create(actor: Actor, input: PopupForm): Promise<AdminPopup> {
      const now = clock();
      return db.transaction(async (tx) => {
        const row = await repo.insertPopup(tx, { ...fromForm(input), createdAt: now, updatedAt: now });
        await recordEvent(tx, { type: 'admin.popup.created', ...actorOf(actor), payload: { popupId: row.id, title: row.title }, at: now });
        return toAdminPopup(row);
      });
    },

    async update(actor: Actor, id: string, input: PopupForm): Promise<AdminPopup> {
      if (!isUuid(id)) throw new AppError('not_found', m.notFound);
      const now = clock();
      return db.transaction(async (tx) => {
        const row = await repo.updatePopup(tx, id, { ...fromForm(input), updatedAt: now });
        if (!row) throw new AppError('not_found', m.notFound);
        await recordEvent(tx, { type: 'admin.popup.updated', ...actorOf(actor), payload: { popupId: row.id, title: row.title }, at: now });
        return toAdminPopup(row);
      });
    },

    async setActive(actor: Actor, id: string, isActive: boolean): Promise<AdminPopup> {
      if (!isUuid(id)) throw new AppError('not_found', m.notFound);
      const now = clock();
      return db.transaction(async (tx) => {
        const row = await repo.updatePopup(tx, id, { isActive, updatedAt: now });
        if (!row) throw new AppError('not_found', m.notFound);
        await recordEvent(tx, {
          type: isActive ? 'admin.popup.activated' : 'admin.popup.deactivated',
          ...actorOf(actor),
          payload: { popupId: row.id },
          at: now,
        });
        return toAdminPopup(row);
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      if (!isUuid(id)) throw new AppError('not_found', m.notFound);
      const now = clock();
      await db.transaction(async (tx) => {
        const row = await repo.deletePopup(tx, id);
        if (!row) throw new AppError('not_found', m.notFound);
        await recordEvent(tx, { type: 'admin.popup.deleted', ...actorOf(actor), payload: { popupId: row.id, title: row.title }, at: now });
      });
    },
  };
}

export type PopupsService = ReturnType<typeof createPopupsService>;
