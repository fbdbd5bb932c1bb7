import type { Db } from '#db/client';
import { messages } from '#shared/messages/index';
import {
  type FamilyMember,
  type FamilyMemberValues,
  latestDateOnEarth,
  MAX_FAMILY_MEMBERS,
  type MemberProfile,
  type Relationship,
} from '#shared/schemas/family';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { HeldPerMember } from '../../lib/held-per-member';
import { type CacheChange, announcingWrite } from '../../lib/notify';
import * as repo from './members.repository';
import { isUuid } from '../../lib/sql-text';

const m = messages.members.family;

declare module 'fastify' {
  interface FastifyInstance {
    /** Members' family lists held in memory (tests read what it holds: `holds`). */
    familyLists: HeldPerMember<FamilyMember[]>;
  }
}

export interface MembersDeps {
  db: Db;
  clock: Clock;
  /**
   * Members' family lists held in memory (`familyLists` below): only the member's own calls
   * change theirs, each announced as `{ family: userId }` after it commits.
   */
  familyLists: HeldPerMember<FamilyMember[]>;
}

/** The copy of members' family lists an app holds: SESSION_CACHE_TTL_MS and SESSION_CACHE_MAX, dropped by `{ family }`. */
export function familyListsOptions(config: { SESSION_CACHE_TTL_MS: number; SESSION_CACHE_MAX: number }) {
  return { ttlMs: config.SESSION_CACHE_TTL_MS, max: config.SESSION_CACHE_MAX, drops: (change: CacheChange) => ('family' in change ? change.family : undefined) };
}

/** Who is calling: the session user, never an id from the request. */
export interface Caller {
  id: string;
  companyId: string;
  /** The caller's participant row when the session knows it (it never changes once there). */
  participantId?: string | null;
}

function toFamilyMember(row: repo.FamilyMemberRow): FamilyMember {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    dob: row.dob,
    relationship: row.relationship as Relationship,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The signed-in member's profile and family members; only ever the caller's own rows. */
export function createMembersService(deps: MembersDeps) {
  const { db, clock, familyLists } = deps;

  /**
   * A write of the caller's family, announced so every other instance drops the list it holds
   * of them, when it changed a row (`write` answers undefined when it changed none: a refusal
   * at the limit, an id that is not theirs), or when it threw. This instance keeps the list it
   * held with the write in it (`update`; `HeldPerMember.keepThrough`), so the member's next
   * look at it needs no query.
   */
  const changeFamily = <T>(caller: Caller, write: () => Promise<T | undefined>, update: (list: readonly FamilyMember[], result: T) => FamilyMember[] | undefined) => {
    const stamp = familyLists.stamp();
    return announcingWrite(
      db,
      { family: caller.id },
      write,
      (result) => result !== undefined,
      (result, announce) => familyLists.keepThrough(caller.id, stamp, clock(), (list) => update(list, result!), announce),
    );
  };

  function checkDob(input: FamilyMemberValues) {
    if (input.dob > latestDateOnEarth(clock())) {
      throw new AppError('validation', m.validation.dobFuture, { dob: m.validation.dobFuture });
    }
  }

  const notFound = () => new AppError('not_found', m.server.notFound);

  /**
   * Each family write is one statement, its own transaction: the row, the stored count and the
   * audit event together (members.repository.ts).
   */
  const writerOf = (caller: Caller, now: Date): repo.FamilyWriter => ({ userId: caller.id, companyId: caller.companyId, now });

  return {
    async profile(caller: Caller): Promise<MemberProfile> {
      const row = await repo.findProfile(db, caller.id);
      if (!row) throw new AppError('not_found', messages.members.memberNotFound);
      return {
        ...row,
        enrolledAt: row.enrolledAt ? row.enrolledAt.toISOString() : null,
        familyMemberCount: row.familyMemberCount ?? 0,
      };
    },

    /** The caller's family members, oldest first: held in memory per member until their family changes. */
    async list(caller: Caller): Promise<readonly FamilyMember[]> {
      return familyLists.getOrLoad(caller.id, clock(), async () => (await repo.listFamilyOfUser(db, caller.id, caller.participantId)).map(toFamilyMember));
    },

    async create(caller: Caller, input: FamilyMemberValues): Promise<FamilyMember> {
      checkDob(input);
      const now = clock();
      const writer = writerOf(caller, now);
      const added = await changeFamily(
        caller,
        async () => {
          let outcome = await repo.addFamilyMember(db, writer, input, MAX_FAMILY_MEMBERS);
          if (!outcome.added && !outcome.enrolled) {
            await repo.enrol(db, caller.id, now);
            outcome = await repo.addFamilyMember(db, writer, input, MAX_FAMILY_MEMBERS);
          }
          return outcome.added && toFamilyMember(outcome.added);
        },
        // Oldest first: kept only when the new one comes last (its time after every held one's).
        (list, member) => (list.every((held) => Date.parse(held.createdAt) < Date.parse(member.createdAt)) ? [...list, member] : undefined),
      );
      if (!added) throw new AppError('conflict', m.server.limitReached);
      return added;
    },

    async update(caller: Caller, id: string, input: FamilyMemberValues): Promise<FamilyMember> {
      if (!isUuid(id)) throw notFound();
      checkDob(input);
      const now = clock();
      const changed = await changeFamily(
        caller,
        async () => {
          const row = await repo.updateFamilyMember(db, writerOf(caller, now), id, input);
          return row && toFamilyMember(row);
        },
        (list, member) => (list.some((held) => held.id === member.id) ? list.map((held) => (held.id === member.id ? member : held)) : undefined),
      );
      if (!changed) throw notFound();
      return changed;
    },

    async remove(caller: Caller, id: string): Promise<void> {
      if (!isUuid(id)) throw notFound();
      const now = clock();
      const removed = await changeFamily(
        caller,
        async () => ((await repo.removeFamilyMember(db, writerOf(caller, now), id)) ? id.toLowerCase() : undefined),
        (list, gone) => (list.some((held) => held.id === gone) ? list.filter((held) => held.id !== gone) : undefined),
      );
      if (!removed) throw notFound();
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
