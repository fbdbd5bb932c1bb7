import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';

const tempDirs: string[] = [];
/** A data directory path (not yet created) inside a temporary directory removed after the file. */
function dataDir(): string {
  const parent = mkdtempSync(path.join(tmpdir(), 'wellhaven-lock-'));
  tempDirs.push(parent);
  return path.join(parent, 'data');
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('embedded database lock', () => {
  it('refuses a second opener of the same data directory and releases on close', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir });
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`in use by process ${process.pid}`);
    await first.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = dataDir();
    const child = spawn(process.execPath, ['-e', 'process.exit(0)']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    expect(deadPid).not.toBe(process.pid);
    writeFileSync(`${dir}.lock`, String(deadPid));
    const db = await openDatabase({ dataDir: dir });
    // The lock is now this process's, and the database answers.
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await expect(db.ping()).resolves.toBeUndefined();
    await db.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});
