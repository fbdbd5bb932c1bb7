/**
 * Session tokens are signed with a key the instances share (modules/auth/session-tokens.ts,
 * docs/decisions/sessions-and-tokens.md): a token this server did not issue is refused before any
 * lookup, so a flood of made-up tokens costs no database work. Tokens of the format before
 * signing are looked up while a session opened with one can be live.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverKeys, sessions } from '../../src/db/schema';
import { newToken, sha256Hex } from '../../src/server/lib/crypto';
import { readSessionTokens } from '../../src/server/modules/auth/session-tokens';
import { statementCounter } from './support/statements';
import { type TestApp, asUser, createTestApp, openTestDatabase, signedInAdmin, signedInMember } from './support/test-app';

let t: TestApp;
let sql: ReturnType<typeof statementCounter>;
beforeAll(async () => {
  t = await createTestApp();
  sql = statementCounter(t.database.db);
});
afterAll(async () => {
  await t?.close();
});

const me = (token: string) => t.app.inject(asUser(token, { method: 'GET', url: '/api/auth/me' }));

/** A session of `userId` opened with `token`, written straight to the database. */
async function sessionWith(userId: string, token: string) {
  const now = t.clock();
  await t.database.db.insert(sessions).values({ userId, tokenHash: sha256Hex(token), createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + 3_600_000) });
}

describe('signed session tokens', () => {
  it("sign-in hands out a signed token (64 characters) that opens the member's session, and an admin's step-up one too", async () => {
    const m = await signedInMember(t.app);
    expect(m.token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect((await me(m.token)).json()).toMatchObject({ user: { id: m.id } });
    const admin = await signedInAdmin(t);
    expect(admin.token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect((await t.app.inject(asUser(admin.token, { method: 'GET', url: '/api/admin/employers' }))).statusCode).toBe(200);
  });

  it('refuses a token it did not issue without a statement: made up in the same shape, or a real one altered', async () => {
    const m = await signedInMember(t.app);
    const altered = `${m.token.slice(0, 10)}${m.token[10] === 'A' ? 'B' : 'A'}${m.token.slice(11)}`;
    const madeUp = Buffer.alloc(48, 7).toString('base64url');
    for (const token of [madeUp, altered]) {
      const statements = await sql.during(async () => {
        const res = await me(token);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'unauthenticated' });
      });
      expect(statements, token).toEqual([]);
    }
    // The member's own token still works.
    expect((await me(m.token)).statusCode).toBe(200);
  });

  it('looks a revoked signed token up, and refuses it: the signature says "issued here", not "live"', async () => {
    const m = await signedInMember(t.app);
    expect((await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/auth/signout' }))).statusCode).toBe(200);
    const statements = await sql.during(async () => expect((await me(m.token)).statusCode).toBe(401));
    expect(statements).toHaveLength(1);
  });
});

describe('tokens of the format before signing', () => {
  it('are looked up while a session opened with one can be live (before signing, or by an instance of the earlier code), and cost no statement once none can', async () => {
    const m = await signedInMember(t.app);
    const before = newToken();
    expect(before).toHaveLength(43);
    await sessionWith(m.id, before);
    await t.app.sessionTokens.refresh();
    expect((await me(before)).statusCode).toBe(200);

    // The last such session ends: within the next read (every minute), made-up ones cost nothing.
    await t.database.db.update(sessions).set({ revokedAt: t.clock() }).where(eq(sessions.tokenHash, sha256Hex(before)));
    await t.app.sessionTokens.refresh();
    const madeUp = newToken();
    const statements = await sql.during(async () => expect((await me(madeUp)).statusCode).toBe(401));
    expect(statements).toEqual([]);
    // A signed token still opens its session.
    expect((await me(m.token)).statusCode).toBe(200);

    // An instance of the earlier code opens one (a rolling deploy, a rollback): looked up again.
    const again = newToken();
    await sessionWith(m.id, again);
    await t.app.sessionTokens.refresh();
    expect((await me(again)).statusCode).toBe(200);
  });
});

describe('the shared key', () => {
  it('is one key however many instances make it at the same moment', async () => {
    const fresh = await openTestDatabase();
    try {
      const [first, second] = await Promise.all([readSessionTokens(fresh.db), readSessionTokens(fresh.db)]);
      expect(second!.mayName(first!.mint())).toBe(true);
      expect(first!.mayName(second!.mint())).toBe(true);
      expect(await fresh.db.select().from(serverKeys)).toHaveLength(1);
    } finally {
      await fresh.close();
      await fresh.dropDatabase();
    }
  });

  it('replaced in the database, is followed at the next read: tokens signed with the old one are refused, new sign-ins work', async () => {
    const m = await signedInMember(t.app);
    await t.database.db.delete(serverKeys).where(eq(serverKeys.name, 'session_tokens'));
    await t.app.sessionTokens.refresh();
    // The session cache still holds the member's session: a new request past it is refused.
    t.clock.advance(5_000);
    expect((await me(m.token)).statusCode).toBe(401);
    const fresh = await signedInMember(t.app);
    expect((await me(fresh.token)).statusCode).toBe(200);
  });
});
