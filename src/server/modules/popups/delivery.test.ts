import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  capAllows,
  decide,
  type DeliverablePopup,
  type DeliveryContext,
  inQuietHours,
  knownZone,
  localDate,
  localTime,
  memberZone,
  minuteOfDay,
  type NewShow,
  pickDeliverable,
  popupsShownToday,
  type QuietHours,
  SHOWS_NEEDED,
} from './delivery';
import { compareBest, evaluatePopup, offsetAt, type PopupUserState } from './schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LA = 'America/Los_Angeles';

/** Zones with awkward rules: half- and quarter-hour offsets, 30-minute DST, southern DST, the date line. */
const ZONES = [
  'UTC',
  LA,
  'Europe/London',
  'America/St_Johns',
  'America/Santiago',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Pacific/Apia',
] as const;

const FROM = Date.parse('2010-01-01T00:00:00Z');
const TO = Date.parse('2040-01-01T00:00:00Z');
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const quietArb: fc.Arbitrary<QuietHours> = fc
  .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }))
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => ({ start: hhmm(a), end: hhmm(b) }));

/** The wall clock by arithmetic on the zone's offset, independent of the formatter localTime uses. */
function localMinuteByOffset(t: number, zone: string): number {
  const local = t + offsetAt(t, zone);
  return Math.floor((((local % DAY) + DAY) % DAY) / MINUTE);
}

describe('local time and date in the member zone', () => {
  it.each([
    // Same instant, different days either side of the date line.
    ['2026-03-02T12:00:00Z', 'Pacific/Kiritimati', '2026-03-03', '02:00'],
    ['2026-03-02T12:00:00Z', 'Pacific/Pago_Pago', '2026-03-02', '01:00'],
    ['2026-03-02T12:00:00Z', 'Asia/Kolkata', '2026-03-02', '17:30'],
    ['2026-03-02T12:00:00Z', 'Asia/Kathmandu', '2026-03-02', '17:45'],
    ['2026-03-02T12:00:00Z', 'Pacific/Chatham', '2026-03-03', '01:45'],
    ['2026-03-02T07:59:00Z', LA, '2026-03-01', '23:59'],
    ['2026-03-02T08:00:00Z', LA, '2026-03-02', '00:00'],
    // Los Angeles springs forward 2026-03-08 02:00 -> 03:00 and falls back 2026-11-01 02:00 -> 01:00.
    ['2026-03-08T09:59:00Z', LA, '2026-03-08', '01:59'],
    ['2026-03-08T10:00:00Z', LA, '2026-03-08', '03:00'],
    ['2026-11-01T08:30:00Z', LA, '2026-11-01', '01:30'],
    ['2026-11-01T09:30:00Z', LA, '2026-11-01', '01:30'],
    // Lord Howe moves by 30 minutes (2026-04-05 02:00 -> 01:30).
    ['2026-04-04T14:59:00Z', 'Australia/Lord_Howe', '2026-04-05', '01:59'],
    ['2026-04-04T15:00:00Z', 'Australia/Lord_Howe', '2026-04-05', '01:30'],
    // Samoa skipped 30 December 2011.
    ['2011-12-30T09:59:59Z', 'Pacific/Apia', '2011-12-29', '23:59'],
    ['2011-12-30T10:00:00Z', 'Pacific/Apia', '2011-12-31', '00:00'],
  ])('%s in %s is %s %s', (instant, zone, date, time) => {
    expect(localDate(new Date(instant), zone)).toBe(date);
    expect(localTime(new Date(instant), zone)).toBe(time);
  });

  it('agrees with the zone offset arithmetic at any instant (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: FROM, max: TO }), fc.constantFrom(...ZONES), (t, zone) => {
        const local = new Date(t + offsetAt(t, zone));
        expect(localDate(new Date(t), zone)).toBe(local.toISOString().slice(0, 10));
        expect(minuteOfDay(localTime(new Date(t), zone))).toBe(localMinuteByOffset(t, zone));
      }),
      { numRuns: 400 },
    );
  });

  it('uses the browser zone only when it is a real IANA zone', () => {
    expect(memberZone('Asia/Kolkata', LA)).toBe('Asia/Kolkata');
    for (const bad of [null, undefined, '', 'Mars/Olympus', '+05:00', 'x'.repeat(200), 'Europe/../etc']) {
      expect(memberZone(bad, LA)).toBe(LA);
      expect(knownZone(bad)).toBeNull();
    }
  });

  it('checks a zone once and remembers the answer, right past the bound on names remembered too', () => {
    const formats = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      for (let round = 0; round < 3; round += 1) {
        expect(knownZone('America/Bogota')).toBe('America/Bogota');
        expect(knownZone('Mars/Hellas')).toBeNull();
      }
      // One check each (Intl is asked on the first round only).
      expect(formats.mock.calls.filter(([, options]) => ['America/Bogota', 'Mars/Hellas'].includes(String(options?.timeZone)))).toHaveLength(2);
    } finally {
      formats.mockRestore();
    }
    for (let i = 0; i < 1_500; i += 1) expect(knownZone(`Made/Up_${i}`)).toBeNull();
    expect(knownZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(knownZone('Mars/Olympus')).toBeNull();
  });
});

describe('quiet hours', () => {
  it.each([
    // [local instant, zone, quiet hours, quiet?]
    ['2026-03-02T06:00:00Z', 'UTC', '22:00-07:00', true],
    ['2026-03-02T07:00:00Z', 'UTC', '22:00-07:00', false],
    ['2026-03-02T21:59:00Z', 'UTC', '22:00-07:00', false],
    ['2026-03-02T22:00:00Z', 'UTC', '22:00-07:00', true],
    ['2026-03-02T23:59:59Z', 'UTC', '22:00-07:00', true],
    ['2026-03-02T12:30:00Z', 'UTC', '12:00-13:00', true],
    ['2026-03-02T13:00:00Z', 'UTC', '12:00-13:00', false],
    // 06:00 UTC is 22:00 the evening before in Los Angeles (UTC-8), 11:30 in Kolkata.
    ['2026-03-02T06:00:00Z', LA, '22:00-07:00', true],
    ['2026-03-02T06:00:00Z', 'Asia/Kolkata', '22:00-07:00', false],
    // Spring forward in Los Angeles: 02:00-03:00 does not exist that night, so it is never quiet.
    ['2026-03-08T09:59:00Z', LA, '02:00-03:00', false],
    ['2026-03-08T10:00:00Z', LA, '02:00-03:00', false],
    ['2026-03-08T10:00:00Z', LA, '01:00-03:30', true],
    // Fall back: 01:00-02:00 happens twice, and both are quiet.
    ['2026-11-01T08:30:00Z', LA, '01:00-02:00', true],
    ['2026-11-01T09:30:00Z', LA, '01:00-02:00', true],
    ['2026-11-01T10:00:00Z', LA, '01:00-02:00', false],
    // Half-hour zone, window ending on the half hour.
    ['2026-03-02T01:29:00Z', 'Asia/Kolkata', '22:00-07:00', true],
    ['2026-03-02T01:30:00Z', 'Asia/Kolkata', '22:00-07:00', false],
  ])('%s in %s with %s: quiet %s', (instant, zone, window, quiet) => {
    const [start, end] = window.split('-') as [string, string];
    expect(inQuietHours(new Date(instant), zone, { start, end })).toBe(quiet);
  });

  it('is the wall-clock minute in [start, end), wrapping past midnight (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: FROM, max: TO }), fc.constantFrom(...ZONES), quietArb, (t, zone, q) => {
        const m = localMinuteByOffset(t, zone);
        const s = minuteOfDay(q.start);
        const e = minuteOfDay(q.end);
        const expected = s < e ? s <= m && m < e : m >= s || m < e;
        expect(inQuietHours(new Date(t), zone, q)).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('decide reads the minute held for the zone until that minute has passed: right at every instant, across changes of offset (property)', () => {
    // Instants anywhere, and two minutes before changes of offset in the zones above.
    const transitions = ['2026-03-08T10:00:00Z', '2026-11-01T09:00:00Z', '2026-03-29T01:00:00Z', '2026-04-04T15:00:00Z', '2026-04-04T14:00:00Z', '2026-04-05T03:00:00Z'];
    const startArb = fc.oneof(fc.integer({ min: FROM, max: TO }), fc.constantFrom(...transitions.map((at) => Date.parse(at) - 2 * MINUTE)));
    fc.assert(
      fc.property(startArb, fc.constantFrom(...ZONES), fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 40 }), (start, zone, steps) => {
        let t = start;
        for (const step of steps) {
          t += step;
          const m = localMinuteByOffset(t, zone);
          const ctx = { signedInAt: new Date(FROM), now: new Date(t), sessionZone: zone, programme: { dailyCap: null, quietHours: null }, newShows: [] };
          const thisMinute = simPopup(1, { startAt: new Date(t - DAY), endAt: new Date(t + DAY), quietHours: { start: hhmm(m), end: hhmm((m + 1) % 1440) } });
          const nextMinute = { ...thisMinute, quietHours: { start: hhmm((m + 1) % 1440), end: hhmm((m + 2) % 1440) } };
          expect(decide(thisMinute, null, ctx).refusal).toBe('quiet_hours');
          expect(decide(nextMinute, null, ctx).show).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a window and its reverse split the day: exactly one of them holds at any instant (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: FROM, max: TO }), fc.constantFrom(...ZONES), quietArb, (t, zone, q) => {
        expect(inQuietHours(new Date(t), zone, q)).not.toBe(inQuietHours(new Date(t), zone, { start: q.end, end: q.start }));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the daily cap', () => {
  const show = (popupId: string, at: string): NewShow => ({ popupId, at: new Date(at) });

  it('counts different popups first shown on the local day of now', () => {
    const shows = [show('a', '2026-03-02T08:30:00Z'), show('b', '2026-03-02T20:00:00Z'), show('a', '2026-03-02T21:00:00Z'), show('c', '2026-03-02T07:00:00Z')];
    // Los Angeles: 08:30Z is 00:30 on 2 March, 07:00Z is 23:00 on 1 March.
    expect([...popupsShownToday(shows, new Date('2026-03-02T22:00:00Z'), LA)].sort()).toEqual(['a', 'b']);
    // UTC: all four are on 2 March.
    expect([...popupsShownToday(shows, new Date('2026-03-02T22:00:00Z'), 'UTC')].sort()).toEqual(['a', 'b', 'c']);
  });

  it.each([
    // DST days are 23 and 25 hours long; the first and last minute of each belong to it.
    ['spring forward (23 h)', '2026-03-08T08:00:00Z', '2026-03-09T06:59:00Z', '2026-03-09T07:00:00Z'],
    ['fall back (25 h)', '2026-11-01T07:00:00Z', '2026-11-02T07:59:00Z', '2026-11-02T08:00:00Z'],
  ])('a Los Angeles %s day holds its first and last minute and not the next day', (_what, first, last, nextDay) => {
    const shows = [show('a', first)];
    expect(popupsShownToday(shows, new Date(last), LA).has('a')).toBe(true);
    expect(popupsShownToday(shows, new Date(nextDay), LA).has('a')).toBe(false);
    expect(popupsShownToday(shows, new Date(new Date(first).getTime() - 1), LA).has('a')).toBe(false);
  });

  it('allows a popup while fewer than the cap are counted today, or when it is one of them', () => {
    const now = new Date('2026-03-02T12:00:00Z');
    const shows = [show('a', '2026-03-02T09:00:00Z'), show('b', '2026-03-02T10:00:00Z')];
    expect(capAllows('c', 3, shows, now, 'UTC')).toBe(true);
    expect(capAllows('c', 2, shows, now, 'UTC')).toBe(false);
    // An hourly popup's next occurrence is the same popup: no new place taken.
    expect(capAllows('a', 2, shows, now, 'UTC')).toBe(true);
    expect(capAllows('a', 1, shows, now, 'UTC')).toBe(true);
  });
});

interface SimPopup extends DeliverablePopup {
  id: string;
}

const T0 = Date.parse('2026-03-06T12:00:00Z');

function simPopup(i: number, overrides: Partial<SimPopup> = {}): SimPopup {
  return {
    id: `p${String(i).padStart(2, '0')}`,
    startAt: new Date(T0 - DAY),
    endAt: new Date(T0 + 30 * DAY),
    recurrence: 'NONE',
    interval: 1,
    timezone: LA,
    isActive: true,
    maxSnoozes: 3,
    priority: 5,
    createdAt: new Date(T0 - 2 * DAY),
    dailyCap: null,
    quietHours: null,
    ...overrides,
  };
}

/**
 * A member's popups over days, driven by random actions, with the same bookkeeping the
 * server keeps (a state per popup, a first-show list per day). Checks every answer.
 */
describe('delivery over many sign-ins (property)', () => {
  type Action = { kind: 'next' } | { kind: 'snooze' } | { kind: 'complete' } | { kind: 'signIn' } | { kind: 'wait'; ms: number };
  const actionArb: fc.Arbitrary<Action> = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Action>({ kind: 'next' }) },
    { weight: 2, arbitrary: fc.constant<Action>({ kind: 'snooze' }) },
    { weight: 1, arbitrary: fc.constant<Action>({ kind: 'complete' }) },
    { weight: 3, arbitrary: fc.constant<Action>({ kind: 'signIn' }) },
    { weight: 3, arbitrary: fc.integer({ min: MINUTE, max: 9 * HOUR }).map((ms): Action => ({ kind: 'wait', ms })) },
  );
  const popupsArb = fc.array(
    fc.record({
      priority: fc.integer({ min: 1, max: 10 }),
      recurrence: fc.constantFrom('NONE' as const, 'HOURLY' as const, 'DAILY' as const),
      interval: fc.integer({ min: 1, max: 6 }),
      timezone: fc.constantFrom(...ZONES),
      ownCap: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      ownQuiet: fc.option(quietArb, { nil: null }),
    }),
    { minLength: 1, maxLength: 8 },
  );

  it('never shows more different new popups a local day than the cap allows, never caps a popup coming back, never shows in quiet hours', () => {
    fc.assert(
      fc.property(
        popupsArb,
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
        fc.option(quietArb, { nil: null }),
        fc.option(fc.constantFrom(...ZONES), { nil: null }),
        fc.array(actionArb, { minLength: 5, maxLength: 60 }),
        (specs, programmeCap, programmeQuiet, sessionZone, actions) => {
          const popups = specs.map((s, i) =>
            simPopup(i, { priority: s.priority, recurrence: s.recurrence, interval: s.interval, timezone: s.timezone, dailyCap: s.ownCap, quietHours: s.ownQuiet }),
          );
          const bestFirst = [...popups].sort(compareBest);
          const states = new Map<string, PopupUserState>();
          const newShows: NewShow[] = [];
          let now = T0;
          let signedInAt = T0;
          let shown: SimPopup | null = null;
          for (const action of actions) {
            const ctx = { signedInAt: new Date(signedInAt), now: new Date(now), sessionZone, programme: { dailyCap: programmeCap, quietHours: programmeQuiet }, newShows } satisfies DeliveryContext;
            if (action.kind === 'wait') now += action.ms;
            else if (action.kind === 'signIn') signedInAt = now;
            else if (action.kind === 'next') {
              const stateOf = (p: SimPopup) => states.get(p.id) ?? null;
              const picked = pickDeliverable(bestFirst, stateOf, ctx);
              // The pick is the best of the popups every rule lets through.
              const allowed = popups.filter((p) => decide(p, stateOf(p), ctx).show).sort(compareBest);
              expect(picked?.popup.id ?? null).toBe(allowed[0]?.id ?? null);
              // Without the shows loaded: a request for them exactly when the walk reaches a popup a cap must count
              // (allowed or refused by it) before the pick, or at it; else the same pick.
              const decided = bestFirst.map((p) => decide(p, stateOf(p), ctx));
              const firstCounted = decided.findIndex((d) => d.capChecked !== null || d.refusal === 'daily_cap');
              const pickedAt = decided.findIndex((d) => d.show);
              const unloaded = pickDeliverable(bestFirst, stateOf, { ...ctx, newShows: null });
              if (firstCounted !== -1 && (pickedAt === -1 || firstCounted <= pickedAt)) expect(unloaded).toBe(SHOWS_NEEDED);
              else expect(unloaded).toEqual(picked);
              shown = picked?.popup ?? null;
              if (!picked) continue;
              const { delivery } = picked;
              const zone = memberZone(sessionZone, picked.popup.timezone);
              const quiet = picked.popup.quietHours ?? programmeQuiet;
              expect(quiet === null || !inQuietHours(new Date(now), zone, quiet)).toBe(true);
              const cap = picked.popup.dailyCap ?? programmeCap;
              const occurrence = delivery.verdict.occurrence!;
              if (!delivery.shownInOccurrence) {
                if (cap !== null) {
                  const today = popupsShownToday(newShows, new Date(now), zone);
                  expect(today.has(picked.popup.id) || today.size < cap).toBe(true);
                }
                newShows.push({ popupId: picked.popup.id, at: new Date(now) });
              } else {
                expect(delivery.capChecked).toBeNull();
              }
              states.set(picked.popup.id, { ...delivery.verdict.state, occurrenceStart: occurrence.start, lastShownAt: new Date(now) });
            } else if (shown) {
              const verdict = evaluatePopup(shown, states.get(shown.id) ?? null, new Date(signedInAt), new Date(now));
              if (!verdict.live || !verdict.occurrence) continue;
              const state = verdict.state;
              if (action.kind === 'snooze' && state.snoozeCount < shown.maxSnoozes) {
                states.set(shown.id, { ...state, occurrenceStart: verdict.occurrence.start, snoozeCount: state.snoozeCount + 1, lastSnoozedAt: new Date(now) });
              }
              if (action.kind === 'complete') states.set(shown.id, { ...state, occurrenceStart: verdict.occurrence.start, completedAt: new Date(now) });
              shown = null;
            }
          }
          // With no popup of its own cap, no local day (in a fixed member zone) ever holds more than the programme's cap.
          if (programmeCap !== null && sessionZone !== null && popups.every((p) => p.dailyCap === null)) {
            const perDay = new Map<string, Set<string>>();
            for (const s of newShows) {
              const day = localDate(s.at, sessionZone);
              perDay.set(day, (perDay.get(day) ?? new Set()).add(s.popupId));
            }
            for (const set of perDay.values()) expect(set.size).toBeLessThanOrEqual(programmeCap);
          }
        },
      ),
      { numRuns: 120 },
    );
  }, 60_000);

  it('with nothing configured, delivery is the scheduler alone (the spec flow is unchanged)', () => {
    fc.assert(
      fc.property(popupsArb, fc.option(fc.constantFrom(...ZONES), { nil: null }), fc.integer({ min: 0, max: 3 * DAY }), (specs, sessionZone, later) => {
        const popups = specs.map((s, i) => simPopup(i, { priority: s.priority, recurrence: s.recurrence, interval: s.interval, timezone: s.timezone }));
        const now = new Date(T0 + later);
        const ctx: DeliveryContext = { signedInAt: new Date(T0), now, sessionZone, programme: { dailyCap: null, quietHours: null }, newShows: null };
        for (const p of popups) {
          expect(decide(p, null, ctx).show).toBe(evaluatePopup(p, null, new Date(T0), now).shouldShow);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the order of the rules', () => {
  const now = new Date('2026-03-06T12:00:00Z'); // 04:00 in Los Angeles
  const base = (over: Partial<DeliveryContext> = {}): DeliveryContext => ({
    signedInAt: new Date(now.getTime() - HOUR),
    now,
    sessionZone: LA,
    programme: { dailyCap: null, quietHours: null },
    newShows: [],
    ...over,
  });

  it('quiet hours come before the cap, and the cap before priority', () => {
    const top = simPopup(1, { priority: 9 });
    const second = simPopup(2, { priority: 5 });
    const quiet = base({ programme: { dailyCap: 1, quietHours: { start: '22:00', end: '07:00' } } });
    expect(decide(top, null, quiet).refusal).toBe('quiet_hours');
    const capped = { ...base({ programme: { dailyCap: 1, quietHours: null } }), newShows: [{ popupId: 'other', at: new Date(now.getTime() - HOUR) }] };
    expect(decide(top, null, capped).refusal).toBe('daily_cap');
    // The best popup is capped but the second has its own, higher cap: the second is shown.
    const roomier = { ...second, dailyCap: 2 };
    expect(pickDeliverable([top, roomier], () => null, capped)?.popup.id).toBe(roomier.id);
  });

  it('walks the popups, best first as given, only until one passes; one in its quiet hours is passed over unread', () => {
    const [a, b, c, d] = [simPopup(1, { priority: 9, quietHours: { start: '03:00', end: '05:00' } }), simPopup(2, { priority: 7 }), simPopup(3, { priority: 5 }), simPopup(4, { priority: 1 })];
    const stateOf = vi.fn((p: SimPopup): PopupUserState | null => (p === b ? { occurrenceStart: b.startAt, snoozeCount: 0, lastSnoozedAt: null, completedAt: now, lastShownAt: now } : null));
    expect(pickDeliverable([a, b, c, d], stateOf, { ...base(), newShows: [] })?.popup.id).toBe(c.id);
    expect(stateOf.mock.calls.map(([p]) => p.id)).toEqual([b.id, c.id]);
  });

  it('asks for the member shows only when a cap must count them', () => {
    const top = simPopup(1, { priority: 9 });
    const second = simPopup(2, { priority: 5 });
    const unloaded = base({ programme: { dailyCap: 1, quietHours: null }, newShows: null });
    expect(pickDeliverable([top, second], () => null, unloaded)).toBe(SHOWS_NEEDED);
    // The best was shown in its occurrence already (the member asking again): no cap counts it.
    const shown: PopupUserState = { occurrenceStart: top.startAt, snoozeCount: 0, lastSnoozedAt: null, completedAt: null, lastShownAt: new Date(now.getTime() - MINUTE) };
    const shownTop = (p: SimPopup) => (p === top ? shown : null);
    expect(pickDeliverable([top, second], shownTop, unloaded)).toMatchObject({ popup: { id: top.id }, delivery: { show: true, capChecked: null } });
    // The best is in quiet hours, the second has no cap of its own and the programme none: no shows needed.
    const quietTop = simPopup(1, { priority: 9, quietHours: { start: '03:00', end: '05:00' } });
    const noCap = base({ newShows: null });
    expect(pickDeliverable([quietTop, second], () => null, noCap)).toMatchObject({ popup: { id: second.id } });
    expect(pickDeliverable([quietTop, { ...second, dailyCap: 3 }], () => null, noCap)).toBe(SHOWS_NEEDED);
  });

  it('a popup coming back after a snooze passes the cap but not quiet hours', () => {
    const p = simPopup(1);
    const shownBefore: PopupUserState = { occurrenceStart: p.startAt, snoozeCount: 1, lastSnoozedAt: new Date(now.getTime() - 2 * HOUR), completedAt: null, lastShownAt: new Date(now.getTime() - 2 * HOUR) };
    const full = base({ programme: { dailyCap: 1, quietHours: null }, newShows: [{ popupId: 'other', at: new Date(now.getTime() - HOUR) }] });
    expect(decide(p, shownBefore, full)).toMatchObject({ show: true, shownInOccurrence: true, capChecked: null });
    const quiet = base({ programme: { dailyCap: 1, quietHours: { start: '03:00', end: '05:00' } } });
    expect(decide(p, shownBefore, quiet).refusal).toBe('quiet_hours');
    // Snoozed in this very sign-in: the state rule refuses before quiet hours are looked at.
    const snoozedNow = { ...shownBefore, lastSnoozedAt: new Date(now.getTime() - MINUTE) };
    expect(decide(p, snoozedNow, quiet).refusal).toBe('not_showable');
  });

  it('a popup whose own setting is null follows the programme; its own setting wins', () => {
    const own = simPopup(1, { quietHours: { start: '05:00', end: '06:00' } });
    const ctx = base({ programme: { dailyCap: null, quietHours: { start: '03:00', end: '05:00' } } });
    expect(decide(own, null, ctx).show).toBe(true);
    expect(decide(simPopup(2), null, ctx).refusal).toBe('quiet_hours');
  });

  it('without the browser zone, quiet hours and the day follow the popup zone', () => {
    const kolkata = simPopup(1, { timezone: 'Asia/Kolkata' }); // 17:30 there
    const ctx = base({ sessionZone: null, programme: { dailyCap: null, quietHours: { start: '17:00', end: '18:00' } } });
    expect(decide(kolkata, null, ctx).refusal).toBe('quiet_hours');
    expect(decide(simPopup(2), null, ctx).show).toBe(true);
    expect(decide(kolkata, null, { ...ctx, sessionZone: 'Mars/Olympus' }).refusal).toBe('quiet_hours');
  });

  it('refuses to decide a capped popup without the member shows', () => {
    expect(() => decide(simPopup(1, { dailyCap: 2 }), null, base({ newShows: null }))).toThrow();
  });
});
