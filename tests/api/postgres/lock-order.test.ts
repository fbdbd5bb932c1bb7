/**
 * Lock order between transactions on separate connections, which only PostgreSQL has (the
 * embedded database runs one transaction at a time), so this file runs in the api-pg project.
 *
 * Under load, sign-ins and family writes of one member deadlocked (found by `npm run bench --
 * load`: 500s): the sign-in locked the user's row FOR UPDATE (now FOR NO KEY UPDATE) and then
 * upserted the participant row; a family write locked the participant row and then inserted an
 * event naming the user, whose foreign-key check (FOR KEY SHARE on the user's row) waited on the sign-in. Each
 * interleaving is run here step by step, not by timing.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/db/schema';
import { recordEvent } from '../../../src/server/modules/audit/audit.repository';
import { recordSuccessfulLogin } from '../../../src/server/modules/auth/auth.repository';
import { holdVerifiedPassword } from '../../../src/server/modules/auth/start-session';
import { findEmployerCard } from '../../../src/server/modules/cards/cards.repository';
import { addFamilyMember, removeFamilyMember } from '../../../src/server/modules/members/members.repository';
import { type TestApp, createTestApp, signedInMember } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A promise with its resolve, to hand a step from one transaction to the other. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A member who has signed in (so enrolled: their participant row exists), with what the sign-in checks. */
async function member() {
  const { id } = await signedInMember(t.app);
  const [row] = await t.database.db.select({ id: users.id, passwordHash: users.passwordHash, companyId: users.companyId }).from(users).where(eq(users.id, id));
  return row!;
}

describe('lock order on PostgreSQL', () => {
  it.each(['addition', 'removal'] as const)('a sign-in holding the user row does not block the event a family %s of that member inserts', async (kind) => {
    const m = await member();
    const now = t.clock();
    const writer = { userId: m.id, companyId: m.companyId, now };
    const existing = kind === 'removal' ? await addFamilyMember(t.database.db, writer, { firstName: 'Lock', lastName: 'Order', dob: '2015-05-05', relationship: 'Child' }, 20) : undefined;
    const signInLocked = signal();
    const familyWritten = signal();

    // The sign-in: the password still the account's (the user row locked), then the participant row.
    const signIn = t.database.db.transaction(async (tx) => {
      expect(await holdVerifiedPassword(tx, m.id, m.passwordHash)).toBe(true);
      signInLocked.resolve();
      await familyWritten.promise;
      await recordSuccessfulLogin(tx, m.id, now);
    });
    // A family write of the same member, one statement: its participant row locked, then its
    // row and its event. Were the event's check of the user row blocked, the sign-in (waiting
    // for it) would never end: the bounded wait says so.
    const familyWrite = signInLocked.promise.then(() =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        if (kind === 'addition') {
          expect((await addFamilyMember(tx, writer, { firstName: 'Lock', lastName: 'Order', dob: '2015-05-05', relationship: 'Child' }, 20)).added).toBeDefined();
        } else {
          expect(await removeFamilyMember(tx, writer, existing!.added!.id)).toBe(true);
        }
      }),
    );
    await familyWrite.finally(() => familyWritten.resolve());

    await expect(signIn).resolves.toBeUndefined();
  });

  it("an admin saving an employer's card does not block the events of that employer's members", async () => {
    const m = await member();
    const cardLocked = signal();
    const eventWritten = signal();

    const save = t.database.db.transaction(async (tx) => {
      expect(await findEmployerCard(tx, m.companyId!, { lock: true })).toBeDefined();
      cardLocked.resolve();
      // The card save holds its lock until a member's event, naming the employer, is written.
      await eventWritten.promise;
    });
    await cardLocked.promise;
    // Were it blocked, it would wait for the save, which waits for it: a bounded wait says so.
    const event = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '2s'`);
      await recordEvent(tx, { type: 'member.signed_in', actorUserId: m.id, companyId: m.companyId, payload: {} });
    });
    await event.finally(() => eventWritten.resolve());

    await expect(save).resolves.toBeUndefined();
  });
});
