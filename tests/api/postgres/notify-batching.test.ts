/**
 * The PostgreSQL channel's announcements (lib/notify.ts): changes announced while a NOTIFY is on
 * its way go together in the next statement, and every one of them reaches the other instance,
 * in order. PostgreSQL only: the embedded project's channel is Redis.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CacheChange, type ChangeChannel, openChangeChannel } from '../../../src/server/lib/notify';
import { statementCounter } from '../support/statements';
import { type TestApp, createTestApp } from '../support/test-app';

let t: TestApp;
let statements: ReturnType<typeof statementCounter>;
let url = '';
const channels: ChangeChannel[] = [];

beforeAll(async () => {
  t = await createTestApp();
  // Before anything is prepared: a prepared statement keeps the logger it was made with.
  statements = statementCounter(t.database.db);
  url = ((t.database.db as unknown as { $client: pg.Pool }).$client.options as { connectionString: string }).connectionString;
});
afterAll(async () => {
  await Promise.all(channels.map((c) => c.close()));
  await t?.close();
});

function channel(onChange: (change: CacheChange) => void): ChangeChannel {
  const opened = openChangeChannel({ databaseUrl: url, db: t.database.db, onChange });
  channels.push(opened);
  return opened;
}

const family = (n: number): CacheChange => ({ family: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });

describe('announcements over PostgreSQL LISTEN/NOTIFY', () => {
  it('sends changes announced while one is on its way together, and the other instance hears each, in order', async () => {
    const heard: CacheChange[] = [];
    const listener = channel((change) => heard.push(change));
    const publisher = channel(() => undefined);
    await vi.waitFor(() => expect(listener.live && publisher.live).toBe(true), { timeout: 5000, interval: 10 });

    const changes = [1, 2, 3, 4, 5].map(family);
    const sent = await statements.during(() => Promise.all(changes.map((c) => publisher.publish(c))));

    // The first at once, the four announced behind it in one statement.
    expect(sent).toHaveLength(2);
    expect(sent.every((q) => q.includes('pg_notify'))).toBe(true);
    await vi.waitFor(() => expect(heard).toEqual(changes), { timeout: 2000, interval: 1 });
  });

  it('fails every change of a statement that fails, and sends the next ones', async () => {
    const heard: CacheChange[] = [];
    const listener = channel((change) => heard.push(change));
    const publisher = channel(() => undefined);
    await vi.waitFor(() => expect(listener.live && publisher.live).toBe(true), { timeout: 5000, interval: 10 });

    // A payload PostgreSQL refuses (over its 8,000-byte limit) in the batch behind the first.
    const tooLong: CacheChange = { family: 'x'.repeat(9000) };
    const results = await Promise.allSettled([publisher.publish(family(6)), publisher.publish(tooLong), publisher.publish(family(7))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    await publisher.publish(family(8));
    await vi.waitFor(() => expect(heard).toEqual([family(6), family(8)]), { timeout: 2000, interval: 1 });
  });
});
