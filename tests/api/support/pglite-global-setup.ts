import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../../src/db/client';

/**
 * Migrates one embedded database per run and writes its dump to a file; each test file then
 * opens an in-memory PGlite from that dump (tests/api/support/test-app.ts) instead of running
 * initdb and every migration again: about 0.6 s a database instead of 4 s.
 */
export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  const database = await openDatabase({});
  await database.migrate();
  const dump = await database.dumpDataDir!();
  await database.close();
  const dir = path.resolve('.tmp');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pglite-template-${randomUUID()}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
