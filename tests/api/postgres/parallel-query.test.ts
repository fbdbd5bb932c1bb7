/**
 * The app's PostgreSQL connections plan without parallel workers (src/db/client.ts,
 * docs/decisions/admin-list-queries.md): a request-sized read on a few cores pays more for
 * starting workers than they save. Only PostgreSQL has them, so this file runs in the api-pg project.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/client';
import { type TestApp, createTestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('runs pooled connections with max_parallel_workers_per_gather = 0, in transactions too', async () => {
  const settings = await Promise.all(
    Array.from({ length: 5 }, () => t.database.db.execute(sql`select current_setting('max_parallel_workers_per_gather') as v`)),
  );
  expect(settings.map((r) => rowsOf<{ v: string }>(r)[0]!.v)).toEqual(Array(5).fill('0'));
  const inTx = await t.database.db.transaction(async (tx) => rowsOf<{ v: string }>(await tx.execute(sql`show max_parallel_workers_per_gather`))[0]!);
  expect(Object.values(inTx)).toEqual(['0']);
});
