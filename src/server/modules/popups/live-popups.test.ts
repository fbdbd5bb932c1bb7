import { describe, expect, it } from 'vitest';
import { asksFacts, forEmployer, forFacts, LivePopups, matchesFacts, toHeld } from './live-popups';
import { compareBest } from './schedule';
import type { PopupRow } from './popups.repository';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-02T12:00:00Z');
const EMPLOYER = '6f1d7a52-3c1e-4a8e-9d3b-2b7e4f0c9a11';
const OTHER_EMPLOYER = '0b7f8c4e-5d2a-4e61-8f3c-7a9d1e2b3c44';

let ids = 0;
function row(overrides: Partial<PopupRow> = {}): PopupRow {
  ids += 1;
  return {
    id: `00000000-0000-4000-8000-${String(ids).padStart(12, '0')}`,
    title: `Reminder ${ids}`,
    message: 'Something to do.',
    target: 'home',
    startAt: new Date(T0 - HOUR),
    endAt: new Date(T0 + 24 * HOUR),
    recurrence: 'NONE',
    interval: 1,
    timezone: 'UTC',
    theme: 'purple',
    maxSnoozes: 2,
    priority: 5,
    isActive: true,
    actionLabel: 'Take Vital Scan',
    actionTarget: null,
    audienceCompanyIds: [],
    audienceEnrolledOnly: false,
    audienceWithFamilyOnly: false,
    dailyCap: null,
    quietHoursStart: null,
    quietHoursEnd: null,
    createdAt: new Date(T0 - 24 * HOUR),
    updatedAt: new Date(T0 - 24 * HOUR),
    ...overrides,
  };
}

/** A load the test resolves by hand, counting the calls. */
function manualLoads() {
  const calls: { at: Date; resolve: (rows: PopupRow[]) => void }[] = [];
  const load = (at: Date) => new Promise<PopupRow[]>((resolve) => calls.push({ at, resolve }));
  return { load, calls };
}

/** A load that answers at once with what `rows` holds at the time of the call. */
function countedLoads(rows: { current: PopupRow[] }) {
  const counter = { n: 0 };
  const load = async () => {
    counter.n += 1;
    return [...rows.current];
  };
  return { load, counter };
}

const at = (ms: number) => new Date(T0 + ms);

/** A row in its held form. */
const held = (overrides: Partial<PopupRow> = {}) => toHeld(row(overrides));

describe('LivePopups', () => {
  it('serves one load for the TTL, then loads again; a clock set back loads again too', async () => {
    const rows = { current: [row()] };
    const { load, counter } = countedLoads(rows);
    const held = new LivePopups(load, { ttlMs: 5_000 });
    expect((await held.current(at(0))).map((r) => r.id)).toEqual([rows.current[0]!.id]);
    const first = rows.current[0]!.id;
    rows.current = [row()];
    expect((await held.current(at(4_999))).map((r) => r.id)).toEqual([first]);
    expect(counter.n).toBe(1);
    expect((await held.current(at(5_000))).map((r) => r.id)).toEqual([rows.current[0]!.id]);
    expect(counter.n).toBe(2);
    await held.current(at(-1));
    expect(counter.n).toBe(3);
  });

  it('hands out frozen rows, employer lists included: one array serves many requests', async () => {
    for (const ttlMs of [5_000, 0]) {
      const held = new LivePopups(async () => [row({ audienceCompanyIds: [EMPLOYER] })], { ttlMs });
      const rows = await held.current(at(0));
      expect(Object.isFrozen(rows)).toBe(true);
      expect(Object.isFrozen(rows[0])).toBe(true);
      expect(Object.isFrozen(rows[0]!.audienceCompanyIds)).toBe(true);
    }
  });

  it('drops what it holds when the popups change, or anything does; not for a session change', async () => {
    const rows = { current: [row()] };
    const { load, counter } = countedLoads(rows);
    const held = new LivePopups(load, { ttlMs: 5_000 });
    await held.current(at(0));
    held.invalidate({ sessionId: '8a5c2e1f-4b3d-4c6e-9f7a-1d2e3f4a5b6c' });
    held.invalidate({ userId: '8a5c2e1f-4b3d-4c6e-9f7a-1d2e3f4a5b6c' });
    await held.current(at(1));
    expect(counter.n).toBe(1);
    held.invalidate({ popups: true });
    await held.current(at(2));
    expect(counter.n).toBe(2);
    held.invalidate({ all: true });
    await held.current(at(3));
    expect(counter.n).toBe(3);
  });

  it('callers share a load in flight', async () => {
    const { load, calls } = manualLoads();
    const held = new LivePopups(load, { ttlMs: 5_000 });
    const first = held.current(at(0));
    const second = held.current(at(10));
    expect(calls).toHaveLength(1);
    const loaded = [row()];
    calls[0]!.resolve(loaded);
    expect((await first).map((r) => r.id)).toEqual([loaded[0]!.id]);
    expect(await second).toBe(await first);
  });

  it('does not keep a load that read the database before a change was announced', async () => {
    const { load, calls } = manualLoads();
    const held = new LivePopups(load, { ttlMs: 5_000 });
    const stale = held.current(at(0));
    held.invalidate({ popups: true });
    // A call after the announcement does not wait for the older load: it starts its own.
    const fresh = held.current(at(1));
    expect(calls).toHaveLength(2);
    calls[0]!.resolve([row({ title: 'Before the change' })]);
    calls[1]!.resolve([row({ title: 'After the change' })]);
    expect((await stale)[0]!.title).toBe('Before the change');
    expect((await fresh)[0]!.title).toBe('After the change');
    // What is held is the load that started after the change.
    expect((await held.current(at(2)))[0]!.title).toBe('After the change');
    expect(calls).toHaveLength(2);
  });

  it('keeps the load that began after a change even when the older one finishes last', async () => {
    const { load, calls } = manualLoads();
    const held = new LivePopups(load, { ttlMs: 5_000 });
    const stale = held.current(at(0));
    held.invalidate({ popups: true });
    const fresh = held.current(at(1));
    calls[1]!.resolve([row({ title: 'After the change' })]);
    await fresh;
    calls[0]!.resolve([row({ title: 'Before the change' })]);
    await stale;
    expect((await held.current(at(2)))[0]!.title).toBe('After the change');
    expect(calls).toHaveLength(2);
  });

  it('does not hand a failed load to later callers', async () => {
    let n = 0;
    const held = new LivePopups(async () => {
      n += 1;
      if (n === 1) throw new Error('database unavailable');
      return [row()];
    }, { ttlMs: 5_000 });
    await expect(held.current(at(0))).rejects.toThrow('database unavailable');
    expect(await held.current(at(1))).toHaveLength(1);
    expect(n).toBe(2);
  });

  it('does not share a load in flight with a call from before it (a clock set back)', async () => {
    const { load, calls } = manualLoads();
    const held = new LivePopups(load, { ttlMs: 5_000 });
    void held.current(at(10));
    void held.current(at(5));
    expect(calls.map((c) => c.at)).toEqual([at(10), at(5)]);
    for (const c of calls) c.resolve([]);
  });

  it('while the channel between instances is down, every call loads and nothing is kept', async () => {
    const rows = { current: [row()] };
    const { load, counter } = countedLoads(rows);
    const held = new LivePopups(load, { ttlMs: 5_000 });
    held.setLive(false);
    expect(held.enabled).toBe(false);
    await held.current(at(0));
    await held.current(at(1));
    expect(counter.n).toBe(2);
    held.setLive(true);
    await held.current(at(2));
    await held.current(at(3));
    expect(counter.n).toBe(3);
  });

  it('with a TTL of 0, every call loads', async () => {
    const rows = { current: [row()] };
    const { load, counter } = countedLoads(rows);
    const held = new LivePopups(load, { ttlMs: 0 });
    await held.current(at(0));
    await held.current(at(0));
    expect(counter.n).toBe(2);
  });

  it('passes the time of the call to the load', async () => {
    const { load, calls } = manualLoads();
    const held = new LivePopups(load, { ttlMs: 5_000 });
    void held.current(at(42));
    expect(calls[0]!.at).toEqual(at(42));
    calls[0]!.resolve([]);
  });
});

describe('forEmployer and forFacts', () => {
  it('keep the popups for the target whose employer list is empty or holds the member’s, in their order; liveness is left to delivery', () => {
    const everyone = held({ priority: 9 });
    const listed = held({ audienceCompanyIds: [OTHER_EMPLOYER, EMPLOYER] });
    const otherOnly = held({ audienceCompanyIds: [OTHER_EMPLOYER] });
    const scheduled = held({ startAt: at(1) });
    const otherScreen = held({ target: 'health' });
    const rows = [everyone, listed, otherOnly, scheduled, otherScreen];
    expect(forEmployer(rows, EMPLOYER, 'home').rows.map((r) => r.id)).toEqual([everyone.id, listed.id, scheduled.id]);
    expect(forEmployer(rows, EMPLOYER, null).rows.map((r) => r.id)).toEqual([everyone.id, listed.id, scheduled.id, otherScreen.id]);
    // Employer ids are compared as UUIDs are: whatever the case of the member's.
    expect(forEmployer([listed], EMPLOYER.toUpperCase(), 'home').rows).toEqual([listed]);
    expect(forEmployer(rows, OTHER_EMPLOYER, 'home').rows.map((r) => r.id)).toEqual([everyone.id, listed.id, otherOnly.id, scheduled.id]);
    expect(forEmployer(rows, EMPLOYER, 'home').askingFacts).toEqual([]);
  });

  it('name the popups whose audience asks about enrolment or family, and forFacts keeps those whose parts hold the member', () => {
    const everyone = held();
    const enrolledOnly = held({ audienceEnrolledOnly: true });
    const familyOnly = held({ audienceWithFamilyOnly: true, audienceCompanyIds: [OTHER_EMPLOYER] });
    const rows = [everyone, enrolledOnly, familyOnly];
    expect(forEmployer(rows, EMPLOYER, 'home')).toEqual({ rows: [everyone, enrolledOnly], askingFacts: [enrolledOnly] });
    expect(forEmployer(rows, OTHER_EMPLOYER, 'home').askingFacts).toEqual([enrolledOnly, familyOnly]);
    expect(forEmployer([everyone, familyOnly], EMPLOYER, 'home').askingFacts).toEqual([]);
    expect(forFacts(rows, { enrolled: true, withFamily: false })).toEqual([everyone, enrolledOnly]);
    expect(forFacts(rows, { enrolled: false, withFamily: true })).toEqual([everyone, familyOnly]);
  });

  it('answer the same from a held (frozen) array, asked again and for other employers, targets and facts', () => {
    const unfrozen = [
      held({ priority: 9 }),
      held({ audienceCompanyIds: [EMPLOYER] }),
      held({ audienceCompanyIds: [OTHER_EMPLOYER], audienceEnrolledOnly: true }),
      held({ startAt: at(1), audienceWithFamilyOnly: true }),
      held({ target: 'health', audienceCompanyIds: [OTHER_EMPLOYER] }),
    ];
    const frozen = Object.freeze([...unfrozen]);
    for (const [companyId, target] of [
      [EMPLOYER, 'home'],
      [EMPLOYER, 'home'],
      [EMPLOYER.toUpperCase(), 'home'],
      [OTHER_EMPLOYER, 'home'],
      [OTHER_EMPLOYER, null],
      [OTHER_EMPLOYER, 'health'],
      [EMPLOYER, null],
    ] as const) {
      const kept = forEmployer(frozen, companyId, target);
      expect(kept).toEqual(forEmployer(unfrozen, companyId, target));
      for (const enrolled of [false, true]) {
        for (const withFamily of [false, true]) {
          expect(forFacts(kept.rows, { enrolled, withFamily })).toEqual(forFacts([...kept.rows], { enrolled, withFamily }));
        }
      }
    }
  });
});

describe('the held form', () => {
  it('holds the loaded rows in delivery’s order (compareBest), with their quiet hours as one value, frozen', async () => {
    const low = row({ priority: 1 });
    const high = row({ priority: 9, quietHoursStart: '22:00', quietHoursEnd: '07:00' });
    // The same priority and end, created a microsecond apart in the database: the same millisecond here, so the id decides.
    const tieB = row({ id: '00000000-0000-4000-8000-00000000000b', priority: 5 });
    const tieA = row({ id: '00000000-0000-4000-8000-00000000000a', priority: 5 });
    const live = new LivePopups(async () => [low, tieB, high, tieA], { ttlMs: 1_000 });
    const rows = await live.current(at(0));
    expect(rows.map((r) => r.id)).toEqual([high.id, tieA.id, tieB.id, low.id]);
    expect([...rows].sort(compareBest)).toEqual(rows);
    expect(rows[0]!.quietHours).toEqual({ start: '22:00', end: '07:00' });
    expect(rows[3]!.quietHours).toBeNull();
    expect(Object.isFrozen(rows) && rows.every((r) => Object.isFrozen(r) && Object.isFrozen(r.audienceCompanyIds))).toBe(true);
  });
});

describe('the enrolled / with-family parts of an audience', () => {
  it('are asked about only when some popup has them, and hold a member exactly when every part asked for is true', () => {
    const plain = held();
    const enrolledOnly = held({ audienceEnrolledOnly: true });
    const familyOnly = held({ audienceWithFamilyOnly: true });
    const both = held({ audienceEnrolledOnly: true, audienceWithFamilyOnly: true });
    expect([plain, enrolledOnly, familyOnly, both].map(asksFacts)).toEqual([false, true, true, true]);
    for (const enrolled of [false, true]) {
      for (const withFamily of [false, true]) {
        const facts = { enrolled, withFamily };
        expect(matchesFacts(plain, facts)).toBe(true);
        expect(matchesFacts(enrolledOnly, facts)).toBe(enrolled);
        expect(matchesFacts(familyOnly, facts)).toBe(withFamily);
        expect(matchesFacts(both, facts)).toBe(enrolled && withFamily);
      }
    }
  });
});
