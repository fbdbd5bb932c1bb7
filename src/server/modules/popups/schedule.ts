/**
 * The popup scheduler: pure functions of a popup, a user's state, the user's sign-in time
 * and `now`. No I/O, no clock of its own (product decisions, "Reminder popups").
 *
 * - A popup is live when `isActive` and `startAt <= now < endAt`.
 * - NONE is one occurrence over [startAt, endAt). HOURLY, DAILY and WEEKLY with interval k
 *   start occurrence n at startAt + n*k hours/days/weeks. Hours are exact elapsed time; days
 *   and weeks step on the wall clock of the popup's IANA time zone, so 09:00 stays 09:00
 *   across a DST change. An occurrence lasts until the next starts, or until endAt.
 * - Wall-clock times that do not exist or exist twice are resolved like Temporal's
 *   'compatible' disambiguation: a time in a spring-forward gap moves forward by the gap
 *   (02:30 becomes 03:30), a time in a fall-back overlap takes the earlier instant.
 */

export const RECURRENCES = ['NONE', 'HOURLY', 'DAILY', 'WEEKLY'] as const;
export type Recurrence = (typeof RECURRENCES)[number];

export interface PopupSchedule {
  startAt: Date;
  endAt: Date;
  recurrence: Recurrence;
  /** 1-24: how many hours, days or weeks between occurrences. */
  interval: number;
  /** IANA time zone name, e.g. America/Los_Angeles. */
  timezone: string;
}

export interface SchedulablePopup extends PopupSchedule {
  isActive: boolean;
  maxSnoozes: number;
}

export interface Occurrence {
  index: number;
  start: Date;
  /** Exclusive. */
  end: Date;
}

/** What is stored per user and popup (user_popup_states). */
export interface PopupUserState {
  occurrenceStart: Date | null;
  snoozeCount: number;
  lastSnoozedAt: Date | null;
  completedAt: Date | null;
  /** When it was last shown (any occurrence); absent where it does not matter. */
  lastShownAt?: Date | null;
}

export interface PopupVerdict {
  live: boolean;
  occurrence: Occurrence | null;
  /** The state as it applies to the current occurrence (fresh when stored for an earlier one). */
  state: PopupUserState;
  completed: boolean;
  snoozedThisSignIn: boolean;
  canSnooze: boolean;
  isLastReminder: boolean;
  /** Live, in its occurrence, not completed in it, not snoozed since the current sign-in. */
  shouldShow: boolean;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const FRESH_STATE: Readonly<PopupUserState> = Object.freeze({
  occurrenceStart: null,
  snoozeCount: 0,
  lastSnoozedAt: null,
  completedAt: null,
});

// Intl.DateTimeFormat construction is expensive; one formatter per zone, reused.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The wall clock in `timeZone` at `instant`. */
export function wallClockAt(instant: Date, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const era = parts.find((p) => p.type === 'era')?.value;
  const rawYear = get('year');
  return {
    year: era === 'BC' || era === 'B' ? 1 - rawYear : rawYear,
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
    millisecond: ((instant.getTime() % 1000) + 1000) % 1000,
  };
}

function wallClockAsUtcMs(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

/** Offset of `timeZone` from UTC at `epochMs`, in ms (positive east of Greenwich). */
export function offsetAt(epochMs: number, timeZone: string): number {
  const whole = epochMs - (((epochMs % 1000) + 1000) % 1000);
  return wallClockAsUtcMs({ ...wallClockAt(new Date(whole), timeZone), millisecond: 0 }) - whole;
}

/**
 * The instant at which the wall clock in `timeZone` shows `w`. Gaps move forward by the
 * gap's length; overlaps take the earlier instant (Temporal 'compatible').
 */
export function instantOfWallClock(w: WallClock, timeZone: string): Date {
  const local = wallClockAsUtcMs(w);
  const before = offsetAt(local - DAY_MS, timeZone);
  const after = offsetAt(local + DAY_MS, timeZone);
  const candidates = [...new Set([local - before, local - after])]
    .filter((t) => offsetAt(t, timeZone) === local - t)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]!);
  // A gap: read the wall clock with the offset in force before the transition.
  return new Date(local - before);
}

function addDays(w: WallClock, days: number): WallClock {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day + days);
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function stepDays(s: PopupSchedule): number {
  return s.recurrence === 'WEEKLY' ? 7 * s.interval : s.interval;
}

/**
 * Wall-clock occurrence starts already worked out, by start instant, zone and days added. Each
 * costs several `Intl` calls (about a tenth of `GET /api/popups/next`'s CPU), and every call
 * asks again for the same few popups' starts. A start depends on nothing else, so a value
 * never goes stale; the map is emptied when it reaches its bound.
 */
const wallClockStarts = new Map<string, number>();
const WALL_CLOCK_STARTS_MAX = 10_000;

/** Start of occurrence `n` (n >= 0), whether or not it falls before endAt. */
export function occurrenceStart(s: PopupSchedule, n: number): Date {
  if (n === 0 || s.recurrence === 'NONE') return new Date(s.startAt.getTime());
  if (s.recurrence === 'HOURLY') return new Date(s.startAt.getTime() + n * s.interval * HOUR_MS);
  const days = n * stepDays(s);
  const key = `${s.startAt.getTime()} ${days} ${s.timezone}`;
  let start = wallClockStarts.get(key);
  if (start === undefined) {
    start = instantOfWallClock(addDays(wallClockAt(s.startAt, s.timezone), days), s.timezone).getTime();
    if (wallClockStarts.size >= WALL_CLOCK_STARTS_MAX) wallClockStarts.clear();
    wallClockStarts.set(key, start);
  }
  return new Date(start);
}

/** The occurrence containing `now`, or null when `now` is outside [startAt, endAt). */
export function occurrenceAt(s: PopupSchedule, now: Date): Occurrence | null {
  const t = now.getTime();
  const start = s.startAt.getTime();
  const end = s.endAt.getTime();
  if (!(start <= t && t < end)) return null;
  if (s.recurrence === 'NONE') return { index: 0, start: new Date(start), end: new Date(end) };
  const nominal = s.recurrence === 'HOURLY' ? s.interval * HOUR_MS : stepDays(s) * DAY_MS;
  let n = Math.max(0, Math.floor((t - start) / nominal));
  // Wall-clock steps differ from the nominal length by DST offsets only; a few steps settle it.
  while (n > 0 && occurrenceStart(s, n).getTime() > t) n -= 1;
  let next = occurrenceStart(s, n + 1).getTime();
  while (next <= t) {
    n += 1;
    next = occurrenceStart(s, n + 1).getTime();
  }
  return { index: n, start: occurrenceStart(s, n), end: new Date(Math.min(next, end)) };
}

/** Live: active and startAt <= now < endAt. */
export function isLive(p: Pick<SchedulablePopup, 'isActive' | 'startAt' | 'endAt'>, now: Date): boolean {
  const t = now.getTime();
  return p.isActive && p.startAt.getTime() <= t && t < p.endAt.getTime();
}

export type PopupStatus = 'scheduled' | 'live' | 'ended' | 'inactive';

/**
 * What the admin list says about a popup at `now`: inactive when switched off; otherwise
 * scheduled before startAt, live while an occurrence runs (startAt <= now < endAt: the
 * occurrences tile that range), ended after endAt.
 */
export function popupStatus(p: Pick<SchedulablePopup, 'isActive' | 'startAt' | 'endAt'>, now: Date): PopupStatus {
  if (!p.isActive) return 'inactive';
  const t = now.getTime();
  if (t < p.startAt.getTime()) return 'scheduled';
  return t < p.endAt.getTime() ? 'live' : 'ended';
}

/**
 * Start of the occurrence running at `now`, or of the first one when it has not started;
 * null once endAt has passed. From the schedule alone (isActive is the status's business).
 */
export function currentOrNextOccurrenceStart(s: PopupSchedule, now: Date): Date | null {
  if (s.endAt.getTime() <= s.startAt.getTime()) return null;
  if (now.getTime() < s.startAt.getTime()) return new Date(s.startAt.getTime());
  return occurrenceAt(s, now)?.start ?? null;
}

/** A state stored for an earlier (or unknown) occurrence counts as fresh. */
export function stateInOccurrence(state: PopupUserState | null | undefined, occurrence: Occurrence | null): PopupUserState {
  if (!state || !occurrence || !state.occurrenceStart) return { ...FRESH_STATE };
  if (state.occurrenceStart.getTime() !== occurrence.start.getTime()) return { ...FRESH_STATE };
  return { ...state };
}

/** Decides whether this user should see `popup` now, given their state and current sign-in. */
export function evaluatePopup(
  popup: SchedulablePopup,
  stored: PopupUserState | null | undefined,
  signedInAt: Date,
  now: Date,
): PopupVerdict {
  const live = isLive(popup, now);
  const occurrence = live ? occurrenceAt(popup, now) : null;
  const state = stateInOccurrence(stored, occurrence);
  const completed = state.completedAt !== null;
  const snoozedThisSignIn = state.lastSnoozedAt !== null && state.lastSnoozedAt.getTime() >= signedInAt.getTime();
  const canSnooze = state.snoozeCount < popup.maxSnoozes;
  return {
    live,
    occurrence,
    state,
    completed,
    snoozedThisSignIn,
    canSnooze,
    isLastReminder: !canSnooze,
    shouldShow: live && occurrence !== null && !completed && !snoozedThisSignIn,
  };
}

export interface RankedPopup {
  priority: number;
  endAt: Date;
  createdAt: Date;
  id: string;
}

/** Best first: highest priority, then earliest endAt, then oldest, then id for a total order. */
export function compareBest(a: RankedPopup, b: RankedPopup): number {
  return (
    b.priority - a.priority ||
    a.endAt.getTime() - b.endAt.getTime() ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
