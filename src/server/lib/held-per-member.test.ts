import { describe, expect, it } from 'vitest';
import { HeldPerMember } from './held-per-member';
import type { CacheChange } from './notify';

const T0 = new Date('2026-03-02T12:00:00Z');
const A = '6f1d7a52-3c1e-4a8e-9d3b-2b7e4f0c9a11';
const B = '0b7f8c4e-5d2a-4e61-8f3c-7a9d1e2b3c44';
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A copy dropped by `{ family }` for one member and by `{ popups }` for all, as the app's copies are. */
const copy = (options: { ttlMs?: number; max?: number } = {}) =>
  new HeldPerMember<{ names: string[] }>({
    ttlMs: options.ttlMs ?? 5000,
    max: options.max ?? 100,
    drops: (change: CacheChange) => ('family' in change ? change.family : 'popups' in change ? 'all' : undefined),
  });

function filled() {
  const held = copy();
  held.set(A, { names: ['Ana'] }, held.stamp(), T0);
  held.set(B, { names: ['Ben'] }, held.stamp(), T0);
  return held;
}

describe('HeldPerMember', () => {
  it('serves a value for the TTL; past it, or with the clock set back, it is gone', () => {
    const held = filled();
    expect(held.get(A, at(4999))?.names).toEqual(['Ana']);
    expect(held.get(A, at(5000))).toBeUndefined();
    expect(held.holds(A)).toBe(false);
    expect(held.get(B, at(-1))).toBeUndefined();
  });

  it('serves a value only when it is enough for the caller', () => {
    const held = filled();
    expect(held.get(A, T0, (v) => v.names.includes('Zoe'))).toBeUndefined();
    expect(held.get(A, T0, (v) => v.names.includes('Ana'))?.names).toEqual(['Ana']);
  });

  it('drops one member on their own change or their account’s, all on a change that names everyone, none on a session’s', () => {
    const held = filled();
    held.invalidate({ sessionId: A });
    held.invalidate({ popupStates: A });
    expect(held.holds(A) && held.holds(B)).toBe(true);
    held.invalidate({ family: A });
    expect(held.holds(A)).toBe(false);
    expect(held.holds(B)).toBe(true);
    held.invalidate({ userId: B });
    expect(held.holds(B)).toBe(false);
    for (const change of [{ popups: true as const }, { all: true as const }]) {
      const again = filled();
      again.invalidate(change);
      expect(again.holds(A) || again.holds(B)).toBe(false);
    }
  });

  it('does not keep a value read before a change of that member, or of everyone, was announced', () => {
    const held = copy();
    for (const change of [{ family: A }, { userId: A }, { popups: true as const }, { all: true as const }]) {
      const stamp = held.stamp();
      // ... the database is read here, then the change is announced ...
      held.invalidate(change);
      held.set(A, { names: ['stale'] }, stamp, T0);
      expect(held.get(A, T0), JSON.stringify(change)).toBeUndefined();
    }
    // A change of someone else (even one changing again and again), or one that drops nothing here, does not refuse it.
    const stamp = held.stamp();
    held.invalidate({ family: B });
    held.invalidate({ family: B });
    held.invalidate({ sessionId: A });
    held.invalidate({ popupStates: A });
    held.set(A, { names: ['fresh'] }, stamp, T0);
    expect(held.get(A, T0)?.names).toEqual(['fresh']);
  });

  it('refuses a read when the changes of its member are no longer known (more members changed since than it keeps)', () => {
    const held = copy({ max: 2 });
    const stamp = held.stamp();
    const others = ['1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', '2c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', '3c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'];
    held.invalidate({ family: A });
    // A's change is forgotten once two others are kept in its place: A counts as changed since.
    for (const other of others) held.invalidate({ family: other });
    held.set(A, { names: ['stale'] }, stamp, T0);
    expect(held.get(A, T0)).toBeUndefined();
    // B never changed, but nothing forgotten can be told apart from a change of B: refused too.
    held.set(B, { names: ['maybe stale'] }, stamp, T0);
    expect(held.get(B, T0)).toBeUndefined();
    // Read after all that: kept.
    held.set(B, { names: ['fresh'] }, held.stamp(), T0);
    expect(held.get(B, T0)?.names).toEqual(['fresh']);
  });

  it('answers and keeps nothing while the channel is down, and starts empty when it is back', () => {
    const held = filled();
    held.setLive(false);
    expect(held.enabled).toBe(false);
    expect(held.get(A, T0)).toBeUndefined();
    held.set(A, { names: ['down'] }, held.stamp(), T0);
    held.setLive(true);
    expect(held.get(A, T0)).toBeUndefined();
    expect(held.holds(B)).toBe(false);
  });

  it('is off with a TTL of 0', () => {
    const held = copy({ ttlMs: 0 });
    held.set(A, { names: ['Ana'] }, held.stamp(), T0);
    expect(held.enabled).toBe(false);
    expect(held.get(A, T0)).toBeUndefined();
  });

  it('holds at most `max` members, the least recently used going first', () => {
    const held = copy({ max: 2 });
    held.set(A, { names: ['Ana'] }, held.stamp(), T0);
    held.set(B, { names: ['Ben'] }, held.stamp(), T0);
    held.get(A, T0);
    const C = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    held.set(C, { names: ['Cy'] }, held.stamp(), T0);
    expect(held.holds(B)).toBe(false);
    expect(held.holds(A) && held.holds(C)).toBe(true);
  });

  it('freezes what it holds, one level down: one value serves many requests', () => {
    const held = filled();
    const value = held.get(A, T0)!;
    expect(Object.isFrozen(value) && Object.isFrozen(value.names)).toBe(true);
    expect(() => value.names.push('Eve')).toThrow(TypeError);
  });

  describe('getOrLoad', () => {
    it('answers what is held (when enough), else loads and holds what it read, unless `keep` refuses it', async () => {
      const held = copy();
      let loads = 0;
      const load = async () => ({ names: [`read ${(loads += 1)}`] });
      expect(await held.getOrLoad(A, T0, load)).toEqual({ names: ['read 1'] });
      expect(await held.getOrLoad(A, at(1), load)).toEqual({ names: ['read 1'] });
      expect(await held.getOrLoad(A, at(2), load, { enough: (v) => v.names.length > 1 })).toEqual({ names: ['read 2'] });
      expect(await held.getOrLoad(B, T0, load, { keep: () => false })).toEqual({ names: ['read 3'] });
      expect(held.holds(B)).toBe(false);
      expect(loads).toBe(3);
    });

    it('does not hold a value read while a change of that member was announced', async () => {
      const held = copy();
      const value = await held.getOrLoad(A, T0, async () => {
        held.invalidate({ family: A });
        return { names: ['before the change'] };
      });
      expect(value).toEqual({ names: ['before the change'] });
      expect(held.holds(A)).toBe(false);
    });
  });

  describe('keepThrough, after the member’s own write', () => {
    /** The write's announcement as the app's listeners make it: this copy drops the member's entry before it returns. */
    const announcing = (held: HeldPerMember<{ names: string[] }>, change: CacheChange) => {
      const calls: CacheChange[] = [];
      const announce = () => {
        calls.push(change);
        held.invalidate(change);
        return Promise.resolve();
      };
      return { calls, announce };
    };
    const add = (name: string) => (v: { names: string[] }) => ({ names: [...v.names, name] });

    it('announces the write and keeps what the update makes of the entry, with the entry’s age', async () => {
      const held = filled();
      const stamp = held.stamp();
      const { calls, announce } = announcing(held, { family: A });
      await held.keepThrough(A, stamp, at(1000), add('Rosa'), announce);
      expect(calls).toEqual([{ family: A }]);
      expect(held.get(A, at(4999))?.names).toEqual(['Ana', 'Rosa']);
      // Read at T0: it goes at T0 + TTL as it would have, written through or not.
      expect(held.get(A, at(5000))).toBeUndefined();
      expect(held.get(B, T0)?.names).toEqual(['Ben']);
    });

    it('keeps nothing when another change of the member was announced since the stamp (it may have committed first)', async () => {
      const held = filled();
      const stamp = held.stamp();
      held.invalidate({ family: A });
      held.set(A, { names: ['Ana', 'Eve'] }, held.stamp(), T0);
      const { calls, announce } = announcing(held, { family: A });
      await held.keepThrough(A, stamp, T0, add('Rosa'), announce);
      expect(calls).toHaveLength(1);
      expect(held.holds(A)).toBe(false);
    });

    it('keeps it through changes of other members, and keeps nothing when none was held or the update cannot place the write', async () => {
      const held = filled();
      const stamp = held.stamp();
      held.invalidate({ family: B });
      await held.keepThrough(A, stamp, T0, add('Rosa'), announcing(held, { family: A }).announce);
      expect(held.get(A, T0)?.names).toEqual(['Ana', 'Rosa']);
      await held.keepThrough(B, held.stamp(), T0, add('Rosa'), announcing(held, { family: B }).announce);
      expect(held.holds(B)).toBe(false);
      await held.keepThrough(A, held.stamp(), T0, () => undefined, announcing(held, { family: A }).announce);
      expect(held.holds(A)).toBe(false);
    });

    it('keeps nothing while the channel is down, after it was down during the write, or past the entry’s TTL', async () => {
      const down = filled();
      down.setLive(false);
      await down.keepThrough(A, down.stamp(), T0, add('Rosa'), announcing(down, { family: A }).announce);
      expect(down.holds(A)).toBe(false);
      const gap = filled();
      const stamp = gap.stamp();
      gap.setLive(false);
      gap.setLive(true);
      gap.set(A, { names: ['Ana'] }, gap.stamp(), T0);
      await gap.keepThrough(A, stamp, T0, add('Rosa'), announcing(gap, { family: A }).announce);
      expect(gap.holds(A)).toBe(false);
      const old = filled();
      await old.keepThrough(A, old.stamp(), at(5000), add('Rosa'), announcing(old, { family: A }).announce);
      expect(old.holds(A)).toBe(false);
    });

    it('keeps nothing when the announcement did not drop the entry here (so a read begun before the write cannot put the old rows back)', async () => {
      const held = filled();
      const calls: string[] = [];
      await held.keepThrough(A, held.stamp(), T0, add('Rosa'), () => {
        calls.push('announced elsewhere only');
        return Promise.resolve();
      });
      expect(calls).toHaveLength(1);
      expect(held.get(A, T0)?.names).toEqual(['Ana']);
    });

    it('keeps nothing for the later of two writes whose results arrive out of commit order', async () => {
      const held = filled();
      // Both writes take their stamp; the second to commit answers first and is kept ...
      const first = held.stamp();
      const second = held.stamp();
      await held.keepThrough(A, second, T0, () => ({ names: ['Yolanda'] }), announcing(held, { family: A }).announce);
      expect(held.get(A, T0)?.names).toEqual(['Yolanda']);
      // ... then the first one's result arrives: it is behind, and nothing is kept.
      await held.keepThrough(A, first, T0, () => ({ names: ['Xavier'] }), announcing(held, { family: A }).announce);
      expect(held.holds(A)).toBe(false);
    });
  });
});
