import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/app-error';
import { MemoryCounterStore } from '../../lib/counter-store';
import { HashPoolBusyError, isHashPoolBusy } from '../../lib/hash-pool';
import { THROTTLE_POLICY, attemptsAllowedInFlight, createThrottle, delayAfterFailure } from './throttle';

function setup() {
  let now = Date.parse('2026-03-02T12:00:00Z');
  const clock = Object.assign(() => new Date(now), { advance: (ms: number) => (now += ms) });
  return { clock, throttle: createThrottle(new MemoryCounterStore(clock)) };
}

/** One attempt as sign-in makes it: claim, then (when admitted) settle. Returns the wait, 0 when checked. */
async function attempt(throttle: ReturnType<typeof createThrottle>, key: string, succeeds: boolean) {
  const wait = await throttle.claim(key);
  if (wait === 0) await throttle.settle(key, succeeds);
  return wait;
}

const MIN = 60 * 1000;

describe('delayAfterFailure', () => {
  it('is free for 5 failures, then 1 s, 2 s, 4 s ... doubling, capped at 15 minutes', () => {
    expect([1, 2, 3, 4, 5].map((n) => delayAfterFailure(n))).toEqual([0, 0, 0, 0, 0]);
    expect([6, 7, 8, 9, 10].map((n) => delayAfterFailure(n))).toEqual([1000, 2000, 4000, 8000, 16_000]);
    expect(delayAfterFailure(15)).toBe(512_000);
    expect(delayAfterFailure(16)).toBe(15 * MIN);
    expect(delayAfterFailure(1_000_000)).toBe(15 * MIN);
  });

  it('never decreases and never exceeds the cap', () => {
    let last = 0;
    for (let n = 0; n < 200; n += 1) {
      const d = delayAfterFailure(n);
      expect(d).toBeGreaterThanOrEqual(last);
      expect(d).toBeLessThanOrEqual(THROTTLE_POLICY.maxDelayMs);
      last = d;
    }
  });
});

describe('attemptsAllowedInFlight', () => {
  it('allows the free failures left at once, then one at a time', () => {
    expect([0, 1, 4, 5, 6, 50].map((n) => attemptsAllowedInFlight(n))).toEqual([5, 4, 1, 1, 1, 1]);
  });
});

describe('createThrottle', () => {
  it('lets 5 failures through, then makes each next attempt wait longer', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) expect(await attempt(throttle, 'a', false)).toBe(0);
    // The 6th failure is checked at once and sets a 1 s wait.
    expect(await attempt(throttle, 'a', false)).toBe(0);
    for (const seconds of [1, 2, 4, 8]) {
      expect(await throttle.claim('a')).toBe(seconds);
      clock.advance(seconds * 1000 - 1);
      expect(await throttle.claim('a')).toBe(1);
      clock.advance(1);
      expect(await attempt(throttle, 'a', false)).toBe(0);
    }
    expect(await throttle.state('a')).toEqual({ failures: 10, waitMs: 16_000 });
  });

  it('refuses unchecked while waiting, without counting the refusal', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 7; i += 1) {
      await attempt(throttle, 'a', false);
      clock.advance(60 * MIN);
    }
    await attempt(throttle, 'a', false); // 8th failure: 4 s
    for (let i = 0; i < 100; i += 1) expect(await throttle.claim('a')).toBeGreaterThan(0);
    expect((await throttle.state('a')).failures).toBe(8);
  });

  it('caps the wait at 15 minutes, after which the owner gets in with the right password', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 40; i += 1) {
      const wait = await attempt(throttle, 'a', false);
      if (wait) clock.advance(wait * 1000);
    }
    const { waitMs } = await throttle.state('a');
    expect(waitMs).toBe(15 * MIN);
    expect(await throttle.claim('a')).toBe(15 * 60);
    clock.advance(15 * MIN);
    expect(await attempt(throttle, 'a', true)).toBe(0);
    expect(await throttle.state('a')).toEqual({ failures: 0, waitMs: 0 });
    // A success forgets: the next typo is free again.
    expect(await attempt(throttle, 'a', false)).toBe(0);
    expect(await throttle.claim('a')).toBe(0);
  });

  it('forgets failures after 24 hours without one, not before', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) await attempt(throttle, 'a', false);
    clock.advance(23 * 60 * MIN);
    await attempt(throttle, 'a', false); // the quiet period starts again
    expect((await throttle.state('a')).failures).toBe(6);
    clock.advance(23 * 60 * MIN);
    expect((await throttle.state('a')).failures).toBe(6);
    clock.advance(60 * MIN);
    expect(await throttle.state('a')).toEqual({ failures: 0, waitMs: 0 });
  });

  it('checks at most the free failures left when guesses arrive at once, then one at a time', async () => {
    const { throttle } = setup();
    const claims = await Promise.all(Array.from({ length: 30 }, () => throttle.claim('a')));
    expect(claims.filter((w) => w === 0)).toHaveLength(5);
    for (let i = 0; i < 5; i += 1) await throttle.settle('a', false);
    const next = await Promise.all(Array.from({ length: 30 }, () => throttle.claim('a')));
    expect(next.filter((w) => w === 0)).toHaveLength(1);
    await throttle.settle('a', false);
    expect(await throttle.claim('a')).toBe(1); // the 6th failure set a 1 s wait
  });

  it('does not let an attempt slip between a failure and the wait it sets', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i += 1) await attempt(throttle, 'a', false);
    expect(await throttle.claim('a')).toBe(0); // in flight
    expect(await throttle.claim('a')).toBeGreaterThan(0); // refused while the first is unsettled
    await throttle.settle('a', false);
    expect(await throttle.claim('a')).toBe(1);
  });

  it("never throttles the owner's own simultaneous correct sign-ins", async () => {
    const { throttle } = setup();
    for (let round = 0; round < 3; round += 1) {
      const claims = await Promise.all(Array.from({ length: 8 }, () => throttle.claim('a')));
      const admitted = claims.filter((w) => w === 0).length;
      expect(admitted).toBe(5);
      for (let i = 0; i < admitted; i += 1) await throttle.settle('a', true);
    }
    expect(await throttle.state('a')).toEqual({ failures: 0, waitMs: 0 });
  });

  it('forgets an attempt left in flight by a crashed instance after a minute', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) await attempt(throttle, 'a', false);
    expect(await throttle.claim('a')).toBe(0); // never settled
    expect(await throttle.claim('a')).toBeGreaterThan(0);
    clock.advance(MIN);
    expect(await throttle.claim('a')).toBe(0);
  });

  it('forgets a leaked in-flight mark after a minute even while refused attempts keep coming (a fixed window)', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) await attempt(throttle, 'a', false);
    expect(await throttle.claim('a')).toBe(0); // never settled: a crash, or a store timeout before settle
    // Someone keeps trying every 10 s; each refused claim must not extend the leaked mark.
    for (let s = 0; s < 50; s += 10) {
      expect(await throttle.claim('a')).toBeGreaterThan(0);
      clock.advance(10_000);
    }
    clock.advance(10_000);
    expect(await attempt(throttle, 'a', true)).toBe(0);
    expect(await throttle.state('a')).toEqual({ failures: 0, waitMs: 0 });
  });

  it('keeps accounts apart and clears one completely', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 8; i += 1) await attempt(throttle, 'a', false);
    expect(await throttle.claim('b')).toBe(0);
    await throttle.settle('b', true);
    expect(await throttle.claim('a')).toBeGreaterThan(0);
    await throttle.clear('a');
    expect(await throttle.state('a')).toEqual({ failures: 0, waitMs: 0 });
    const claims = await Promise.all(Array.from({ length: 6 }, () => throttle.claim('a')));
    expect(claims.filter((w) => w === 0)).toHaveLength(5);
  });
});

describe('throttle.throttled', () => {
  it('runs the check and settles with its outcome', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i += 1) expect((await throttle.throttled('a', async () => ({ ok: false, n: i }))).n).toBe(i);
    expect(await throttle.state('a')).toEqual({ failures: 5, waitMs: 0 });
    expect(await throttle.throttled('a', async () => ({ ok: true }))).toEqual({ ok: true });
    expect(await throttle.state('a')).toEqual({ failures: 0, waitMs: 0 });
  });

  it('while the key waits, runs onWait instead of the check and throws a 429 with Retry-After', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 6; i += 1) await throttle.throttled('a', async () => ({ ok: false }));
    const check = vi.fn(async () => ({ ok: true }));
    const onWait = vi.fn(async () => undefined);
    const err = await throttle.throttled('a', check, onWait).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '1' } });
    expect(check).not.toHaveBeenCalled();
    expect(onWait).toHaveBeenCalledTimes(1);
  });

  it('settles a check that throws as a failure, so no in-flight mark is left behind', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) await throttle.throttled('a', async () => ({ ok: false }));
    await expect(throttle.throttled('a', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    // Counted as the 6th failure (a 1 s wait), and nothing is left in flight: once the wait is
    // over the next attempt is checked (a leaked mark would refuse it for a minute).
    expect(await throttle.state('a')).toEqual({ failures: 6, waitMs: 1000 });
    await expect(throttle.throttled('a', async () => ({ ok: true }))).rejects.toMatchObject({ code: 'rate_limited' });
    clock.advance(1000);
    expect(await throttle.throttled('a', async () => ({ ok: true }))).toEqual({ ok: true });
  });

  it('counts nothing when the hash pool was full (the password was never looked at), and leaves no mark', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i += 1) await throttle.throttled('a', async () => ({ ok: false }));
    // Past the free failures only one attempt may be in flight: a leaked mark would refuse the next.
    for (let i = 0; i < 20; i += 1) {
      await expect(throttle.throttled('a', async () => Promise.reject(new HashPoolBusyError('busy', 1)))).rejects.toSatisfy(isHashPoolBusy);
    }
    expect(await throttle.state('a')).toEqual({ failures: 5, waitMs: 0 });
    expect(await throttle.throttled('a', async () => ({ ok: true }))).toEqual({ ok: true });
  });
});
