import { availableParallelism } from 'node:os';
import { AppError } from './app-error';

/** Hashing and checking passwords (argon2id in production, a fake in tests). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

export interface HashPoolOptions {
  /** Hashes running at once; default one per core (`os.availableParallelism()`). */
  concurrency?: number;
  /** Hashes waiting for a free core; default twice the concurrency. Beyond it: 503 at once. */
  queue?: number;
  /** Retry-After of the 503, in seconds. */
  retryAfterSeconds?: number;
  /** The 503's message (src/shared/messages). */
  busyMessage: string;
}

/** The 503 of a full pool: the password was not looked at (the throttle does not count it as a guess). */
export class HashPoolBusyError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super('unavailable', message, undefined, { 'retry-after': String(retryAfterSeconds) });
    this.name = 'HashPoolBusyError';
  }
}

/** The pool as services use it; `key` names the client (its rate-limit key) for fairness when the pool is full. */
export interface PooledHasher {
  hash(password: string, key?: string): Promise<string>;
  verify(passwordHash: string, password: string, key?: string): Promise<boolean>;
  /** Throws the 503 now when a hash for `key` would be refused: a cheap check before any other work (database reads). */
  admit(key?: string): void;
}

export interface HashPool {
  /** Hashes running at once, and waiting at most. */
  concurrency: number;
  queueLength: number;
  /** Runs `task` when a place is free; refused at once (HashPoolBusyError) when none is. */
  run<T>(task: () => Promise<T>, key?: string): Promise<T>;
  /** True when a request from client `key` would be refused now. */
  refuses(key?: string): boolean;
  stats(): { running: number; waiting: number; refused: number };
  /** The pool as a hasher: every hash and check takes a place. */
  hasher: PooledHasher;
}

interface Waiting {
  key: string;
  start: () => void;
  refuse: (err: Error) => void;
}

/**
 * A password hasher that runs at most `concurrency` hashes at once and lets at most `queue`
 * more wait. Each argon2id hash takes a core for tens of milliseconds and 19 MiB: without a
 * bound, a flood of sign-ins queued hundreds of them in libuv's thread pool, every answer (the
 * flood's and a real member's) waited behind all of them, and the event loop lost its cores.
 *
 * When every place is taken the request is refused at once (503 with Retry-After), never
 * queued: a client that retries in a second finds places freed at the pool's own pace.
 *
 * Fairness: `key` names the client (an IP's rate-limit key). When the pool is full, a client
 * holding at least two places fewer than the client holding the most takes that client's
 * newest waiting place (which is refused, 503, instead), and a freed core goes to the waiting
 * client holding the fewest places. One flooding client (16 connections from one address, as
 * the bench sends) can therefore never keep everyone else out: a member signing in from
 * elsewhere gets a place and the next free core. Many clients each holding one place can
 * still fill the pool: the per-IP rate limit (AUTH_RATE_LIMIT_PER_IP) is what bounds those.
 */
export function createHashPool(hasher: PasswordHasher, options: HashPoolOptions): HashPool {
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const queueLength = Math.max(0, options.queue ?? 2 * concurrency);
  const retryAfter = Math.max(1, options.retryAfterSeconds ?? 1);
  let running = 0;
  const waiting: Waiting[] = [];
  /** Places (running and waiting) each client holds. */
  const held = new Map<string, number>();
  let refused = 0;

  const busy = () => new HashPoolBusyError(options.busyMessage, retryAfter);
  const take = (key: string) => held.set(key, (held.get(key) ?? 0) + 1);
  const give = (key: string) => {
    const n = (held.get(key) ?? 0) - 1;
    if (n > 0) held.set(key, n);
    else held.delete(key);
  };

  /**
   * The newest waiting entry of the client holding the most places, when it holds at least two
   * more than a client holding `than` (after the swap it still holds as many as that client):
   * -1 when there is none, so two clients never take places from each other back and forth.
   */
  function displaceable(than: number): number {
    let top: string | undefined;
    for (const w of waiting) if (top === undefined || held.get(w.key)! > held.get(top)!) top = w.key;
    if (top === undefined || held.get(top)! < than + 2) return -1;
    for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i]!.key === top) return i;
    return -1;
  }

  /** True when a request from client `key` would be refused now. */
  function refuses(key = ''): boolean {
    return running >= concurrency && waiting.length >= queueLength && displaceable(held.get(key) ?? 0) < 0;
  }

  /** Starts the waiting request of the client holding the fewest places (the oldest among equals). */
  function next() {
    if (waiting.length === 0) return;
    let pick = 0;
    for (let i = 1; i < waiting.length; i += 1) if (held.get(waiting[i]!.key)! < held.get(waiting[pick]!.key)!) pick = i;
    const [w] = waiting.splice(pick, 1);
    w!.start();
  }

  function run<T>(task: () => Promise<T>, key = ''): Promise<T> {
    const execute = async (): Promise<T> => {
      running += 1;
      try {
        return await task();
      } finally {
        running -= 1;
        give(key);
        next();
      }
    };
    if (running < concurrency && waiting.length === 0) {
      take(key);
      return execute();
    }
    if (waiting.length >= queueLength) {
      // Full: a client with fewer places may take the newest waiting place of the greediest one.
      const at = displaceable(held.get(key) ?? 0);
      if (at < 0) {
        refused += 1;
        return Promise.reject(busy());
      }
      const [out] = waiting.splice(at, 1);
      give(out!.key);
      refused += 1;
      out!.refuse(busy());
    }
    take(key);
    return new Promise<T>((resolve, reject) => {
      waiting.push({
        key,
        start: () => void execute().then(resolve, reject),
        refuse: reject,
      });
    });
  }

  return {
    concurrency,
    queueLength,
    run,
    refuses,
    stats: () => ({ running, waiting: waiting.length, refused }),
    hasher: {
      hash: (password, key) => run(() => hasher.hash(password), key),
      verify: (passwordHash, password, key) => run(() => hasher.verify(passwordHash, password), key),
      admit: (key = '') => {
        if (refuses(key)) {
          refused += 1;
          throw busy();
        }
      },
    },
  };
}

/** True for the 503 of a full pool. */
export const isHashPoolBusy = (err: unknown): err is HashPoolBusyError => err instanceof HashPoolBusyError;
