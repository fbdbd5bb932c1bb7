import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';

describe('embedded database lock', () => {
  it('refuses a second opener of the same data directory and releases on close', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'wellhaven-lock-')), 'data');
    const first = await openDatabase({ dataDir: dir });
    expect(existsSync(`${dir}.lock`)).toBe(true);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow();
    await first.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'wellhaven-lock-')), 'data');
    const child = spawn(process.execPath, ['-e', 'process.exit(0)']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}.lock`, String(deadPid));
    const db = await openDatabase({ dataDir: dir });
    await db.close();
  });
});
