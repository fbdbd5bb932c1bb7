import { and, eq, gt, isNull, lte, ne, not, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '#db/client';
import { companies, loginAudits, participants, serverKeys, sessions, users } from '#db/schema';
import type { EnrolmentMode } from '#shared/schemas/enrolment';
import { prepared } from '../../lib/prepared';
import { IDLE_TIMEOUT_MS, sessionStatus } from './session-rules';

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
  language: users.language,
};

/** Collapses inner white space: the name an employer is created with. */
export function normaliseCompanyName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

export interface CompanyRow {
  id: string;
  name: string;
  enrolmentMode: EnrolmentMode;
}

export const companyColumns = { id: companies.id, name: companies.name, enrolmentMode: companies.enrolmentMode };

/**
 * The employer named like `rawName`: its name key (SQL function employer_name_key: case,
 * punctuation, repeated spaces and the suffixes Co/Company/Inc/LLC/Ltd/Corp ignored) equals
 * that of `rawName`. The one place that comparison is written.
 */
export const companyNamed = (rawName: string) => sql`${companies.nameKey} = employer_name_key(${normaliseCompanyName(rawName)})`;

export async function findCompanyByName(db: DbOrTx, rawName: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select(companyColumns).from(companies).where(companyNamed(rawName)).limit(1);
  return row;
}

/** Creates the employer; undefined when one with the same name key exists (or is being created). */
export async function insertCompany(db: DbOrTx, rawName: string, enrolmentMode: EnrolmentMode): Promise<CompanyRow | undefined> {
  // No conflict target: the name key and both older name indexes all mean "this employer
  // exists", and a registration racing another for a new employer must not fail.
  const [row] = await db
    .insert(companies)
    .values({ name: normaliseCompanyName(rawName), enrolmentMode })
    .onConflictDoNothing()
    .returning(companyColumns);
  return row;
}

/**
 * Finds the employer by name key, or creates it with `enrolmentMode` (ENROLMENT_MODE for
 * employers created from now on). Two registrations creating the same new employer at once
 * both end up with the one row: the loser's insert does nothing and it reads the winner's.
 */
export async function findOrCreateCompany(db: DbOrTx, rawName: string, enrolmentMode: EnrolmentMode = 'open'): Promise<CompanyRow> {
  const found = (await findCompanyByName(db, rawName)) ?? (await insertCompany(db, rawName, enrolmentMode)) ?? (await findCompanyByName(db, rawName));
  if (!found) throw new Error('company upsert returned no row');
  return found;
}

export async function insertUser(db: DbOrTx, user: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(user).returning({ id: users.id });
  return row!;
}

/** Whether an account already has this email, and whether one has this programme ID (two index probes). */
export async function takenIdentifiers(db: DbOrTx, email: string, lhmpId: string): Promise<{ email: boolean; lhmpId: boolean }> {
  const result = await db.execute(sql`
    select exists (select 1 from ${users} where ${users.email} = ${email}) as email,
           exists (select 1 from ${users} where ${users.lhmpId} = ${lhmpId}) as "lhmpId"`);
  return rowsOf<{ email: boolean; lhmpId: boolean }>(result)[0] ?? { email: false, lhmpId: false };
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

/**
 * Counts `attempts` refused attempts under one `dedupKey` (caller, window and result): the
 * first writes the row, later ones add to its count and move `lastAttemptAt` on. Additive, so
 * instances (and flushes racing the first write) may do it in any order.
 */
export async function addRefusedAttempts(db: DbOrTx, audit: typeof loginAudits.$inferInsert & { dedupKey: string; attempts: number; lastAttemptAt: Date }) {
  await db
    .insert(loginAudits)
    .values(audit)
    .onConflictDoUpdate({
      target: loginAudits.dedupKey,
      set: {
        attempts: sql`${loginAudits.attempts} + excluded.attempts`,
        lastAttemptAt: sql`greatest(${loginAudits.lastAttemptAt}, excluded.last_attempt_at)`,
      },
    });
}

export async function insertSession(db: DbOrTx, session: typeof sessions.$inferInsert) {
  const [row] = await db.insert(sessions).values(session).returning();
  return row!;
}

/**
 * The shared secret called `name` (hex): `fresh` becomes it when there is none yet (an instance
 * inserting at the same moment finds the first one's: the insert does nothing on a conflict).
 */
export async function sharedKey(db: DbOrTx, name: string, fresh: string): Promise<string> {
  await db.insert(serverKeys).values({ name, secret: fresh }).onConflictDoNothing({ target: serverKeys.name });
  const [row] = await db.select({ secret: serverKeys.secret }).from(serverKeys).where(eq(serverKeys.name, name));
  if (!row) throw new Error(`server key ${name} could not be read`);
  return row.secret;
}

/** Whether a session opened with an unsigned token (sessions.signed) is live at `now`: not revoked, within both limits. */
export async function unsignedSessionLive(db: DbOrTx, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(not(sessions.signed), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, new Date(now.getTime() - IDLE_TIMEOUT_MS))))
    .limit(1);
  return row !== undefined;
}

const sessionByTokenHash = (db: DbOrTx) =>
  prepared(db, 'auth_session_by_token_hash', (d) =>
    d
      .select({
        session: sessions,
        user: sessionUserColumns,
        // For GET /api/auth/me (verify banner, two-step sign-in), in the same query; the
        // participant (null until enrolled; never changes once there) for the family routes.
        account: { emailVerifiedAt: users.emailVerifiedAt, mfaEnabledAt: users.mfaEnabledAt, participantId: participants.id },
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(participants, eq(participants.userId, users.id))
      .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
      .limit(1)
      .prepare('auth_session_by_token_hash'),
  );

/** The session behind a token hash, with its user and account flags: one prepared statement. */
export async function findSessionByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await sessionByTokenHash(db).execute({ tokenHash });
  return row;
}

const touch = (db: DbOrTx) =>
  prepared(db, 'auth_touch_session', (d) =>
    d
      .update(sessions)
      .set({ lastSeenAt: sql`${sql.placeholder('now')}::timestamptz` })
      .where(and(eq(sessions.id, sql.placeholder('id')), lte(sessions.lastSeenAt, sql.placeholder('due'))))
      .returning({ id: sessions.id })
      .prepare('auth_touch_session'),
  );

/**
 * Slides the idle window: lastSeenAt = now, only if it is not later than `due` (now less the
 * touch interval). Of several instances touching one session at once, one writes; false for
 * the others (the row was touched meanwhile), so a session costs one write a minute at most.
 */
export async function touchSession(db: DbOrTx, sessionId: string, now: Date, due: Date): Promise<boolean> {
  const rows = await touch(db).execute({ id: sessionId, now: now.toISOString(), due: due.toISOString() });
  return rows.length === 1;
}

/** Sessions that still let someone in: not revoked, not past their absolute or idle expiry. */
const liveAt = (now: Date) =>
  and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, new Date(now.getTime() - IDLE_TIMEOUT_MS)));

/** The live sessions of a user (a where clause, for listing them). */
export const liveSessionsOf = (userId: string, now: Date) => and(eq(sessions.userId, userId), liveAt(now));

/**
 * Ends one live session; with `userId`, only if it is theirs (a member signing out one of
 * their devices). True when this call ended it; false when it was unknown, someone else's, or
 * had already ended (of two requests racing, one gets true).
 */
export async function revokeSession(db: DbOrTx, sessionId: string, now: Date, userId?: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), liveAt(now), ...(userId ? [eq(sessions.userId, userId)] : [])))
    .returning({ id: sessions.id });
  return rows.length === 1;
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

/**
 * Ends every session of a user not yet revoked (a new password, a promotion), or every one
 * but `exceptSessionId` (the device that changed the password). Returns how many of them were
 * live (the number a member is told was signed out); expired ones are revoked too, whatever
 * clock they were judged by.
 */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date, exceptSessionId?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ...(exceptSessionId ? [ne(sessions.id, exceptSessionId)] : [])))
    .returning({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt });
  return rows.filter((row) => sessionStatus({ ...row, revokedAt: null }, now) === 'active').length;
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
