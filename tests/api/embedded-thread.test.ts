import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { messages } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { loggableError } from '../../src/server/plugins/errors';
import type { PgliteThread } from '../../src/db/pglite-thread';
import { openTestDatabase, type TestDatabase } from './support/test-app';

/**
 * The embedded database on its worker thread (src/db/pglite-thread.ts): calls cross the thread
 * and come back as PGlite's own answers and errors; a transaction commits or rolls back as its
 * callback ends; a stopped worker fails calls at once instead of leaving them waiting.
 */
let database: TestDatabase;
const threadOf = (db: TestDatabase['db']) => (db as unknown as { $client: PgliteThread }).$client;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table thread_probe (v text primary key)`);
});
afterAll(async () => {
  await database?.close();
});

const values = async () => rowsOf<{ v: string }>(await database.db.execute(sql`select v from thread_probe order by v`)).map((r) => r.v);

describe('the embedded database on its own thread', () => {
  it('commits a transaction whose callback returns, and gives back what it returned', async () => {
    const marker = `kept-${Date.now()}`;
    const result = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe values (${marker})`);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await values()).toContain(marker);
  });

  it("rolls back a transaction whose callback throws, and throws the callback's own error", async () => {
    const marker = `dropped-${Date.now()}`;
    const own = new Error('the callback failed');
    const thrown = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into thread_probe values (${marker})`);
        throw own;
      })
      .catch((err: unknown) => err);
    expect(thrown).toBe(own);
    expect(await values()).not.toContain(marker);
  });

  it("refuses a transaction's handle once the transaction has ended", async () => {
    let kept: ((text: string) => Promise<unknown>) | undefined;
    await threadOf(database.db).transaction(async (tx) => {
      kept = (text) => tx.query(text);
    });
    await expect(kept!('select 1')).rejects.toThrow('Transaction is closed');
  });

  it('answers a failing statement with a DatabaseError carrying its SQLSTATE, text and parameters, and a failing commit with its error', async () => {
    const err = (await threadOf(database.db)
      .query('select $1::int', ['not a number'])
      .catch((e: unknown) => e)) as Record<string, unknown> & Error;
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err.code).toBe('22P02');
    expect(err.query).toBe('select $1::int');
    expect(err.params).toEqual(['not a number']);
    // A deferred constraint fails at commit, after the callback returned.
    await database.db.execute(sql.raw('create table thread_unique (v int unique deferrable initially deferred)'));
    const commit = (await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into thread_unique values (1), (1)`);
      })
      .catch((e: unknown) => e)) as Record<string, unknown>;
    expect(commit.code).toBe('23505');
    // PGlite names the failed statement (COMMIT) with no parameters: the error log keeps that text, not the database's words.
    const logged = loggableError(commit)!;
    expect(logged.message).toBe('Failed query: COMMIT');
    expect(JSON.stringify(logged)).not.toContain('duplicate key');
  });

  it('closes once an open transaction has finished, and lets that transaction commit', async () => {
    const own = await openTestDatabase();
    await own.db.execute(sql`create table closing_probe (v int)`);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let began!: () => void;
    const begun = new Promise<void>((resolve) => (began = resolve));
    const transaction = own.db.transaction(async (tx) => {
      began();
      await gate;
      await tx.execute(sql`insert into closing_probe values (1)`);
      return 'committed';
    });
    await begun;
    const closing = own.close();
    open();
    await expect(transaction).resolves.toBe('committed');
    await expect(closing).resolves.toBeUndefined();
    await expect(threadOf(own.db).query('select 1')).rejects.toThrow('The embedded database is closed');
  });

  it('refuses a parameter that cannot cross threads with an error, and goes on answering', async () => {
    await expect(threadOf(database.db).query('select $1::text', [() => 'a function'])).rejects.toThrow();
    const { rows } = await threadOf(database.db).query<{ v: string }>('select $1::text as v', ['still here']);
    expect(rows[0]!.v).toBe('still here');
  });

  it('fails every call at once after the database is closed', async () => {
    const own = await openTestDatabase();
    const thread = threadOf(own.db);
    await own.close();
    await expect(thread.query('select 1')).rejects.toThrow('The embedded database is closed');
    await expect(own.db.transaction(async () => undefined)).rejects.toThrow('The embedded database is closed');
  });

  it("opens the next database on a closed one's worker with nothing of the one before", async () => {
    const first = await openTestDatabase();
    await first.db.execute(sql`create table left_behind (v int)`);
    await first.close();
    const next = await openTestDatabase();
    try {
      const [{ n }] = rowsOf<{ n: number }>(await next.db.execute(sql`select count(*)::int as n from pg_tables where tablename = 'left_behind'`)) as [{ n: number }];
      expect(n).toBe(0);
      await expect(next.db.execute(sql`select 1 as v`)).resolves.toBeDefined();
    } finally {
      await next.close();
    }
  });

  it('does not keep an idle process alive', async () => {
    // A script that opens the embedded database, queries it and never closes it ends on its own.
    mkdirSync('.tmp', { recursive: true });
    const script = path.resolve('.tmp', `idle-${randomUUID()}.ts`);
    writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(pathToFileURL(path.resolve('src/db/client.ts')).href)};
      const database = await openDatabase({});
      await database.ping();
      console.log('answered');`,
    );
    try {
      // A process kept alive never ends; one that ends does so in seconds, more on a loaded
      // machine (tsx compiles the script, PGlite starts): a CI run that shared its two cores
      // with a build and a benchmark took 20 s.
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 50_000 });
      expect(stdout.trim()).toBe('answered');
    } finally {
      rmSync(script, { force: true });
    }
  }, 60_000);
});
