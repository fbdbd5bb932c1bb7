import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '#db/client';
import { companies, loginAudits, participants, sessions, users } from '#db/schema';

export type LoginResult = (typeof loginAudits.$inferInsert)['result'];

const sessionUserColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  lhmpId: users.lhmpId,
  company: companies.name,
  companyId: users.companyId,
  role: users.role,
};

/** Collapses inner white space; lookups compare lower(trim(name)) like the unique index. */
export function normaliseCompanyName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

export async function findOrCreateCompany(db: DbOrTx, rawName: string): Promise<{ id: string; name: string }> {
  const name = normaliseCompanyName(rawName);
  await db.execute(sql`insert into companies (name) values (${name}) on conflict do nothing`);
  const [row] = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(sql`lower(trim(${companies.name})) = lower(${name})`)
    .limit(1);
  if (!row) throw new Error('company upsert returned no row');
  return row;
}

export async function insertUser(db: DbOrTx, user: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(user).returning({ id: users.id });
  return row!;
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ ...sessionUserColumns, passwordHash: users.passwordHash })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.email, email))
    .limit(1);
  return row;
}

export async function findSessionUser(db: DbOrTx, userId: string) {
  const [row] = await db
    .select(sessionUserColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** Enrols at first sign-in and stamps lastLoginAt, in one statement. */
export async function recordSuccessfulLogin(db: DbOrTx, userId: string, now: Date) {
  await db
    .insert(participants)
    .values({ userId, enrolledAt: now, lastLoginAt: now })
    .onConflictDoUpdate({ target: participants.userId, set: { lastLoginAt: now } });
}

export async function insertLoginAudit(db: DbOrTx, audit: typeof loginAudits.$inferInsert) {
  await db.insert(loginAudits).values(audit);
}

export async function insertSession(db: DbOrTx, session: typeof sessions.$inferInsert) {
  const [row] = await db.insert(sessions).values(session).returning();
  return row!;
}

export async function findSessionByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      session: sessions,
      user: sessionUserColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function touchSession(db: DbOrTx, sessionId: string, now: Date) {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: DbOrTx, sessionId: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), sql`${sessions.revokedAt} is null`));
}

export async function elevateSession(db: DbOrTx, sessionId: string, now: Date) {
  await db.update(sessions).set({ adminElevatedAt: now }).where(eq(sessions.id, sessionId));
}

/** The lowest programme ID (LQ00001-LQ99999) nobody holds; members choose their own, so gaps count. */
export async function lowestFreeLhmpId(db: DbOrTx): Promise<string | undefined> {
  const result = await db.execute(sql`
    select 'LQ' || lpad(n::text, 5, '0') as lhmp_id
    from generate_series(1, 99999) as n
    where not exists (select 1 from ${users} u where u.lhmp_id = 'LQ' || lpad(n::text, 5, '0'))
    order by n
    limit 1`);
  return rowsOf<{ lhmp_id: string }>(result)[0]?.lhmp_id;
}

export async function findUserIdByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select({ id: users.id, companyId: users.companyId }).from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function updateUserRole(db: DbOrTx, userId: string, role: 'member' | 'admin', passwordHash?: string) {
  await db.update(users).set({ role, ...(passwordHash ? { passwordHash } : {}) }).where(eq(users.id, userId));
}

/** Ends every admin step-up of a user (their role changed); they must step up again. */
export async function clearAdminElevation(db: DbOrTx, userId: string) {
  await db.update(sessions).set({ adminElevatedAt: null }).where(eq(sessions.userId, userId));
}

/** Revokes every live session of a user (their password changed). */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), sql`${sessions.revokedAt} is null`));
}

/**
 * Deletes sessions that ended before `before`: expired, revoked, or idle for longer than the
 * idle limit (a session silent since `before` is long dead).
 */
export async function deleteEndedSessions(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(sql`${sessions.expiresAt} < ${before} or ${sessions.revokedAt} < ${before} or ${sessions.lastSeenAt} < ${before}`)
    .returning({ id: sessions.id });
  return rows.length;
}
