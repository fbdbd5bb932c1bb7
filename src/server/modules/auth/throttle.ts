import { messages } from '#shared/messages/index';
import { AppError } from '../../lib/app-error';
import type { CounterStore } from '../../lib/counter-store';
import { isHashPoolBusy } from '../../lib/hash-pool';

/**
 * Progressive throttling of password and code guesses per account (see
 * docs/decisions/rate-limits-and-lockout.md). A few failures are free; each further failure
 * makes the account wait longer before the next attempt is even checked, capped so the owner
 * is never shut out for long; failures are forgotten after a quiet period; a success resets.
 */
export interface ThrottlePolicy {
  /** Failures that cost nothing (typos). */
  freeFailures: number;
  /** The wait after the first failure past the free ones; it doubles with each further one. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Failures are forgotten once none has happened for this long. */
  quietMs: number;
  /**
   * How long an in-flight mark may outlive its attempt (an instance that crashed, or a store
   * that timed out, between claim and settle). A fixed window from the first mark: attempts
   * that keep coming, refused ones included, never extend it.
   */
  inFlightMs: number;
}

export const THROTTLE_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  quietMs: 24 * 60 * 60 * 1000,
  inFlightMs: 60 * 1000,
};

/** The wait imposed by the failure numbered `failures` (1-based): 0 while free, then 1 s, 2 s, 4 s ... up to the cap. */
export function delayAfterFailure(failures: number, policy: ThrottlePolicy = THROTTLE_POLICY): number {
  const past = failures - policy.freeFailures;
  if (past <= 0) return 0;
  // 2 ** 40 ms is beyond any cap; stop doubling there so the number stays exact.
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(past - 1, 40));
}

/**
 * How many attempts may be checked at the same time, given the settled failures: the free
 * failures left, and once they are used up exactly one, so a burst of parallel guesses gets
 * no more checks than the same guesses sent one after another.
 */
export function attemptsAllowedInFlight(failures: number, policy: ThrottlePolicy = THROTTLE_POLICY): number {
  return Math.max(1, policy.freeFailures - failures);
}

const keys = (key: string) => ({
  failures: `throttle:failures:${key}`,
  wait: `throttle:wait:${key}`,
  inFlight: `throttle:inflight:${key}`,
});

export interface ThrottleState {
  failures: number;
  /** Milliseconds until the next attempt is checked; 0 when it would be now. */
  waitMs: number;
}

/**
 * The throttle on a counter store: in-process, or Redis so every instance sees the same
 * failures. Time comes from the store (the injected clock in-process, Redis's own clock).
 */
export function createThrottle(counters: CounterStore, policy: ThrottlePolicy = THROTTLE_POLICY) {
  /**
   * Call before checking a password or code; 0 to go ahead (then `settle` exactly once),
   * else the seconds to wait (answer 429 with Retry-After, check nothing).
   * The attempt is counted in flight before the wait and failures are read, and a failure is
   * settled before its in-flight mark is taken back, so attempts in parallel, on any
   * instance, cannot slip between a failure and the wait it sets.
   * Services use `throttled`, which settles even when the check throws.
   */
  async function claim(key: string): Promise<number> {
    const k = keys(key);
    // A fixed window, not a sliding one: a mark that is never taken back (a crash, a timeout
    // between claim and settle) must expire even while attempts, refused ones too, keep coming.
    const inFlight = await counters.increment(k.inFlight, policy.inFlightMs);
    const wait = await counters.get(k.wait);
    if (wait.count > 0) {
      await counters.decrement(k.inFlight);
      return Math.max(1, Math.ceil(wait.resetInMs / 1000));
    }
    const failures = await counters.get(k.failures);
    if (inFlight.count > attemptsAllowedInFlight(failures.count, policy)) {
      await counters.decrement(k.inFlight);
      return Math.max(1, Math.ceil(delayAfterFailure(failures.count + 1, policy) / 1000));
    }
    return 0;
  }

  async function settle(key: string, succeeded: boolean): Promise<void> {
    const k = keys(key);
    if (succeeded) {
      await counters.reset(k.failures);
      await counters.reset(k.wait);
    } else {
      const failures = await counters.increment(k.failures, policy.quietMs, true);
      const delay = delayAfterFailure(failures.count, policy);
      if (delay > 0) await counters.set(k.wait, delay);
    }
    await counters.decrement(k.inFlight);
  }

  /**
   * One throttled attempt: claims, runs `check` (the password or code check, with whatever
   * must happen together with it) and settles with its `ok`. While the key must wait, `check`
   * does not run: `onWait` does (an audit), then a 429 with Retry-After is thrown. A `check`
   * that throws is settled as a failure before the error goes on, so no in-flight mark is left;
   * except when the hash pool was full (503): the password was never looked at, so the mark is
   * only taken back and nothing is counted (a flood must not count against the accounts it hits).
   */
  async function throttled<T extends { ok: boolean }>(key: string, check: () => Promise<T>, onWait?: () => Promise<unknown>): Promise<T> {
    const waitFor = await claim(key);
    if (waitFor) {
      await onWait?.();
      throw new AppError('rate_limited', messages.auth.server.locked, undefined, { 'retry-after': String(waitFor) });
    }
    let result: T;
    try {
      result = await check();
    } catch (err) {
      if (isHashPoolBusy(err)) await counters.decrement(keys(key).inFlight).catch(() => undefined);
      else await settle(key, false).catch(() => undefined);
      throw err;
    }
    await settle(key, result.ok);
    return result;
  }

  return {
    claim,
    settle,
    throttled,

    async state(key: string): Promise<ThrottleState> {
      const k = keys(key);
      const [failures, wait] = await Promise.all([counters.get(k.failures), counters.get(k.wait)]);
      return { failures: failures.count, waitMs: wait.count > 0 ? wait.resetInMs : 0 };
    },

    /** Forgets everything about the key (operator unlock, a new password). */
    async clear(key: string): Promise<void> {
      const k = keys(key);
      await counters.reset(k.failures);
      await counters.reset(k.wait);
      await counters.reset(k.inFlight);
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

/**
 * The throttle keys of one account: sign-in by email (unknown emails throttle the same way,
 * so the answer never tells whether an account exists) and the admin step-up by user id.
 */
export const throttleKeys = {
  signIn: (email: string) => email.trim().toLowerCase(),
  adminAccess: (userId: string) => `admin:${userId}`,
  /**
   * Second-factor codes, apart from password guesses: a right password must not wipe out the
   * wrong codes before it (whoever holds the password would get a fresh allowance each time),
   * and only a right code resets this count.
   */
  mfa: (userId: string) => `mfa:${userId}`,
};

/** Every throttle key of one account, for the operator's unlock. */
export function accountThrottleKeys(account: { email: string; id: string }): string[] {
  return [throttleKeys.signIn(account.email), throttleKeys.adminAccess(account.id), throttleKeys.mfa(account.id)];
}

/**
 * The password-guess throttle keys of one account (sign-in and the Admin Access step-up),
 * cleared once a new password is set: guesses at the old one no longer matter. The
 * second-factor key stays: a reset link proves the mailbox, not the authenticator app.
 */
export function passwordThrottleKeys(account: { email: string; id: string }): string[] {
  return [throttleKeys.signIn(account.email), throttleKeys.adminAccess(account.id)];
}
