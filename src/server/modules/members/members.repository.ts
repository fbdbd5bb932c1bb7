import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { companies, familyMembers, participants, users } from '#db/schema';
import { prepared, preparedStatement } from '../../lib/prepared';
import { eventsFrom } from '../audit/audit.repository';

const familyColumns = {
  id: familyMembers.id,
  firstName: familyMembers.firstName,
  lastName: familyMembers.lastName,
  dob: familyMembers.dob,
  relationship: familyMembers.relationship,
  createdAt: familyMembers.createdAt,
};

export type FamilyMemberRow = {
  id: string;
  firstName: string;
  lastName: string;
  dob: string;
  relationship: string;
  createdAt: Date;
};

export interface FamilyFields {
  firstName: string;
  lastName: string;
  dob: string;
  relationship: string;
}

const familyOfUser = (db: DbOrTx) =>
  prepared(db, 'members_family_of_user', (d) =>
    d
      .select(familyColumns)
      .from(familyMembers)
      .innerJoin(participants, eq(participants.id, familyMembers.participantId))
      .where(eq(participants.userId, sql.placeholder('userId')))
      .orderBy(asc(familyMembers.createdAt), asc(familyMembers.id))
      .prepare('members_family_of_user'),
  );

const familyOfParticipant = (db: DbOrTx) =>
  prepared(db, 'members_family_of_participant', (d) =>
    d
      .select(familyColumns)
      .from(familyMembers)
      .where(eq(familyMembers.participantId, sql.placeholder('participantId')))
      .orderBy(asc(familyMembers.createdAt), asc(familyMembers.id))
      .prepare('members_family_of_participant'),
  );

/**
 * GET /api/family-members in one prepared statement: by the participant the session already
 * knows (one index range), else through the user's participant row (a join; none when the user
 * is not enrolled). The join costs the embedded database about as much again as the rest.
 */
export async function listFamilyOfUser(db: DbOrTx, userId: string, participantId?: string | null): Promise<FamilyMemberRow[]> {
  return participantId ? familyOfParticipant(db).execute({ participantId }) : familyOfUser(db).execute({ userId });
}

/** The caller's side of a family write: who they are, for the row and for the audit trail. */
export interface FamilyWriter {
  userId: string;
  companyId: string | null;
  now: Date;
}

/** A family member as the write statements return it (snake case, dates as text). */
interface WrittenRow {
  id: string;
  first_name: string;
  last_name: string;
  dob: string;
  relationship: string;
  created_at: string;
}

const WRITTEN_COLUMNS = sql.raw(`id, first_name, last_name, dob::text as dob, relationship, to_json(created_at) #>> '{}' as created_at`);

function fromWritten(row: WrittenRow): FamilyMemberRow {
  return { id: row.id, firstName: row.first_name, lastName: row.last_name, dob: row.dob, relationship: row.relationship, createdAt: new Date(row.created_at) };
}

const p = (name: string) => sql.placeholder(name);
const writerValues = (writer: FamilyWriter) => ({ userId: writer.userId, companyId: writer.companyId, now: writer.now.toISOString() });

/** The audit event of a family write, in the write's own statement (`eventsFrom`): `source` is the written rows' CTE. */
const eventFrom = (source: string, type: string, payload: string) =>
  eventsFrom(source, { type, actorUserId: p('userId'), companyId: p('companyId'), payload: sql.raw(payload), at: p('now') });

/**
 * A family member added in one statement, which is its own transaction: the stored count goes
 * up by one only while it is under `max` (an UPDATE re-reads the row a concurrent write has
 * just changed, so the limit holds however many adds race), the row is inserted for that
 * participant, and the audit event with it. Concurrent writes of one member queue on the
 * participant row, locked first, as the sign-in's lock order expects (tests/api/postgres/
 * lock-order.test.ts). `enrolled` tells a refusal at the limit from a user who has no
 * participant row yet (`enrol`, then again).
 */
const addStatement = (db: DbOrTx) =>
  preparedStatement<{ enrolled: boolean } & Partial<WrittenRow>>(
    db,
    'members_family_add',
    () => sql`with counted as (
      update participants set family_member_count = family_member_count + 1
      where user_id = ${p('userId')} and family_member_count < ${p('max')}::int
      returning id
    ), added as (
      insert into family_members (participant_id, first_name, last_name, dob, relationship, created_at)
      select id, ${p('firstName')}, ${p('lastName')}, ${p('dob')}::date, ${p('relationship')}, ${p('now')}::timestamptz from counted
      returning ${WRITTEN_COLUMNS}
    ), recorded as (
      ${eventFrom('added', 'family.created', `jsonb_build_object('familyMemberId', id, 'relationship', relationship)`)}
    )
    select exists (select 1 from participants where user_id = ${p('userId')}) as enrolled, added.*
    from (select 1) as one left join added on true`,
  );

export type AddOutcome = { added: FamilyMemberRow } | { added?: undefined; enrolled: boolean };

export async function addFamilyMember(db: DbOrTx, writer: FamilyWriter, fields: FamilyFields, max: number): Promise<AddOutcome> {
  const [row] = await addStatement(db).execute({ ...fields, ...writerValues(writer), max });
  if (row?.id) return { added: fromWritten(row as WrittenRow) };
  return { enrolled: row?.enrolled ?? false };
}

/** Enrols a user who has no participant row yet (every sign-in enrols: this is for one who somehow was not). */
export async function enrol(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db.insert(participants).values({ userId, enrolledAt: now }).onConflictDoNothing({ target: participants.userId });
}

const updateStatement = (db: DbOrTx) =>
  preparedStatement<WrittenRow>(
    db,
    'members_family_update',
    () => sql`with changed as (
      update family_members set first_name = ${p('firstName')}, last_name = ${p('lastName')}, dob = ${p('dob')}::date, relationship = ${p('relationship')}
      where id = ${p('id')}::uuid and participant_id = (select id from participants where user_id = ${p('userId')})
      returning ${WRITTEN_COLUMNS}
    ), recorded as (
      ${eventFrom('changed', 'family.updated', `jsonb_build_object('familyMemberId', id, 'relationship', relationship)`)}
    )
    select * from changed`,
  );

/** A member's own family member changed, with its audit event, in one statement; undefined when they have none by that id. */
export async function updateFamilyMember(db: DbOrTx, writer: FamilyWriter, id: string, fields: FamilyFields): Promise<FamilyMemberRow | undefined> {
  const [row] = await updateStatement(db).execute({ ...fields, ...writerValues(writer), id });
  return row ? fromWritten(row) : undefined;
}

/**
 * A member's own family member removed in one statement: the participant row locked before the
 * family row (the same order as an add; `locked` runs when the delete first checks a row by that
 * id, before it deletes it), the row deleted, the count down by one, the audit event. Of two
 * removals of one row, the second finds it gone once the first commits, and changes nothing.
 */
const removeStatement = (db: DbOrTx) =>
  preparedStatement<{ id: string }>(
    db,
    'members_family_remove',
    () => sql`with locked as (
      select id from participants where user_id = ${p('userId')} for no key update
    ), removed as (
      delete from family_members where id = ${p('id')}::uuid and participant_id = (select id from locked)
      returning id, participant_id
    ), counted as (
      update participants set family_member_count = family_member_count - 1 where id = (select participant_id from removed)
    ), recorded as (
      ${eventFrom('removed', 'family.deleted', `jsonb_build_object('familyMemberId', id)`)}
    )
    select id from removed`,
  );

export async function removeFamilyMember(db: DbOrTx, writer: FamilyWriter, id: string): Promise<boolean> {
  return (await removeStatement(db).execute({ ...writerValues(writer), id })).length > 0;
}

const profileOf = (db: DbOrTx) =>
  prepared(db, 'members_profile', (d) =>
    d
      .select({
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        company: companies.name,
        lhmpId: users.lhmpId,
        enrolledAt: participants.enrolledAt,
        familyMemberCount: participants.familyMemberCount,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(participants, eq(participants.userId, users.id))
      .where(eq(users.id, sql.placeholder('userId')))
      .limit(1)
      .prepare('members_profile'),
  );

export async function findProfile(db: DbOrTx, userId: string) {
  const [row] = await profileOf(db).execute({ userId });
  return row;
}
