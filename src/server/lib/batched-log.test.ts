import { describe, expect, it } from 'vitest';
import { BatchedLog } from './batched-log';

const sink = () => {
  const chunks: string[] = [];
  let synced = 0;
  return { chunks, synced: () => synced, write: (chunk: string) => chunks.push(chunk), flushSync: () => void synced++ };
};

describe('BatchedLog', () => {
  it('holds lines until they reach the minimum length, then hands them on as one chunk, in order', () => {
    const out = sink();
    const log = new BatchedLog(out, 10);
    log.write('abcd\n');
    log.write('efgh');
    expect(out.chunks).toEqual([]);
    log.write('ij\n');
    expect(out.chunks).toEqual(['abcd\nefghij\n']);
    log.write('k\n');
    expect(out.chunks).toEqual(['abcd\nefghij\n']);
  });

  it('flushes what is held on demand, and nothing when nothing is held', () => {
    const out = sink();
    const log = new BatchedLog(out, 4096);
    log.flush();
    expect(out.chunks).toEqual([]);
    log.write('one\n');
    log.write('two\n');
    log.flush();
    expect(out.chunks).toEqual(['one\ntwo\n']);
    log.flush();
    expect(out.chunks).toEqual(['one\ntwo\n']);
  });

  it('at exit hands on what is held and has the sink write synchronously', () => {
    const out = sink();
    const log = new BatchedLog(out, 4096);
    log.write('last\n');
    log.flushSync();
    expect(out.chunks).toEqual(['last\n']);
    expect(out.synced()).toBe(1);
  });

  it("calls pino's flush callback once the sink has written, or at once for a sink with no flush", () => {
    const out = sink();
    const calls: string[] = [];
    const plain = new BatchedLog(out, 4096);
    plain.write('a\n');
    plain.flush(() => calls.push('plain'));
    const waiting: Array<() => void> = [];
    const boom = new BatchedLog({ write: (c: string) => calls.push(`write ${c.trim()}`), flush: (cb) => waiting.push(() => cb()) }, 4096);
    boom.write('b\n');
    boom.flush(() => calls.push('boom'));
    expect(calls).toEqual(['plain', 'write b']);
    waiting.forEach((w) => w());
    expect(calls).toEqual(['plain', 'write b', 'boom']);
  });

  it('takes deferred lines before it adds another and at each flush, so they keep their place', () => {
    const out = sink();
    const log = new BatchedLog(out, 4096);
    let deferred: string[] = [];
    log.defer(() => {
      const text = deferred.join('');
      deferred = [];
      return text;
    });
    log.flush();
    expect(out.chunks).toEqual([]);
    deferred = ['first\n', 'second\n'];
    log.write('third\n');
    expect(out.chunks).toEqual([]);
    deferred = ['fourth\n'];
    log.flush();
    expect(out.chunks).toEqual(['first\nsecond\nthird\nfourth\n']);
    deferred = ['last\n'];
    log.flushSync();
    expect(out.chunks).toEqual(['first\nsecond\nthird\nfourth\n', 'last\n']);
  });
});
