/**
 * A member's two writes whose results reach the server out of their commit order
 * (`HeldPerMember.keepThrough`, docs/decisions/session-cache.md, "Through the member's own
 * write"): the instance keeps its held copy through a write only when no other change of the
 * member was announced since the write began, so the later arrival, which is behind, keeps
 * nothing and the next read asks the database. The order is made deterministic with hooks, not
 * timing: the repositories are wrapped so that a test holds one write's result back, after its
 * statement committed, while another write runs to the end.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { familyMembers, popups, userPopupStates } from '../../src/db/schema';
import type { FamilyMember } from '../../src/shared/schemas/family';
import type { MemberPopup } from '../../src/shared/schemas/popups';
import { announceChange } from '../../src/server/lib/notify';
import type * as MembersRepository from '../../src/server/modules/members/members.repository';
import type * as PopupsRepository from '../../src/server/modules/popups/popups.repository';
import { type Hook, runOnce } from './support/hooks';
import { type TestApp, createTestApp, injectAs, signedInMember } from './support/test-app';

const hooks = vi.hoisted(() => ({
  /** Runs once, after the next family member's change committed, before the service has its result. */
  afterFamilyUpdate: null as Hook | null,
  /** Runs once, after the next snooze committed, before the service has its result. */
  afterSnooze: null as Hook | null,
}));

const once = (name: keyof typeof hooks) => runOnce(hooks, name);

vi.mock('../../src/server/modules/members/members.repository', async (importOriginal) => {
  const real = await importOriginal<typeof MembersRepository>();
  return {
    ...real,
    updateFamilyMember: async (...args: Parameters<typeof real.updateFamilyMember>) => {
      const row = await real.updateFamilyMember(...args);
      await once('afterFamilyUpdate');
      return row;
    },
  };
});
vi.mock('../../src/server/modules/popups/popups.repository', async (importOriginal) => {
  const real = await importOriginal<typeof PopupsRepository>();
  return {
    ...real,
    incrementSnooze: async (...args: Parameters<typeof real.incrementSnooze>) => {
      const state = await real.incrementSnooze(...args);
      await once('afterSnooze');
      return state;
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * Holds back the result of the next write `hook` follows: `written` resolves once that write
 * has committed, and the service gets its result when `release` is called.
 */
function holdBack(hook: keyof typeof hooks) {
  let release!: () => void;
  let committed!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const written = new Promise<void>((resolve) => (committed = resolve));
  hooks[hook] = async () => {
    committed();
    await released;
  };
  return { written, release };
}

describe('two writes of one member, their results arriving out of commit order', () => {
  it('family: the first edit, answered last, keeps nothing; the list then read is the second edit', async () => {
    const m = await signedInMember(t.app);
    const created = (await injectAs(t, m, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' } })).json() as FamilyMember;
    const list = async () => ((await injectAs(t, m, { method: 'GET', url: '/api/family-members' })).json() as { familyMembers: FamilyMember[] }).familyMembers;
    await list();
    expect(t.app.familyLists.holds(m.id)).toBe(true);
    const edit = (firstName: string) => injectAs(t, m, { method: 'PUT', url: `/api/family-members/${created.id}`, payload: { firstName, lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' } });

    const first = holdBack('afterFamilyUpdate');
    const earlier = edit('Xavier');
    await first.written;
    // The second edit commits after the first, and is answered first: kept through.
    expect((await edit('Yolanda')).statusCode).toBe(200);
    expect(t.app.familyLists.holds(m.id)).toBe(true);
    first.release();
    expect((await earlier).statusCode).toBe(200);
    // The first edit's result is behind what is held: nothing is kept, and the list is read afresh.
    expect(t.app.familyLists.holds(m.id)).toBe(false);
    const [stored] = await t.database.db.select().from(familyMembers).where(eq(familyMembers.id, created.id));
    expect(stored?.firstName).toBe('Yolanda');
    expect((await list()).map((f) => f.firstName)).toEqual(['Yolanda']);
  });

  it('popups: the first snooze, answered last, keeps nothing; the states then read are the second snooze', async () => {
    const now = t.clock().getTime();
    const [p] = await t.database.db
      .insert(popups)
      .values({
        title: 'Snoozed twice at once',
        message: 'Out of order.',
        target: 'home',
        startAt: new Date(now - 3_600_000),
        endAt: new Date(now + 86_400_000),
        recurrence: 'NONE',
        timezone: 'UTC',
        maxSnoozes: 3,
        priority: 5,
        isActive: true,
      })
      .returning();
    await announceChange(t.database.db, { popups: true });
    const m = await signedInMember(t.app);
    const active = async () => ((await injectAs(t, m, { method: 'GET', url: '/api/popups/active' })).json() as { popups: MemberPopup[] }).popups;
    const snooze = () => injectAs(t, m, { method: 'POST', url: `/api/popups/${p!.id}/snooze` });
    await active();
    expect(t.app.memberPopupStates.holds(m.id)).toBe(true);

    const first = holdBack('afterSnooze');
    const earlier = snooze();
    await first.written;
    expect((await snooze()).json()).toMatchObject({ snoozeCount: 2 });
    expect(t.app.memberPopupStates.holds(m.id)).toBe(true);
    first.release();
    expect((await earlier).json()).toMatchObject({ snoozeCount: 1 });
    expect(t.app.memberPopupStates.holds(m.id)).toBe(false);
    const [stored] = await t.database.db.select().from(userPopupStates).where(and(eq(userPopupStates.userId, m.id), eq(userPopupStates.popupId, p!.id)));
    expect(stored?.snoozeCount).toBe(2);
    expect((await active()).find((x) => x.id === p!.id)?.snoozeCount).toBe(2);
  });
});
