import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCounterStore } from './counter-store';

function testClock() {
  let now = Date.parse('2026-03-02T12:00:00Z');
  return Object.assign(() => new Date(now), { advance: (ms: number) => (now += ms) });
}

const MIN = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

describe('MemoryCounterStore', () => {
  it('counts in a fixed window, or a sliding one, and never below zero', async () => {
    const clock = testClock();
    const store = new MemoryCounterStore(clock);
    expect(await store.increment('f', MIN)).toEqual({ count: 1, resetInMs: MIN });
    clock.advance(10_000);
    expect(await store.increment('f', MIN)).toEqual({ count: 2, resetInMs: 50_000 });
    expect(await store.increment('s', MIN, true)).toEqual({ count: 1, resetInMs: MIN });
    clock.advance(10_000);
    expect(await store.increment('s', MIN, true)).toEqual({ count: 2, resetInMs: MIN });
    await store.decrement('s');
    await store.decrement('s');
    await store.decrement('s');
    expect(await store.get('s')).toEqual({ count: 0, resetInMs: MIN });
    await store.decrement('missing');
    expect(await store.get('missing')).toEqual({ count: 0, resetInMs: 0 });
    expect(store.size).toBe(2);
    clock.advance(40_000);
    expect(await store.get('f')).toEqual({ count: 0, resetInMs: 0 });
    await store.close();
  });

  it('sweeps expired keys on a timer, without any request paying for it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = testClock();
    const store = new MemoryCounterStore(clock, { sweepEveryMs: MIN });
    for (let i = 0; i < 1000; i += 1) await store.increment(`short:${i}`, MIN);
    await store.increment('long', 24 * 60 * MIN, true);
    clock.advance(MIN);
    expect(store.size).toBe(1001);
    vi.advanceTimersByTime(MIN);
    expect(store.size).toBe(1);
    expect((await store.get('long')).count).toBe(1);
    await store.close();
  });

  it('keeps at most maxEntries keys, dropping the least recently used first', async () => {
    const clock = testClock();
    const store = new MemoryCounterStore(clock, { maxEntries: 3 });
    await store.increment('a', MIN);
    await store.increment('b', MIN);
    await store.increment('c', MIN);
    // Touching "a" (as every attempt on a live throttle key does) makes "b" the oldest.
    await store.increment('a', MIN);
    await store.increment('d', MIN);
    expect(store.size).toBe(3);
    expect((await store.get('b')).count).toBe(0);
    expect((await store.get('a')).count).toBe(2);
    await store.set('e', MIN);
    expect(store.size).toBe(3);
    expect((await store.get('c')).count).toBe(0);
    expect((await store.get('a')).count).toBe(2);
    // A flood of new keys never grows the map past the cap.
    for (let i = 0; i < 10_000; i += 1) await store.increment(`flood:${i}`, MIN);
    expect(store.size).toBe(3);
    await store.close();
  });

  it('does not keep the process alive and stops its timer on close', async () => {
    const store = new MemoryCounterStore(testClock());
    const timer = (store as unknown as { timer: NodeJS.Timeout }).timer;
    expect(timer.hasRef()).toBe(false);
    await store.close();
    expect(store.size).toBe(0);
  });
});
