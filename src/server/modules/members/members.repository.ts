import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { companies, familyMembers, participants, users } from '#db/schema';
import { prepared } from '../../lib/prepared';

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

export async function findParticipantId(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: participants.id }).from(participants).where(eq(participants.userId, userId)).limit(1);
  return row?.id;
}

/**
 * The caller's participant row, locked for the rest of the transaction so concurrent family
 * writes of one member queue up (the limit and the count stay exact). FOR NO KEY UPDATE: writes
 * queue up just the same, and the foreign-key checks of rows naming the participant are not
 * blocked. Every sign-in enrols, so the row is there and this is one statement; a user somehow
 * not enrolled yet is enrolled here first (two writes of theirs at once: the second insert waits
 * for the first and does nothing, then its lock waits its turn).
 */
export async function lockParticipant(tx: DbOrTx, userId: string, now: Date): Promise<string> {
  const locked = async () => {
    const [row] = await tx
      .select({ id: participants.id })
      .from(participants)
      .where(eq(participants.userId, userId))
      .for('no key update')
      .limit(1);
    return row?.id;
  };
  const enrolled = await locked();
  if (enrolled) return enrolled;
  await tx.insert(participants).values({ userId, enrolledAt: now }).onConflictDoNothing({ target: participants.userId });
  const id = await locked();
  if (!id) throw new Error('participant upsert returned no row');
  return id;
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

export async function countFamily(db: DbOrTx, participantId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(familyMembers).where(eq(familyMembers.participantId, participantId));
  return row?.n ?? 0;
}

export async function insertFamilyMember(
  db: DbOrTx,
  participantId: string,
  fields: FamilyFields,
  now: Date,
): Promise<FamilyMemberRow> {
  const [row] = await db
    .insert(familyMembers)
    .values({ participantId, ...fields, createdAt: now })
    .returning(familyColumns);
  return row!;
}

export async function updateFamilyMember(
  db: DbOrTx,
  participantId: string,
  id: string,
  fields: FamilyFields,
): Promise<FamilyMemberRow | undefined> {
  const [row] = await db
    .update(familyMembers)
    .set(fields)
    .where(and(eq(familyMembers.id, id), eq(familyMembers.participantId, participantId)))
    .returning(familyColumns);
  return row;
}

export async function deleteFamilyMember(db: DbOrTx, participantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(familyMembers)
    .where(and(eq(familyMembers.id, id), eq(familyMembers.participantId, participantId)))
    .returning({ id: familyMembers.id });
  return rows.length > 0;
}

/**
 * Sets the stored count to the real number of rows, in one statement (called in the write's
 * transaction, after lockParticipant, so concurrent writes cannot interleave).
 */
export async function syncFamilyCount(db: DbOrTx, participantId: string): Promise<void> {
  await db
    .update(participants)
    .set({
      familyMemberCount: sql`(select count(*)::int from ${familyMembers} where ${familyMembers.participantId} = ${participantId})`,
    })
    .where(eq(participants.id, participantId));
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
