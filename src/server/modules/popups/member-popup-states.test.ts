import { describe, expect, it } from 'vitest';
import { MemberPopupStates, type MemberStatesLoaders } from './member-popup-states';
import type { MemberPopupState } from './popups.repository';

const T0 = Date.parse('2026-03-02T12:00:00Z');
const MEMBER = '6f1d7a52-3c1e-4a8e-9d3b-2b7e4f0c9a11';
const OTHER = '0b7f8c4e-5d2a-4e61-8f3c-7a9d1e2b3c44';
const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';

const at = (ms: number) => new Date(T0 + ms);
const state = (snoozeCount: number): MemberPopupState => ({
  occurrenceStart: new Date(T0 - 3_600_000),
  snoozeCount,
  lastSnoozedAt: snoozeCount > 0 ? new Date(T0 - 60_000) : null,
  completedAt: null,
  lastShownAt: null,
  shownSessionId: null,
});

/** The stored states (member -> popup -> state), read as the repository would; every read is recorded. */
function store(initial: Record<string, Record<string, MemberPopupState>> = {}) {
  const rows = new Map(Object.entries(initial).map(([user, states]) => [user, new Map(Object.entries(states))]));
  const reads: { userId: string; popupIds: readonly string[] | 'all' }[] = [];
  const mine = (userId: string) => rows.get(userId) ?? new Map<string, MemberPopupState>();
  const load: MemberStatesLoaders = {
    all: async (userId) => {
      reads.push({ userId, popupIds: 'all' });
      return new Map([...mine(userId)].map(([id, s]) => [id, { ...s }]));
    },
    of: async (userId, popupIds) => {
      reads.push({ userId, popupIds });
      return new Map(popupIds.flatMap((id) => (mine(userId).has(id) ? [[id, { ...mine(userId).get(id)! }] as const] : [])));
    },
  };
  const write = (userId: string, popupId: string, value: MemberPopupState) => {
    if (!rows.has(userId)) rows.set(userId, new Map());
    rows.get(userId)!.set(popupId, value);
  };
  return { load, reads, write };
}

describe('MemberPopupStates', () => {
  it('reads all of a member’s states once, then serves any popup’s from memory for the TTL', async () => {
    const db = store({ [MEMBER]: { [P1]: state(1) } });
    const cache = new MemberPopupStates(db.load, { ttlMs: 5000, max: 100 });
    expect((await cache.read(MEMBER, [P1], at(0))).get(P1)?.snoozeCount).toBe(1);
    expect(db.reads).toEqual([{ userId: MEMBER, popupIds: 'all' }]);
    // Another screen's popup (none stored), within the TTL: no read.
    const second = await cache.read(MEMBER, [P2], at(4999));
    expect(second.get(P2)).toBeUndefined();
    expect(db.reads).toHaveLength(1);
    // Past the TTL, and with the clock set back: read again.
    await cache.read(MEMBER, [P1], at(5000));
    await cache.read(MEMBER, [P1], at(4000));
    expect(db.reads).toHaveLength(3);
  });

  it('holds each member apart, drops one member’s states when theirs or their account change, and all when the popups do', async () => {
    const db = store({ [MEMBER]: { [P1]: state(0) }, [OTHER]: { [P1]: state(1) } });
    const cache = new MemberPopupStates(db.load, { ttlMs: 5000, max: 100 });
    await cache.read(MEMBER, [P1], at(0));
    expect((await cache.read(OTHER, [P1], at(0))).get(P1)?.snoozeCount).toBe(1);
    db.write(MEMBER, P1, state(1));
    cache.invalidate({ popupStates: MEMBER });
    expect(cache.holds(MEMBER)).toBe(false);
    expect(cache.holds(OTHER)).toBe(true);
    expect((await cache.read(MEMBER, [P1], at(1))).get(P1)?.snoozeCount).toBe(1);
    cache.invalidate({ userId: OTHER });
    expect(cache.holds(OTHER)).toBe(false);
    // Neither a session's change nor another copy's touches the states.
    cache.invalidate({ sessionId: P2 });
    cache.invalidate({ family: MEMBER });
    expect(cache.holds(MEMBER)).toBe(true);
    cache.invalidate({ popups: true });
    expect(cache.holds(MEMBER)).toBe(false);
  });

  it('does not keep a read that began before a change was announced', async () => {
    const db = store({ [MEMBER]: { [P1]: state(0) } });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new MemberPopupStates({ ...db.load, all: async (userId) => (await gate, db.load.all(userId)) }, { ttlMs: 5000, max: 100 });
    const reading = cache.read(MEMBER, [P1], at(0));
    // ... the database is read here, then a snooze of this member commits and is announced ...
    db.write(MEMBER, P1, state(1));
    cache.invalidate({ popupStates: MEMBER });
    release();
    await reading;
    expect(cache.holds(MEMBER)).toBe(false);
    expect((await cache.read(MEMBER, [P1], at(1))).get(P1)?.snoozeCount).toBe(1);
    expect(cache.holds(MEMBER)).toBe(true);
  });

  it('while the channel between instances is down, or with a TTL of 0, reads only the states asked for and keeps nothing', async () => {
    const db = store();
    const cache = new MemberPopupStates(db.load, { ttlMs: 5000, max: 100 });
    await cache.read(MEMBER, [P1], at(0));
    cache.setLive(false);
    expect(cache.enabled).toBe(false);
    await cache.read(MEMBER, [P1, P2], at(1));
    await cache.read(MEMBER, [P1], at(2));
    expect(db.reads.slice(1)).toEqual([
      { userId: MEMBER, popupIds: [P1, P2] },
      { userId: MEMBER, popupIds: [P1] },
    ]);
    expect(cache.holds(MEMBER)).toBe(false);
    cache.setLive(true);
    await cache.read(MEMBER, [P1], at(3));
    await cache.read(MEMBER, [P1], at(4));
    expect(db.reads).toHaveLength(4);
    const off = new MemberPopupStates(db.load, { ttlMs: 0, max: 100 });
    await off.read(MEMBER, [P1], at(0));
    expect(off.holds(MEMBER)).toBe(false);
  });

  it('hands out frozen states: one map serves many requests', async () => {
    const db = store({ [MEMBER]: { [P1]: state(1) } });
    const cache = new MemberPopupStates(db.load, { ttlMs: 5000, max: 100 });
    const held = (await cache.read(MEMBER, [P1], at(0))).get(P1)!;
    expect(Object.isFrozen(held)).toBe(true);
    expect(() => {
      (held as { snoozeCount: number }).snoozeCount = 0;
    }).toThrow(TypeError);
  });
});
