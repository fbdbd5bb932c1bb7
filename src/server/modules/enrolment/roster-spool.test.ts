/* eslint-disable security/detect-non-literal-fs-filename -- paths of the test's own temporary directory */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spoolRoster } from './roster-spool';

const limits = { maxBytes: 1024 * 1024, idleMs: 30_000, totalMs: 300_000 };
let scratch: string;
let savedTmp: string | undefined;

beforeEach(() => {
  // A temporary directory of the test's own, so what the spool leaves behind can be counted.
  scratch = mkdtempSync(path.join(tmpdir(), 'spool-test-'));
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(scratch, { recursive: true, force: true });
});

describe('spoolRoster', () => {
  it('reads the whole upload into a private file and gives the rows back in batches, in order', async () => {
    const csv = 'programme_id,first_name,last_name\nLQ00001,Ann,Lee\nLQ00002,Bo,Li\nbad,Cy,Ma\nLQ00004,Di,Na\nLQ00005,Ed,Ng\n';
    const spooled = await spoolRoster(Readable.from([csv.slice(0, 20), csv.slice(20)]), limits, 2);
    try {
      expect(spooled.rows).toBe(5);
      expect(statSync(spooled.file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(spooled.file)).mode & 0o777).toBe(0o700);
      const batches: { line: number; lhmpId: string | null; reason: string | null }[][] = [];
      for await (const batch of spooled.batches()) batches.push(batch.map(({ line, lhmpId, reason }) => ({ line, lhmpId, reason: reason && 'bad' })));
      expect(batches).toEqual([
        [
          { line: 2, lhmpId: 'LQ00001', reason: null },
          { line: 3, lhmpId: 'LQ00002', reason: null },
        ],
        [
          { line: 4, lhmpId: null, reason: 'bad' },
          { line: 5, lhmpId: 'LQ00004', reason: null },
        ],
        [{ line: 6, lhmpId: 'LQ00005', reason: null }],
      ]);
    } finally {
      await spooled.remove();
    }
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('keeps the first bad rows (the most an answer lists) whole; later ones only as far as they matter', async () => {
    const csv = `programme_id,first_name,last_name\nbad1,A,B\nLQ00001,Ann,Lee\nbad2,A,B\nbad3,A,B\nLQ00005,,B\nbad6,A,B\n`;
    const spooled = await spoolRoster(Readable.from([csv]), limits, 10, 2);
    try {
      const rows = [];
      for await (const batch of spooled.batches()) rows.push(...batch.map(({ line, lhmpId, reason }) => [line, lhmpId, reason && reason.slice(0, 13)]));
      // Lines 5 and 7 (past the first two bad rows, no valid ID) are counted only; line 6 keeps its ID's entry.
      expect(rows).toEqual([
        [2, null, 'programme_id:'],
        [3, 'LQ00001', null],
        [4, null, 'programme_id:'],
        [6, 'LQ00005', ''],
      ]);
      expect(spooled).toMatchObject({ rows: 6, unspooledBadRows: 2 });
    } finally {
      await spooled.remove();
    }
  });

  it('leaves nothing behind when the upload is refused', async () => {
    await expect(spoolRoster(Readable.from(['name,email\nAnn,a@example.test\n']), limits, 2)).rejects.toMatchObject({ code: 'validation' });
    await expect(spoolRoster(Readable.from([`programme_id,first_name,last_name\n${'LQ00001,Ann,Lee\n'.repeat(70_000)}`]), limits, 2)).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(readdirSync(scratch)).toEqual([]);
    expect(existsSync(scratch)).toBe(true);
  });
});
