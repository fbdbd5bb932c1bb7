import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareBest,
  currentOrNextOccurrenceStart,
  evaluatePopup,
  instantOfWallClock,
  isLive,
  offsetAt,
  occurrenceAt,
  occurrenceStart,
  popupStatus,
  type PopupSchedule,
  type PopupUserState,
  type Recurrence,
  type SchedulablePopup,
  stateInOccurrence,
  wallClockAt,
} from './schedule';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LA = 'America/Los_Angeles';
const LONDON = 'Europe/London';
const iso = (d: Date | null | undefined) => d?.toISOString();

/** Zones with awkward rules: 30- and 45-minute offsets, 30-minute and 2-hour DST, southern DST, skipped days. */
const ZONES = [
  'UTC',
  LA,
  LONDON,
  'America/New_York',
  'America/St_Johns',
  'America/Sao_Paulo',
  'America/Santiago',
  'Europe/Berlin',
  'Africa/Casablanca',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Antarctica/Troll',
] as const;

const FROM = Date.parse('2005-01-01T00:00:00Z');
const TO = Date.parse('2040-01-01T00:00:00Z');

const scheduleArb = fc
  .record({
    start: fc.integer({ min: FROM, max: TO }),
    lengthMs: fc.integer({ min: 1, max: 400 * DAY }),
    recurrence: fc.constantFrom<Recurrence>('NONE', 'HOURLY', 'DAILY', 'WEEKLY'),
    interval: fc.integer({ min: 1, max: 24 }),
    timezone: fc.constantFrom(...ZONES),
  })
  .map(
    (r): PopupSchedule => ({
      startAt: new Date(r.start),
      endAt: new Date(r.start + r.lengthMs),
      recurrence: r.recurrence,
      interval: r.interval,
      timezone: r.timezone,
    }),
  );

/** A schedule and an instant inside its active period. */
const scheduleAndNowArb = scheduleArb.chain((s) =>
  fc.integer({ min: s.startAt.getTime(), max: s.endAt.getTime() - 1 }).map((t) => ({ s, now: new Date(t) })),
);

/** Brute force: walk occurrences from the first; the last one starting at or before now. */
function referenceOccurrence(s: PopupSchedule, now: Date) {
  if (now < s.startAt || now >= s.endAt) return null;
  if (s.recurrence === 'NONE') return { start: s.startAt, end: s.endAt };
  let n = 0;
  while (occurrenceStart(s, n + 1).getTime() <= now.getTime()) n += 1;
  const next = occurrenceStart(s, n + 1);
  return { start: occurrenceStart(s, n), end: next < s.endAt ? next : s.endAt };
}

const sameTimeOfDay = (a: ReturnType<typeof wallClockAt>, b: ReturnType<typeof wallClockAt>) =>
  a.hour === b.hour && a.minute === b.minute && a.second === b.second && a.millisecond === b.millisecond;

const daysBetween = (a: ReturnType<typeof wallClockAt>, b: ReturnType<typeof wallClockAt>) =>
  Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY);

function popup(overrides: Partial<SchedulablePopup> = {}): SchedulablePopup {
  return {
    startAt: new Date('2026-03-01T00:00:00Z'),
    endAt: new Date('2026-04-01T00:00:00Z'),
    recurrence: 'NONE',
    interval: 1,
    timezone: 'UTC',
    isActive: true,
    maxSnoozes: 2,
    ...overrides,
  };
}

describe('occurrences (property-based)', () => {
  it('the occurrence holding now starts at or before now, ends after it, and stays inside [startAt, endAt)', () => {
    fc.assert(
      fc.property(scheduleAndNowArb, ({ s, now }) => {
        const o = occurrenceAt(s, now)!;
        expect(o).not.toBeNull();
        expect(o.start.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(o.end.getTime()).toBeGreaterThan(now.getTime());
        expect(o.start.getTime()).toBeGreaterThanOrEqual(s.startAt.getTime());
        expect(o.end.getTime()).toBeLessThanOrEqual(s.endAt.getTime());
        expect(o.start.getTime()).toBe(occurrenceStart(s, o.index).getTime());
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with a brute-force walk from the first occurrence', () => {
    const shortSchedules = scheduleArb
      .filter((s) => (s.endAt.getTime() - s.startAt.getTime()) / ((s.recurrence === 'HOURLY' ? HOUR : DAY) * s.interval) < 500)
      .chain((s) => fc.integer({ min: s.startAt.getTime() - DAY, max: s.endAt.getTime() + DAY }).map((t) => ({ s, now: new Date(t) })));
    fc.assert(
      fc.property(shortSchedules, ({ s, now }) => {
        const expected = referenceOccurrence(s, now);
        const actual = occurrenceAt(s, now);
        expect(iso(actual?.start)).toBe(iso(expected?.start));
        expect(iso(actual?.end)).toBe(iso(expected?.end));
      }),
      { numRuns: 300 },
    );
  });

  it('there is no occurrence before startAt or from endAt on', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 1000 * DAY }), (s, d) => {
        expect(occurrenceAt(s, new Date(s.startAt.getTime() - 1 - d))).toBeNull();
        expect(occurrenceAt(s, new Date(s.endAt.getTime() + d))).toBeNull();
      }),
    );
  });

  it('occurrence starts never go backwards, and the occurrence index never decreases as time passes', () => {
    fc.assert(
      fc.property(scheduleArb, fc.nat({ max: 300 }), fc.integer({ min: 1, max: 10 * DAY }), (s, n, dt) => {
        expect(occurrenceStart(s, n + 1).getTime()).toBeGreaterThanOrEqual(occurrenceStart(s, n).getTime());
        const t = s.startAt.getTime() + ((n * HOUR) % (s.endAt.getTime() - s.startAt.getTime()));
        const a = occurrenceAt(s, new Date(t));
        const b = occurrenceAt(s, new Date(t + dt));
        if (a && b) expect(b.index).toBeGreaterThanOrEqual(a.index);
      }),
      { numRuns: 300 },
    );
  });

  it('NONE is exactly one occurrence over [startAt, endAt)', () => {
    fc.assert(
      fc.property(scheduleAndNowArb, ({ s, now }) => {
        const o = occurrenceAt({ ...s, recurrence: 'NONE' }, now)!;
        expect(o).toEqual({ index: 0, start: s.startAt, end: s.endAt });
      }),
    );
  });

  it('HOURLY occurrences are exactly k elapsed hours apart, whatever the zone', () => {
    fc.assert(
      fc.property(scheduleArb, fc.nat({ max: 5000 }), (s, n) => {
        const h = { ...s, recurrence: 'HOURLY' as const };
        expect(occurrenceStart(h, n).getTime() - s.startAt.getTime()).toBe(n * s.interval * HOUR);
      }),
    );
  });

  it('DAILY and WEEKLY land n*k calendar days later at the same wall-clock time, unless that time does not exist that day', () => {
    fc.assert(
      fc.property(scheduleArb, fc.constantFrom<Recurrence>('DAILY', 'WEEKLY'), fc.nat({ max: 400 }), (s0, recurrence, n) => {
        const s = { ...s0, recurrence };
        const step = (recurrence === 'WEEKLY' ? 7 : 1) * s.interval;
        const first = wallClockAt(s.startAt, s.timezone);
        const target = { ...first };
        const d = new Date(Date.UTC(first.year, first.month - 1, first.day + n * step));
        Object.assign(target, { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
        const at = occurrenceStart(s, n);
        const seen = wallClockAt(at, s.timezone);
        if (sameTimeOfDay(seen, first) && daysBetween(first, seen) === n * step) return;
        // Otherwise the wall-clock time fell in a spring-forward gap: no instant shows it, and
        // the result is that time read with the offset in force before the gap (moved forward).
        const exists = (t: number) => {
          const w = wallClockAt(new Date(t), s.timezone);
          return sameTimeOfDay(w, target) && daysBetween(target, w) === 0;
        };
        let found = false;
        for (let probe = at.getTime() - 2 * DAY; probe <= at.getTime() + 2 * DAY && !found; probe += 15 * 60_000) found = exists(probe);
        expect(found).toBe(false);
        const targetAsUtc = Date.UTC(target.year, target.month - 1, target.day, target.hour, target.minute, target.second, target.millisecond);
        expect(at.getTime()).toBe(targetAsUtc - offsetAt(at.getTime() - DAY, s.timezone));
        expect(at.getTime()).toBeGreaterThan(targetAsUtc - offsetAt(at.getTime(), s.timezone));
      }),
      { numRuns: 400 },
    );
  });

  it('a wall-clock time that exists round-trips through instantOfWallClock, taking the earlier of two', () => {
    fc.assert(
      fc.property(fc.integer({ min: FROM, max: TO }), fc.constantFrom(...ZONES), (t, zone) => {
        const w = wallClockAt(new Date(t), zone);
        const back = instantOfWallClock(w, zone);
        expect(back.getTime()).toBeLessThanOrEqual(t);
        expect(wallClockAt(back, zone)).toEqual(w);
      }),
      { numRuns: 500 },
    );
  });
});

describe('remembered occurrence starts', () => {
  /** What occurrenceStart computes for DAILY: n*interval calendar days on, the same wall clock. */
  const computed = (s: PopupSchedule, n: number) => {
    const w = wallClockAt(s.startAt, s.timezone);
    const d = new Date(Date.UTC(w.year, w.month - 1, w.day + n * s.interval));
    return instantOfWallClock({ ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, s.timezone).getTime();
  };
  const daily = (startAt: Date, timezone: string): PopupSchedule => ({ startAt, endAt: new Date(startAt.getTime() + 400 * DAY), recurrence: 'DAILY', interval: 1, timezone });

  it('keeps the zone apart: the same instant and days give each zone its own start, asked once or again', () => {
    const startAt = new Date('2026-03-01T17:00:00Z');
    // Ten days on, Los Angeles has sprung forward (March 8) and London has not (March 29).
    const starts = [LA, LONDON].map((zone) => {
      const s = daily(startAt, zone);
      const first = occurrenceStart(s, 10).getTime();
      expect(occurrenceStart(s, 10).getTime()).toBe(first);
      expect(first).toBe(computed(s, 10));
      return first;
    });
    expect(starts[0]! - starts[1]!).toBe(-HOUR);
  });

  it('answers as it computes past its bound, when it has forgotten what it knew', () => {
    const base = new Date('2026-10-20T16:30:00Z').getTime();
    const schedules = Array.from({ length: 10_050 }, (_, i) => daily(new Date(base + i * 60_000), LA));
    for (const s of schedules) expect(occurrenceStart(s, 14).getTime()).toBe(computed(s, 14));
    for (const s of schedules.slice(0, 50)) expect(occurrenceStart(s, 14).getTime()).toBe(computed(s, 14));
  });
});

describe('DST transitions (table)', () => {
  const daily = (startAt: string, timezone: string, recurrence: Recurrence = 'DAILY', interval = 1): PopupSchedule => ({
    startAt: new Date(startAt),
    endAt: new Date('2027-06-01T00:00:00Z'),
    recurrence,
    interval,
    timezone,
  });

  it.each([
    // America/Los_Angeles: spring forward 2026-03-08 02:00 PST -> 03:00 PDT; fall back 2026-11-01 02:00 PDT -> 01:00 PST.
    ['LA daily 09:00 across spring forward', daily('2026-03-07T17:00:00Z', LA), ['2026-03-07T17:00:00.000Z', '2026-03-08T16:00:00.000Z', '2026-03-09T16:00:00.000Z']],
    ['LA daily 09:00 across fall back', daily('2026-10-31T16:00:00Z', LA), ['2026-10-31T16:00:00.000Z', '2026-11-01T17:00:00.000Z', '2026-11-02T17:00:00.000Z']],
    ['LA daily 02:30: missing on 03-08, moves to 03:30 PDT', daily('2026-03-07T10:30:00Z', LA), ['2026-03-07T10:30:00.000Z', '2026-03-08T10:30:00.000Z', '2026-03-09T09:30:00.000Z']],
    ['LA daily 01:30: twice on 11-01, takes the first (PDT)', daily('2026-10-31T08:30:00Z', LA), ['2026-10-31T08:30:00.000Z', '2026-11-01T08:30:00.000Z', '2026-11-02T09:30:00.000Z']],
    ['LA weekly 09:00 across spring forward', daily('2026-03-01T17:00:00Z', LA, 'WEEKLY'), ['2026-03-01T17:00:00.000Z', '2026-03-08T16:00:00.000Z', '2026-03-15T16:00:00.000Z']],
    ['LA every 2 weeks across fall back', daily('2026-10-25T16:00:00Z', LA, 'WEEKLY', 2), ['2026-10-25T16:00:00.000Z', '2026-11-08T17:00:00.000Z', '2026-11-22T17:00:00.000Z']],
    ['LA hourly across spring forward is elapsed time', daily('2026-03-08T09:00:00Z', LA, 'HOURLY'), ['2026-03-08T09:00:00.000Z', '2026-03-08T10:00:00.000Z', '2026-03-08T11:00:00.000Z']],
    // Europe/London: spring forward 2026-03-29 01:00 GMT -> 02:00 BST; fall back 2026-10-25 02:00 BST -> 01:00 GMT.
    ['London daily 09:00 across spring forward', daily('2026-03-28T09:00:00Z', LONDON), ['2026-03-28T09:00:00.000Z', '2026-03-29T08:00:00.000Z', '2026-03-30T08:00:00.000Z']],
    ['London daily 09:00 across fall back', daily('2026-10-24T08:00:00Z', LONDON), ['2026-10-24T08:00:00.000Z', '2026-10-25T09:00:00.000Z', '2026-10-26T09:00:00.000Z']],
    ['London daily 01:30: missing on 03-29, moves to 02:30 BST', daily('2026-03-28T01:30:00Z', LONDON), ['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']],
    ['London daily 01:30: twice on 10-25, takes the first (BST)', daily('2026-10-24T00:30:00Z', LONDON), ['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']],
    ['London weekly 09:00 across spring forward', daily('2026-03-22T09:00:00Z', LONDON, 'WEEKLY'), ['2026-03-22T09:00:00.000Z', '2026-03-29T08:00:00.000Z', '2026-04-05T08:00:00.000Z']],
    ['London every 3 hours across fall back', daily('2026-10-24T23:00:00Z', LONDON, 'HOURLY', 3), ['2026-10-24T23:00:00.000Z', '2026-10-25T02:00:00.000Z', '2026-10-25T05:00:00.000Z']],
  ])('%s', (_name, schedule, expected) => {
    expect([0, 1, 2].map((n) => occurrenceStart(schedule, n).toISOString())).toEqual(expected);
  });

  it('the occurrence spanning spring forward lasts 23 hours, the one spanning fall back 25', () => {
    const spring = occurrenceAt(daily('2026-03-07T17:00:00Z', LA), new Date('2026-03-08T00:00:00Z'))!;
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * HOUR);
    const fall = occurrenceAt(daily('2026-10-24T08:00:00Z', LONDON), new Date('2026-10-24T20:00:00Z'))!;
    expect(fall.end.getTime() - fall.start.getTime()).toBe(25 * HOUR);
  });

  it('an occurrence is cut short by endAt', () => {
    const s = { ...daily('2026-03-07T17:00:00Z', LA), endAt: new Date('2026-03-08T20:00:00Z') };
    expect(occurrenceAt(s, new Date('2026-03-08T19:59:59.999Z'))).toEqual({
      index: 1,
      start: new Date('2026-03-08T16:00:00Z'),
      end: new Date('2026-03-08T20:00:00Z'),
    });
    expect(occurrenceAt(s, new Date('2026-03-08T20:00:00Z'))).toBeNull();
  });

  it('switches occurrence exactly at the next start', () => {
    const s = daily('2026-03-07T17:00:00Z', LA);
    expect(occurrenceAt(s, new Date('2026-03-08T15:59:59.999Z'))!.index).toBe(0);
    expect(occurrenceAt(s, new Date('2026-03-08T16:00:00.000Z'))!.index).toBe(1);
  });
});

describe('whether a user sees a popup', () => {
  const signIn = new Date('2026-03-10T08:00:00Z');
  const now = new Date('2026-03-10T09:00:00Z');
  const dailyPopup = popup({ recurrence: 'DAILY', startAt: new Date('2026-03-01T06:00:00Z') });
  const currentStart = new Date('2026-03-10T06:00:00Z');
  const state = (s: Partial<PopupUserState>): PopupUserState => ({ occurrenceStart: currentStart, snoozeCount: 0, lastSnoozedAt: null, completedAt: null, ...s });

  it('is live only when active and startAt <= now < endAt', () => {
    const p = popup();
    expect(isLive(p, p.startAt)).toBe(true);
    expect(isLive(p, new Date(p.endAt.getTime() - 1))).toBe(true);
    expect(isLive(p, p.endAt)).toBe(false);
    expect(isLive(p, new Date(p.startAt.getTime() - 1))).toBe(false);
    expect(isLive({ ...p, isActive: false }, now)).toBe(false);
  });

  it('shows a live popup the user has never seen', () => {
    const v = evaluatePopup(dailyPopup, null, signIn, now);
    expect(v).toMatchObject({ live: true, shouldShow: true, canSnooze: true, isLastReminder: false, state: { snoozeCount: 0 } });
    expect(v.occurrence!.start).toEqual(currentStart);
  });

  it('does not show an inactive or expired popup', () => {
    expect(evaluatePopup({ ...dailyPopup, isActive: false }, null, signIn, now).shouldShow).toBe(false);
    expect(evaluatePopup({ ...dailyPopup, endAt: now }, null, signIn, now).shouldShow).toBe(false);
  });

  it('hides a popup completed in the current occurrence, and brings it back in the next', () => {
    const done = state({ completedAt: new Date('2026-03-10T07:00:00Z') });
    expect(evaluatePopup(dailyPopup, done, signIn, now)).toMatchObject({ completed: true, shouldShow: false });
    const tomorrow = new Date('2026-03-11T07:00:00Z');
    expect(evaluatePopup(dailyPopup, done, signIn, tomorrow)).toMatchObject({ completed: false, shouldShow: true });
  });

  it('hides a popup snoozed since the current sign-in, shows it at a later sign-in', () => {
    const snoozed = state({ snoozeCount: 1, lastSnoozedAt: new Date('2026-03-10T08:30:00Z') });
    expect(evaluatePopup(dailyPopup, snoozed, signIn, now)).toMatchObject({ snoozedThisSignIn: true, shouldShow: false });
    const later = new Date('2026-03-10T08:45:00Z');
    expect(evaluatePopup(dailyPopup, snoozed, later, now)).toMatchObject({ snoozedThisSignIn: false, shouldShow: true, state: { snoozeCount: 1 } });
  });

  it('a state from an earlier occurrence counts as fresh', () => {
    const old = state({ occurrenceStart: new Date('2026-03-09T06:00:00Z'), snoozeCount: 2, lastSnoozedAt: new Date('2026-03-10T08:30:00Z'), completedAt: new Date('2026-03-09T07:00:00Z') });
    const v = evaluatePopup(dailyPopup, old, signIn, now);
    expect(v).toMatchObject({ shouldShow: true, completed: false, snoozedThisSignIn: false, canSnooze: true });
    expect(v.state).toEqual({ occurrenceStart: null, snoozeCount: 0, lastSnoozedAt: null, completedAt: null });
    expect(stateInOccurrence(old, null).snoozeCount).toBe(0);
  });

  it('at maxSnoozes the popup is the last reminder and can no longer be snoozed', () => {
    const v = evaluatePopup(dailyPopup, state({ snoozeCount: 2, lastSnoozedAt: new Date('2026-03-09T09:00:00Z') }), signIn, now);
    expect(v).toMatchObject({ shouldShow: true, canSnooze: false, isLastReminder: true });
    expect(evaluatePopup({ ...dailyPopup, maxSnoozes: 0 }, null, signIn, now)).toMatchObject({ canSnooze: false, isLastReminder: true });
  });

  it('canSnooze and isLastReminder always follow snoozeCount against maxSnoozes (property)', () => {
    fc.assert(
      fc.property(scheduleAndNowArb, fc.nat({ max: 12 }), fc.nat({ max: 10 }), fc.boolean(), ({ s, now: t }, count, max, sameOcc) => {
        const p = { ...s, isActive: true, maxSnoozes: max };
        const occ = occurrenceAt(p, t)!;
        const st = { occurrenceStart: sameOcc ? occ.start : new Date(occ.start.getTime() - 1), snoozeCount: count, lastSnoozedAt: null, completedAt: null };
        const v = evaluatePopup(p, st, new Date(0), t);
        const effective = sameOcc ? count : 0;
        expect(v.state.snoozeCount).toBe(effective);
        expect(v.canSnooze).toBe(effective < max);
        expect(v.isLastReminder).toBe(effective >= max);
        expect(v.shouldShow).toBe(true);
      }),
    );
  });
});

describe('the best popup (delivery.test.ts: the pick)', () => {
  const base = { ...popup(), createdAt: new Date('2026-01-01T00:00:00Z') };

  it('orders by priority, then earliest end, then oldest', () => {
    const a = { ...base, id: 'a', priority: 5 };
    const b = { ...base, id: 'b', priority: 9 };
    const c = { ...base, id: 'c', priority: 9, endAt: new Date('2026-03-20T00:00:00Z') };
    const d = { ...base, id: 'd', priority: 9, endAt: new Date('2026-03-20T00:00:00Z'), createdAt: new Date('2025-12-01T00:00:00Z') };
    expect([a, b, c, d].sort(compareBest).map((p) => p.id)).toEqual(['d', 'c', 'b', 'a']);
  });
});

describe('status and next occurrence (the admin list)', () => {
  it.each([
    ['before the start', '2026-02-28T23:59:59Z', true, 'scheduled', '2026-03-01T00:00:00.000Z'],
    ['at the start', '2026-03-01T00:00:00Z', true, 'live', '2026-03-01T00:00:00.000Z'],
    ['in its third day', '2026-03-03T10:00:00Z', true, 'live', '2026-03-03T00:00:00.000Z'],
    ['at the end', '2026-04-01T00:00:00Z', true, 'ended', null],
    ['switched off, before the start', '2026-02-01T00:00:00Z', false, 'inactive', '2026-03-01T00:00:00.000Z'],
    ['switched off, after the end', '2026-05-01T00:00:00Z', false, 'inactive', null],
  ])('a daily popup %s is %s', (_what, now, isActive, status, next) => {
    const p = popup({ recurrence: 'DAILY', isActive });
    expect(popupStatus(p, new Date(now))).toBe(status);
    expect(iso(currentOrNextOccurrenceStart(p, new Date(now))) ?? null).toBe(next);
  });

  it('keeps 09:00 local across the DST change in its zone', () => {
    const p = popup({ startAt: new Date('2026-03-06T17:00:00Z'), recurrence: 'DAILY', timezone: LA }); // 09:00 PST
    expect(iso(currentOrNextOccurrenceStart(p, new Date('2026-03-09T18:00:00Z')))).toBe('2026-03-09T16:00:00.000Z'); // 09:00 PDT
  });

  it('live exactly when active and startAt <= now < endAt; the next occurrence is the one holding now, or the first (property)', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: FROM - 400 * DAY, max: TO + 400 * DAY }), fc.boolean(), (s, t, isActive) => {
        const now = new Date(t);
        const status = popupStatus({ ...s, isActive }, now);
        expect(status === 'live').toBe(isLive({ ...s, isActive }, now));
        if (!isActive) expect(status).toBe('inactive');
        const next = currentOrNextOccurrenceStart(s, now);
        if (now < s.startAt) expect(iso(next)).toBe(iso(s.startAt));
        else if (now >= s.endAt) expect(next).toBeNull();
        else expect(iso(next)).toBe(iso(occurrenceAt(s, now)!.start));
      }),
      { numRuns: 300 },
    );
  });
});
