import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { MAX_STATEMENTS } from '../../src/db/pglite-statements';
import type { PgliteThread } from '../../src/db/pglite-thread';
import { companies } from '../../src/db/schema';
import { loggableError } from '../../src/server/plugins/errors';
import { openTestDatabase, type TestDatabase } from './support/test-app';

/**
 * Drizzle on the embedded database runs its queries as named statements through one call each
 * (src/db/pglite-statements.ts): what it reads, its errors, its locking and its parameters must
 * be PGlite's own `query`'s.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const raw = sql`select
  timestamptz '2026-03-01 10:20:30.456+00' as tz,
  timestamp '2026-03-01 10:20:30' as ts,
  date '2026-03-01' as d,
  interval '1 day 2 hours' as i,
  array[timestamptz '2026-03-01 10:20:30+00']::timestamptz[] as tz_list,
  array[date '2026-03-01']::date[] as d_list,
  array[1.50]::numeric[] as n_list,
  42::int as n,
  true as b`;

/** Timestamps, dates and intervals as text (Drizzle maps them itself); other types as PGlite parses them. */
const rawValues = {
  tz: '2026-03-01 10:20:30.456+00',
  ts: '2026-03-01 10:20:30',
  d: '2026-03-01',
  i: '1 day 02:00:00',
  tz_list: '{"2026-03-01 10:20:30+00"}',
  d_list: '{2026-03-01}',
  n_list: '{1.50}',
  n: 42,
  b: true,
};

describe('Drizzle on the embedded database', () => {
  it('reads timestamps, dates, intervals and their arrays as text, other types parsed, in and out of a transaction', async () => {
    expect(rowsOf(await database.db.execute(raw))).toEqual([rawValues]);
    const inTx = await database.db.transaction(async (tx) => rowsOf(await tx.execute(raw)));
    expect(inTx).toEqual([rawValues]);
  });

  it('maps a timestamp column to a Date through a typed select, in and out of a transaction', async () => {
    const name = `Driver Co ${Date.now()}`;
    const [made] = await database.db.insert(companies).values({ name }).returning({ id: companies.id, createdAt: companies.createdAt });
    expect(made!.createdAt).toBeInstanceOf(Date);
    const [read] = await database.db.select({ createdAt: companies.createdAt }).from(companies).where(eq(companies.id, made!.id));
    expect(read!.createdAt.getTime()).toBe(made!.createdAt.getTime());
    const [inTx] = await database.db.transaction((tx) => tx.select({ createdAt: companies.createdAt }).from(companies).where(eq(companies.id, made!.id)));
    expect(inTx!.createdAt).toBeInstanceOf(Date);
    expect(inTx!.createdAt.getTime()).toBe(made!.createdAt.getTime());
  });

  it('runs a query outside a transaction only after an open transaction ends, never inside it', async () => {
    const name = `Isolation Co ${Date.now()}`;
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let finish!: () => void;
    const finishNow = new Promise<void>((resolve) => (finish = resolve));
    const rolledBack = database.db
      .transaction(async (tx) => {
        await tx.insert(companies).values({ name });
        inserted();
        await finishNow;
        throw new Error('roll back');
      })
      .catch((err: unknown) => (err as Error).message);
    await insertedYet;
    let answered = false;
    const outside = database.db.select({ id: companies.id }).from(companies).where(eq(companies.name, name)).then((rows) => {
      answered = true;
      return rows;
    });
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    finish();
    expect(await rolledBack).toBe('roll back');
    // Had it run inside the transaction, it would have seen the row.
    expect(await outside).toEqual([]);
  });

  it('answers a failing statement with its SQLSTATE, in and out of a transaction, and goes on working', async () => {
    const name = `Duplicate Co ${Date.now()}`;
    await database.db.insert(companies).values({ name });
    const failure = await database.db
      .insert(companies)
      .values({ name })
      .then(() => null, (err: Error) => err);
    expect((failure?.cause as { code?: string } | undefined)?.code).toBe('23505');
    const inTx = await database.db
      .transaction(async (tx) => tx.insert(companies).values({ name }))
      .then(() => null, (err: Error) => err);
    expect((inTx?.cause as { code?: string } | undefined)?.code).toBe('23505');
    const badUuid = await database.db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, 'not-a-uuid'))
      .then(() => null, (err: Error) => err);
    expect((badUuid?.cause as { code?: string } | undefined)?.code).toBe('22P02');
    expect(await database.db.select({ id: companies.id }).from(companies).where(eq(companies.name, name))).toHaveLength(1);
  });

  it('serializes parameters by their type: dates, JSON, arrays as text and nulls', async () => {
    const when = new Date('2026-05-06T07:08:09.010Z');
    const [row] = rowsOf<{ t: string; j: { a: number[] }; l: number; n: boolean }>(
      await database.db.execute(
        sql`select ${when}::timestamptz as t, ${JSON.stringify({ a: [1, 2] })}::jsonb as j, array_length(${'{"x","y,z"}'}::text[], 1) as l, ${null}::text is null as n`,
      ),
    );
    expect(new Date(row!.t).toISOString()).toBe(when.toISOString());
    expect(row!.j).toEqual({ a: [1, 2] });
    expect(row!.l).toBe(2);
    expect(row!.n).toBe(true);
  });

  it('parses a query text once however often it runs, and keeps at most MAX_STATEMENTS statements', async () => {
    const held = async (text: string) =>
      rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_prepared_statements where statement = ${text}`))[0]!.n;
    const repeated = sql`select ${'a'}::text || 'repeat-marker' as v`;
    for (let i = 0; i < 3; i += 1) await database.db.execute(repeated);
    const text = "select $1::text || 'repeat-marker' as v";
    expect(await held(text)).toBe(1);
    const thread = (database.db as unknown as { $client: PgliteThread }).$client;
    for (let i = 0; i < MAX_STATEMENTS + 20; i += 1) await database.db.execute(sql`select ${1}::int + ${sql.raw(String(i))} as v`);
    expect(await thread.statementCount()).toBe(MAX_STATEMENTS);
    const [{ n }] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_prepared_statements`)) as [{ n: number }];
    expect(n).toBe(MAX_STATEMENTS);
  });

  it('parses a text once when many callers use it at the same time', async () => {
    const marker = `concurrent-${Date.now()}`;
    const query = () => database.db.execute(sql`select ${marker}::text as v`);
    const answers = await Promise.all(Array.from({ length: 10 }, query));
    expect(answers.map((a) => rowsOf<{ v: string }>(a)[0]!.v)).toEqual(Array(10).fill(marker));
    const [{ n }] = rowsOf<{ n: number }>(await database.db.execute(sql.raw("select count(*)::int as n from pg_prepared_statements where statement = 'select $1::text as v'"))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('gives up a statement whose table changed under it and answers with the new columns', async () => {
    await database.db.execute(sql.raw('create table driver_changes (id int primary key, v varchar(10))'));
    await database.db.execute(sql.raw("insert into driver_changes values (1, 'one')"));
    const read = () => database.db.execute(sql`select * from driver_changes where id = ${1}`);
    expect(rowsOf(await read())).toEqual([{ id: 1, v: 'one' }]);
    await database.db.execute(sql.raw("alter table driver_changes add column w text not null default 'new'"));
    expect(rowsOf(await read())).toEqual([{ id: 1, v: 'one', w: 'new' }]);
    expect(rowsOf(await read())).toEqual([{ id: 1, v: 'one', w: 'new' }]);
    // In a transaction the failure stands (the transaction is aborted); the next one parses afresh.
    await database.db.execute(sql.raw('alter table driver_changes drop column w'));
    const inTx = await database.db
      .transaction(async (tx) => tx.execute(sql`select * from driver_changes where id = ${1}`))
      .then((r) => rowsOf(r), (err: Error) => (err.cause as { code?: string }).code);
    expect(inTx).toBe('0A000');
    expect(rowsOf(await read())).toEqual([{ id: 1, v: 'one' }]);
  });

  it('answers with the columns as they are now after a column is renamed or retyped (a statement keeps the columns it was described with)', async () => {
    await database.db.execute(sql.raw('create table driver_renames (id int primary key, v int)'));
    await database.db.execute(sql.raw('insert into driver_renames values (1, 7)'));
    const read = () => database.db.execute(sql`select * from driver_renames where id = ${1}`);
    expect(rowsOf(await read())).toEqual([{ id: 1, v: 7 }]);
    await database.db.execute(sql.raw('alter table driver_renames rename column v to w'));
    expect(rowsOf(await read())).toEqual([{ id: 1, w: 7 }]);
    await database.db.execute(sql.raw('alter table driver_renames alter column w type text'));
    expect(rowsOf(await read())).toEqual([{ id: 1, w: '7' }]);
    // A typed select through the same path: Drizzle reads its columns by position.
    const [made] = await database.db.insert(companies).values({ name: `Columns Co ${Date.now()}` }).returning({ id: companies.id });
    const [again] = await database.db.select({ id: companies.id, name: companies.name }).from(companies).where(eq(companies.id, made!.id));
    expect(again!.id).toBe(made!.id);
  });

  it('recovers from a failed statement inside a nested transaction (a savepoint) and commits the rest', async () => {
    const name = `Savepoint Co ${Date.now()}`;
    await database.db.transaction(async (tx) => {
      await tx.insert(companies).values({ name });
      const nested = await tx
        .transaction(async (inner) => inner.insert(companies).values({ name }))
        .then(() => null, (err: Error) => (err.cause as { code?: string }).code);
      expect(nested).toBe('23505');
      await tx.insert(companies).values({ name: `${name} 2` });
    });
    const rows = await database.db.select({ name: companies.name }).from(companies).where(sql`${companies.name} like ${`${name}%`}`);
    expect(rows.map((r) => r.name).sort()).toEqual([name, `${name} 2`]);
  });

  it("puts a failed statement's text and parameters on its error, so the error log keeps the text alone", async () => {
    const secret = `person-${Date.now()}`;
    const failure = await database.db.execute(sql`select ${secret}::uuid`).then(() => null, (err: Error) => err);
    const cause = failure?.cause as { query?: string; params?: unknown[]; message?: string };
    expect(cause.query).toBe('select $1::uuid');
    expect(cause.params).toEqual([secret]);
    expect(cause.message).toContain(secret);
    const logged = JSON.stringify(loggableError(failure));
    expect(logged).toContain('select $1::uuid');
    expect(logged).not.toContain(secret);
  });

  it("leaves the PGlite instance's own parsers as they were", async () => {
    const thread = (database.db as unknown as { $client: PgliteThread }).$client;
    const { rows } = await thread.ownQuery<{ t: unknown }>('select now() as t');
    expect(rows[0]!.t).toBeInstanceOf(Date);
  });
});

