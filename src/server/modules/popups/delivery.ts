/**
 * Who gets which popup when, beyond the schedule: quiet hours and the daily cap, in the
 * member's time zone. Pure functions of their inputs and `now`, like schedule.ts; the order
 * of the rules is docs/decisions/popup-audiences-capping.md:
 *
 *   schedule -> audience -> completed / snoozed this sign-in -> quiet hours -> daily cap -> priority
 *
 * The audience is decided before (live-popups.ts: the popups arrive narrowed to it, best
 * first); everything else is here. Priority is the order the popups are tried in: the first
 * that passes every rule is the one shown. `decide` names the first rule in that order that
 * refuses; `pickDeliverable`, which only needs to know whether one does, looks at quiet hours
 * first, as they cost least.
 */
import { isIanaTimeZone } from '#shared/schemas/popups';
import {
  evaluatePopup,
  type PopupUserState,
  type PopupVerdict,
  type RankedPopup,
  type SchedulablePopup,
  wallClockAt,
} from './schedule';

/** "HH:MM" to "HH:MM", local; start after end wraps past midnight. start !== end. */
export interface QuietHours {
  start: string;
  end: string;
}

/** The programme's settings (configuration); null = off. */
export interface ProgrammeRules {
  dailyCap: number | null;
  quietHours: QuietHours | null;
}

/** A popup with what delivery needs: its schedule, rank and its own settings (null = the programme's). */
export interface DeliverablePopup extends SchedulablePopup, RankedPopup {
  dailyCap: number | null;
  quietHours: QuietHours | null;
}

/** A popup first shown to the member (in its occurrence) at `at`: what the daily cap counts. */
export interface NewShow {
  popupId: string;
  at: Date;
}

export interface DeliveryContext {
  /** Start of the member's session: a snooze since then hides a popup until the next sign-in. */
  signedInAt: Date;
  now: Date;
  /** The zone the browser reported at sign-in; null, or not a real IANA zone, falls back to the popup's. */
  sessionZone: string | null;
  programme: ProgrammeRules;
  /**
   * The member's first shows of the last two days (a local day is never longer than that);
   * null when not loaded: `pickDeliverable` then answers SHOWS_NEEDED where a cap must count
   * them, and `decide` throws.
   */
  newShows: readonly NewShow[] | null;
}

export type Refusal = 'not_showable' | 'quiet_hours' | 'daily_cap';

export interface Delivery {
  show: boolean;
  refusal: Refusal | null;
  verdict: PopupVerdict;
  /** The zone its quiet hours and day were read in. */
  zone: string;
  /** Already shown in the occurrence running now (a snoozed popup coming back): never counted as new again. */
  shownInOccurrence: boolean;
  /** The cap that had to allow it (null when none applied, or it was exempt): such a show must be re-checked atomically. */
  capChecked: number | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Local times already read (at most the 1,440 of a day): quiet hours are read for every popup a call weighs. */
const minutesOf = new Map<string, number>();

export function minuteOfDay(hhmm: string): number {
  let minute = minutesOf.get(hhmm);
  if (minute === undefined) {
    const m = HHMM.exec(hhmm);
    if (!m) throw new Error(`not a local time: ${hhmm}`);
    minute = Number(m[1]) * 60 + Number(m[2]);
    minutesOf.set(hhmm, minute);
  }
  return minute;
}

/**
 * Zone names already checked. Checking builds an `Intl.DateTimeFormat` (a tenth of the
 * main thread's time with 1,000 live popups, one check per candidate); a few hundred zones
 * exist, and the bound keeps made-up names from growing the map.
 */
const checkedZones = new Map<string, boolean>();
const CHECKED_ZONES_MAX = 1_000;

/** The zone the browser reported, when it is a real IANA zone; else null. */
export function knownZone(sessionZone: string | null | undefined): string | null {
  if (!sessionZone) return null;
  let known = checkedZones.get(sessionZone);
  if (known === undefined) {
    known = isIanaTimeZone(sessionZone);
    if (checkedZones.size >= CHECKED_ZONES_MAX) checkedZones.clear();
    checkedZones.set(sessionZone, known);
  }
  return known ? sessionZone : null;
}

/** The member's zone: the browser's, when it is a real IANA zone, else the popup's own. */
export function memberZone(sessionZone: string | null | undefined, popupZone: string): string {
  return knownZone(sessionZone) ?? popupZone;
}

/** The calendar date ("YYYY-MM-DD") the wall clock shows in `zone` at `instant`. */
export function localDate(instant: Date, zone: string): string {
  const w = wallClockAt(instant, zone);
  const year = w.year < 0 ? `-${String(-w.year).padStart(6, '0')}` : w.year > 9999 ? `+${String(w.year).padStart(6, '0')}` : String(w.year).padStart(4, '0');
  return `${year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** "HH:MM" the wall clock shows in `zone` at `instant` (seconds dropped). */
export function localTime(instant: Date, zone: string): string {
  const w = wallClockAt(instant, zone);
  return `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
}

/** True while the wall clock in `zone` is in [start, end), wrapping past midnight when start > end. */
export function inQuietHours(now: Date, zone: string, quiet: QuietHours): boolean {
  return quietAt(minuteOfDay(localTime(now, zone)), quiet);
}

/** True when the local minute of the day `t` is in the quiet hours. */
function quietAt(t: number, quiet: QuietHours): boolean {
  const start = minuteOfDay(quiet.start);
  const end = minuteOfDay(quiet.end);
  return start < end ? t >= start && t < end : t >= start || t < end;
}

/** The popup's own settings where it has them, else the programme's. */
export function effectiveRules(popup: Pick<DeliverablePopup, 'dailyCap' | 'quietHours'>, programme: ProgrammeRules): ProgrammeRules {
  return { dailyCap: popup.dailyCap ?? programme.dailyCap, quietHours: popup.quietHours ?? programme.quietHours };
}

/** The different popups first shown to the member on the local day of `now` in `zone`. */
export function popupsShownToday(newShows: readonly NewShow[], now: Date, zone: string): Set<string> {
  const today = localDate(now, zone);
  return new Set(newShows.filter((s) => localDate(s.at, zone) === today).map((s) => s.popupId));
}

/**
 * The daily cap: showing `popupId` must not make the day's number of different popups
 * exceed `cap`. One already counted today (an earlier occurrence of an hourly popup) adds
 * nothing, so it is allowed.
 */
export function capAllows(popupId: string, cap: number, newShows: readonly NewShow[], now: Date, zone: string): boolean {
  return capAllowsToday(popupId, cap, popupsShownToday(newShows, now, zone));
}

function capAllowsToday(popupId: string, cap: number, today: ReadonlySet<string>): boolean {
  return today.has(popupId) || today.size < cap;
}

const MINUTE_MS = 60_000;

/**
 * The minute of the day last read in each zone, with the instants it spans (from the start of
 * that local minute to its end): calls within the same minute do not read the clock again.
 * Exact while no change of offset falls inside a minute (the time zone database's fall on
 * whole local minutes).
 */
const minutesRead = new Map<string, { from: number; until: number; minute: number }>();

/**
 * What the rules read in a zone at the context's `now`: the minute of the day (`minutesRead`),
 * and the popups first shown on that local day (once per zone and call). A call may weigh every
 * popup of the member's audience (in quiet hours, all of them), nearly all read in one zone (the
 * browser's), and reading a wall clock is an `Intl` format: read per popup, it was about half
 * the CPU of `next` with 1,000 live popups and quiet hours on (docs/performance-log.md, stop 43).
 */
class ZoneReadings {
  private readonly shownToday = new Map<string, ReadonlySet<string>>();

  constructor(private readonly ctx: DeliveryContext) {}

  minuteOfDay(zone: string): number {
    const t = this.ctx.now.getTime();
    const read = minutesRead.get(zone);
    if (read && read.from <= t && t < read.until) return read.minute;
    const w = wallClockAt(this.ctx.now, zone);
    const from = t - w.second * 1000 - w.millisecond;
    if (minutesRead.size >= CHECKED_ZONES_MAX) minutesRead.clear();
    minutesRead.set(zone, { from, until: from + MINUTE_MS, minute: w.hour * 60 + w.minute });
    return w.hour * 60 + w.minute;
  }

  /** The popups first shown today in `zone`; the shows must be loaded. */
  shownTodayIn(zone: string, newShows: readonly NewShow[]): ReadonlySet<string> {
    let today = this.shownToday.get(zone);
    if (today === undefined) {
      today = popupsShownToday(newShows, this.ctx.now, zone);
      this.shownToday.set(zone, today);
    }
    return today;
  }
}

/** Shown in the occurrence running now: a state of this occurrence shown at or after its start. */
export function shownInOccurrence(verdict: Pick<PopupVerdict, 'occurrence' | 'state'>): boolean {
  const shown = verdict.state.lastShownAt;
  return verdict.occurrence !== null && shown != null && shown.getTime() >= verdict.occurrence.start.getTime();
}

/** The member's shows are needed to decide and were not loaded (`DeliveryContext.newShows` null). */
export const SHOWS_NEEDED: unique symbol = Symbol('shows needed');

/** Every rule for one popup, in the decision record's order. */
export function decide(popup: DeliverablePopup, stored: PopupUserState | null | undefined, ctx: DeliveryContext): Delivery {
  const delivery = decideWith(popup, stored, ctx, new ZoneReadings(ctx));
  if (delivery === SHOWS_NEEDED) throw new Error('decide: a daily cap applies but the member\'s shows were not loaded');
  return delivery;
}

function decideWith(popup: DeliverablePopup, stored: PopupUserState | null | undefined, ctx: DeliveryContext, readings: ZoneReadings): Delivery | typeof SHOWS_NEEDED {
  const verdict = evaluatePopup(popup, stored, ctx.signedInAt, ctx.now);
  const zone = memberZone(ctx.sessionZone, popup.timezone);
  const shown = shownInOccurrence(verdict);
  const refuse = (refusal: Refusal, capChecked: number | null = null): Delivery => ({ show: false, refusal, verdict, zone, shownInOccurrence: shown, capChecked });
  if (!verdict.shouldShow) return refuse('not_showable');
  const rules = effectiveRules(popup, ctx.programme);
  if (rules.quietHours && quietAt(readings.minuteOfDay(zone), rules.quietHours)) return refuse('quiet_hours');
  if (rules.dailyCap === null || shown) return { show: true, refusal: null, verdict, zone, shownInOccurrence: shown, capChecked: null };
  if (ctx.newShows === null) return SHOWS_NEEDED;
  if (!capAllowsToday(popup.id, rules.dailyCap, readings.shownTodayIn(zone, ctx.newShows))) return refuse('daily_cap', rules.dailyCap);
  return { show: true, refusal: null, verdict, zone, shownInOccurrence: shown, capChecked: rules.dailyCap };
}

/**
 * The first of `popups` that passes every rule, with its delivery; null when none does.
 * `popups` come best first (compareBest: the order live-popups.ts holds them in), and are
 * walked only until one passes. With the member's shows not loaded (`ctx.newShows` null),
 * SHOWS_NEEDED as soon as the walk reaches a popup they decide (a daily cap applies and it is
 * not yet shown in its occurrence): a member asking again is answered the popup already shown
 * without reading them.
 */
export function pickDeliverable<P extends DeliverablePopup>(
  popups: readonly P[],
  stateOf: (popup: P) => PopupUserState | null,
  ctx: DeliveryContext & { newShows: readonly NewShow[] },
): { popup: P; delivery: Delivery } | null;
export function pickDeliverable<P extends DeliverablePopup>(
  popups: readonly P[],
  stateOf: (popup: P) => PopupUserState | null,
  ctx: DeliveryContext,
): { popup: P; delivery: Delivery } | null | typeof SHOWS_NEEDED;
export function pickDeliverable<P extends DeliverablePopup>(
  popups: readonly P[],
  stateOf: (popup: P) => PopupUserState | null,
  ctx: DeliveryContext,
): { popup: P; delivery: Delivery } | null | typeof SHOWS_NEEDED {
  const readings = new ZoneReadings(ctx);
  for (const popup of popups) {
    // In its quiet hours a popup is refused whatever its schedule and state: looked at first
    // here (not in `decide`, whose refusal names the first rule that refuses), as it costs
    // less, and a member in quiet hours is refused every popup they cover.
    const quiet = popup.quietHours ?? ctx.programme.quietHours;
    if (quiet && quietAt(readings.minuteOfDay(memberZone(ctx.sessionZone, popup.timezone)), quiet)) continue;
    const delivery = decideWith(popup, stateOf(popup), ctx, readings);
    if (delivery === SHOWS_NEEDED) return SHOWS_NEEDED;
    if (delivery.show) return { popup, delivery };
  }
  return null;
}
