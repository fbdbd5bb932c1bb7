import type { DbOrTx } from '#db/client';
import type { loginAudits } from '#db/schema';
import type { Clock } from '../../lib/clock';
import { IP_WINDOW_MS } from '../../lib/rate-limit';
import { addRefusedAttempts } from './auth.repository';
import { THROTTLE_POLICY } from './throttle';

type LoginAuditRow = typeof loginAudits.$inferInsert;
export type RefusedResult = 'rate_limited' | 'locked';

/**
 * The window a refused attempt is counted in, per result: a rate-limited IP's minute (its
 * limit's window), a locked account's quarter of an hour (the longest throttle wait). Windows
 * are fixed, aligned to the epoch: every instance computes the same key.
 */
export const REFUSED_WINDOW_MS: Record<RefusedResult, number> = {
  rate_limited: IP_WINDOW_MS,
  locked: THROTTLE_POLICY.maxDelayMs,
};

/**
 * The row's key: the result, who was refused (the account when known, else the masked IP, as
 * stored in `ip_masked`: the full address is never written) and the window's start.
 * `locked:user:<id>:<start>`, `rate_limited:ip:203.0.113.0/24:<start>`.
 */
export function refusedAttemptKey(row: Pick<LoginAuditRow, 'result' | 'userId' | 'ipMasked'> & { result: RefusedResult }, at: Date) {
  const windowMs = REFUSED_WINDOW_MS[row.result];
  const start = Math.floor(at.getTime() / windowMs) * windowMs;
  const who = row.result === 'locked' && row.userId ? `user:${row.userId}` : `ip:${row.ipMasked}`;
  return { key: `${row.result}:${who}:${new Date(start).toISOString()}`, endsAt: start + windowMs };
}

export interface RefusedAttemptsOptions {
  db: DbOrTx;
  clock: Clock;
  /** How often counts held in memory are written (a timer that never keeps the process alive). */
  flushEveryMs?: number;
  /** Keys remembered at most; past it, windows that ended and keys with nothing to write are forgotten. */
  maxKeys?: number;
}

interface Entry {
  /** The first refused attempt of the window: the row as written. */
  row: LoginAuditRow;
  /** Refused since, not yet written. */
  pending: number;
  last: Date;
  endsAt: number;
}

/**
 * Refused sign-in attempts (rate limited, locked) as one `login_audits` row per key and window
 * with a count, and, past the first, no database work per attempt (docs/decisions/rate-limits-and-lockout.md):
 *
 * - the first refusal of a key in a window (on this instance) writes the row at once, before
 *   the 429 is answered: `INSERT ... ON CONFLICT (dedup_key) DO UPDATE SET attempts = attempts + 1`;
 * - later ones are counted in memory and written together every `flushEveryMs` (one
 *   `attempts = attempts + n` per key) and when the app closes.
 *
 * Every write adds, so instances (each writes its own first refusal and its own counts) and a
 * flush racing the first write end with the right total. A crash loses at most the counts of
 * one flush interval, never the row.
 */
export function createRefusedAttempts(options: RefusedAttemptsOptions) {
  const { db, clock } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const entries = new Map<string, Entry>();
  let flushing: Promise<void> | undefined;

  const write = (key: string, entry: Entry, attempts: number) =>
    addRefusedAttempts(db, { ...entry.row, dedupKey: key, attempts, lastAttemptAt: entry.last });

  /**
   * Forgets ended windows with nothing left to write, then, down to `keep` keys, the oldest
   * with nothing to write (a later refusal under a forgotten key writes again: the count stays
   * right, it just costs a statement).
   */
  function prune(now: number, keep = maxKeys) {
    for (const [key, e] of entries) if (e.pending === 0 && e.endsAt <= now) entries.delete(key);
    for (const [key, e] of entries) {
      if (entries.size <= keep) break;
      if (e.pending === 0) entries.delete(key);
    }
  }

  async function flushNow(): Promise<void> {
    let failure: unknown;
    for (const [key, e] of entries) {
      if (e.pending === 0) continue;
      const n = e.pending;
      e.pending = 0;
      try {
        await write(key, e, n);
      } catch (err) {
        // Kept for the next flush: the counts are not lost while the database is away.
        e.pending += n;
        failure = err;
      }
    }
    prune(clock().getTime());
    if (failure) throw failure;
  }

  function flush(): Promise<void> {
    flushing ??= flushNow().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  const timer = setInterval(() => void flush().catch(() => undefined), options.flushEveryMs ?? 5000);
  timer.unref();

  return {
    /** Counts one refused attempt; writes its row when it is the window's first here. */
    async record(row: LoginAuditRow & { result: RefusedResult; timestamp: Date }): Promise<void> {
      const at = row.timestamp;
      const { key, endsAt } = refusedAttemptKey(row, at);
      const known = entries.get(key);
      if (known) {
        known.pending += 1;
        if (at > known.last) known.last = at;
        return;
      }
      if (entries.size >= maxKeys) prune(at.getTime(), maxKeys - 1);
      const entry: Entry = { row, pending: 0, last: at, endsAt };
      entries.set(key, entry);
      try {
        await write(key, entry, 1);
      } catch (err) {
        // Written by a later flush (an upsert like this one) if the database comes back.
        entry.pending += 1;
        throw err;
      }
    },

    /** Writes the counts held in memory (the timer does it every few seconds). */
    flush,

    /** Stops the timer and writes what is left (the app is closing). */
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },

    /** Keys remembered and attempts not yet written (tests, measurements). */
    stats: () => ({ keys: entries.size, pending: [...entries.values()].reduce((n, e) => n + e.pending, 0) }),
  };
}

export type RefusedAttempts = ReturnType<typeof createRefusedAttempts>;
