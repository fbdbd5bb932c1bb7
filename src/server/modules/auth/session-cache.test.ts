import { describe, expect, it } from 'vitest';
import { decodeChange, encodeChange } from '../../lib/notify';
import { SessionCache } from './session-cache';

const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const USER_A = '11111111-1111-4111-8111-111111111111';
const USER_B = '22222222-2222-4222-8222-222222222222';
const entry = (id: string, userId: string) => ({ session: { id, userId }, user: { id: userId, role: 'member' } });
const sid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function filled(options = { ttlMs: 5000, max: 100 }) {
  const cache = new SessionCache<ReturnType<typeof entry>>(options);
  cache.set('a1', entry(sid(1), USER_A), cache.stamp(), T0);
  cache.set('a2', entry(sid(2), USER_A), cache.stamp(), T0);
  cache.set('b1', entry(sid(3), USER_B), cache.stamp(), T0);
  return cache;
}

describe('SessionCache', () => {
  it('serves an entry until its TTL, by the given clock, and not at or after it', () => {
    const cache = filled();
    expect(cache.get('a1', at(4999))?.session.id).toBe(sid(1));
    expect(cache.get('a1', at(5000))).toBeUndefined();
    // Expired entries are dropped, not kept around.
    expect(cache.get('a1', at(0))).toBeUndefined();
  });

  it('treats a clock set back as stale', () => {
    const cache = filled();
    expect(cache.get('a1', at(-1))).toBeUndefined();
  });

  it('drops one session, or every session of a user, or everything', () => {
    const cache = filled();
    cache.invalidate({ sessionId: sid(1) });
    expect(cache.get('a1', T0)).toBeUndefined();
    expect(cache.get('a2', T0)).toBeDefined();
    cache.invalidate({ userId: USER_A });
    expect(cache.get('a2', T0)).toBeUndefined();
    expect(cache.get('b1', T0)).toBeDefined();
    cache.invalidate({ all: true });
    expect(cache.size).toBe(0);
  });

  it('keeps every session when the popups, a member’s states of them, or their family change', () => {
    const cache = filled();
    const stamp = cache.stamp();
    cache.invalidate({ popups: true });
    cache.invalidate({ popupStates: USER_A });
    cache.invalidate({ family: USER_A });
    expect(cache.size).toBe(3);
    expect(cache.get('a1', T0)).toBeDefined();
    // Nor does it refuse a session read while the popups changed.
    cache.set('c1', entry(sid(9), USER_B), stamp, T0);
    expect(cache.get('c1', T0)).toBeDefined();
  });

  it('refuses a row read before a change was announced (the read raced the change)', () => {
    const cache = new SessionCache<ReturnType<typeof entry>>({ ttlMs: 5000, max: 100 });
    const stamp = cache.stamp();
    // ... the database is read here, then a sign-out of someone else entirely is announced ...
    cache.invalidate({ userId: USER_B });
    cache.set('a1', entry(sid(1), USER_A), stamp, T0);
    expect(cache.get('a1', T0)).toBeUndefined();
    cache.set('a1', entry(sid(1), USER_A), cache.stamp(), T0);
    expect(cache.get('a1', T0)).toBeDefined();
  });

  it('answers and stores nothing while the channel is down, and starts empty when it is back', () => {
    const cache = filled();
    cache.setLive(false);
    expect(cache.get('a1', T0)).toBeUndefined();
    cache.set('c1', entry(sid(9), USER_B), cache.stamp(), T0);
    cache.setLive(true);
    expect(cache.get('c1', T0)).toBeUndefined();
    expect(cache.get('b1', T0)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('is off with a TTL of 0', () => {
    const cache = filled({ ttlMs: 0, max: 100 });
    expect(cache.enabled).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.get('a1', T0)).toBeUndefined();
  });

  it('holds at most `max` sessions, the least recently used going first', () => {
    const cache = new SessionCache<ReturnType<typeof entry>>({ ttlMs: 5000, max: 2 });
    cache.set('a1', entry(sid(1), USER_A), cache.stamp(), T0);
    cache.set('a2', entry(sid(2), USER_A), cache.stamp(), T0);
    cache.get('a1', T0);
    cache.set('b1', entry(sid(3), USER_B), cache.stamp(), T0);
    expect(cache.size).toBe(2);
    expect(cache.get('a2', T0)).toBeUndefined();
    expect(cache.get('a1', T0)).toBeDefined();
  });

  it('freezes what it holds: one object serves many requests', () => {
    const cache = filled();
    const held = cache.get('a1', T0)!;
    expect(Object.isFrozen(held)).toBe(true);
    expect(Object.isFrozen(held.session)).toBe(true);
    expect(() => {
      (held.user as { role: string }).role = 'admin';
    }).toThrow(TypeError);
  });
});

describe('change messages', () => {
  it('round-trip, and say who sent them', () => {
    for (const change of [{ sessionId: sid(1) }, { userId: USER_A }, { popups: true as const }, { popupStates: USER_B }, { family: USER_A }, { all: true as const }]) {
      expect(decodeChange(encodeChange(change, 'me'))).toEqual({ origin: 'me', change });
    }
  });

  it('ignore anything malformed (whoever can publish on the channel is not trusted)', () => {
    for (const payload of ['', 'nope', 'null', '[]', '{"s":"not-a-uuid"}', '{"u":42}', '{"all":"yes"}', '{"p":"yes"}', '{"p":1}', '{"ps":"not-a-uuid"}', '{"ps":true}', '{"f":"not-a-uuid"}', '{"f":1}', '{"o":"x"}']) {
      expect(decodeChange(payload)).toBeUndefined();
    }
  });
});
