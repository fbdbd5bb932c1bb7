import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { type PasswordHasher, createHashPool, isHashPoolBusy } from './hash-pool';

/** A hasher whose every call waits until the test lets it finish: no timing involved. */
function gatedHasher() {
  const pending: Array<{ password: string; finish: () => void }> = [];
  const started: string[] = [];
  const gate = <T>(password: string, value: T) =>
    new Promise<T>((resolve) => {
      started.push(password);
      pending.push({ password, finish: () => resolve(value) });
    });
  const hasher: PasswordHasher = {
    hash: (password) => gate(password, `hashed:${password}`),
    verify: (passwordHash, password) => gate(password, passwordHash === `hashed:${password}`),
  };
  return {
    hasher,
    started,
    /** Lets the oldest running call finish, then lets the pool start the next. */
    async finishOne() {
      pending.shift()!.finish();
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
    },
  };
}

const settled = async <T>(p: Promise<T>) => p.then((value) => ({ value }), (error: unknown) => ({ error }));
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

describe('createHashPool', () => {
  it('defaults to one hash per core and a queue of twice that', () => {
    const pool = createHashPool(gatedHasher().hasher, { busyMessage: 'busy' });
    expect(pool.concurrency).toBe(availableParallelism());
    expect(pool.queueLength).toBe(2 * availableParallelism());
  });

  it('runs at most `concurrency` at once, queues `queue` more and refuses the next at once with 503 and Retry-After', async () => {
    const fake = gatedHasher();
    const pool = createHashPool(fake.hasher, { concurrency: 2, queue: 2, busyMessage: 'busy' });
    const calls = ['a', 'b', 'c', 'd'].map((p) => pool.hasher.hash(p));
    await flush();
    expect(fake.started).toEqual(['a', 'b']);
    expect(pool.stats()).toEqual({ running: 2, waiting: 2, refused: 0 });
    const refused = await settled(pool.hasher.hash('e'));
    expect('error' in refused && isHashPoolBusy(refused.error)).toBe(true);
    expect((refused as { error: { status: number; headers: Record<string, string>; message: string } }).error).toMatchObject({
      status: 503,
      message: 'busy',
      headers: { 'retry-after': '1' },
    });
    expect(() => pool.hasher.admit()).toThrow('busy');
    // Each finished hash starts the oldest waiting one; everything queued completes.
    await fake.finishOne();
    expect(fake.started).toEqual(['a', 'b', 'c']);
    expect(pool.hasher.admit()).toBeUndefined();
    for (let i = 0; i < 3; i += 1) await fake.finishOne();
    expect(await Promise.all(calls)).toEqual(['hashed:a', 'hashed:b', 'hashed:c', 'hashed:d']);
    expect(pool.stats()).toEqual({ running: 0, waiting: 0, refused: 2 });
  });

  it('frees the place of a hash that fails', async () => {
    const pool = createHashPool(
      { hash: () => Promise.reject(new Error('boom')), verify: async () => true },
      { concurrency: 1, queue: 0, busyMessage: 'busy' },
    );
    await expect(pool.hasher.hash('x')).rejects.toThrow('boom');
    await expect(pool.hasher.verify('h', 'x')).resolves.toBe(true);
  });

  it('with no queue, refuses everything past the running ones', async () => {
    const fake = gatedHasher();
    const pool = createHashPool(fake.hasher, { concurrency: 1, queue: 0, busyMessage: 'busy' });
    const first = pool.hasher.verify('hashed:x', 'x', 'a');
    await expect(pool.hasher.verify('hashed:x', 'x', 'b')).rejects.toSatisfy(isHashPoolBusy);
    await fake.finishOne();
    expect(await first).toBe(true);
  });

  it('never lets one flooding client keep another out: the newcomer takes its newest waiting place and the next free core', async () => {
    const fake = gatedHasher();
    const pool = createHashPool(fake.hasher, { concurrency: 1, queue: 3, busyMessage: 'busy' });
    const flood = ['f1', 'f2', 'f3', 'f4'].map((p) => settled(pool.hasher.verify(`hashed:${p}`, p, 'flooder')));
    await flush();
    // Full: the flooder's own next request is refused at once...
    await expect(pool.hasher.verify('hashed:f5', 'f5', 'flooder')).rejects.toSatisfy(isHashPoolBusy);
    // ...but a member elsewhere gets in, and the flooder's newest waiting request (f4) is refused instead.
    expect(pool.refuses('member')).toBe(false);
    const member = pool.hasher.verify('hashed:m', 'm', 'member');
    expect('error' in (await flood[3]!)).toBe(true);
    for (let i = 0; i < 4; i += 1) await fake.finishOne();
    expect(await member).toBe(true);
    // ...and is served first when a core frees: it holds fewer places than the flooder.
    expect(fake.started).toEqual(['f1', 'm', 'f2', 'f3']);
    expect((await Promise.all(flood.slice(0, 3))).every((r) => 'value' in r && r.value === true)).toBe(true);
  });

  it('does not let two clients take places back and forth: a client needs two places fewer to displace', async () => {
    const fake = gatedHasher();
    const pool = createHashPool(fake.hasher, { concurrency: 1, queue: 2, busyMessage: 'busy' });
    const a1 = settled(pool.hasher.hash('a1', 'a'));
    const b1 = settled(pool.hasher.hash('b1', 'b'));
    const a2 = settled(pool.hasher.hash('a2', 'a'));
    await flush();
    // a holds 2, b holds 1: b may not take a's place (it would then hold 2 against a's 1).
    expect(pool.refuses('b')).toBe(true);
    await expect(pool.hasher.hash('b2', 'b')).rejects.toSatisfy(isHashPoolBusy);
    // A third client holding nothing may: a holds two more than it.
    const c1 = settled(pool.hasher.hash('c1', 'c'));
    expect('error' in (await a2)).toBe(true);
    for (let i = 0; i < 3; i += 1) await fake.finishOne();
    expect(await Promise.all([a1, b1, c1])).toEqual([{ value: 'hashed:a1' }, { value: 'hashed:b1' }, { value: 'hashed:c1' }]);
  });
});
