import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { companies, sessions, users } from '#db/schema';
import type { Language } from '#shared/i18n/languages';
import { liveSessionsOf } from '../auth/auth.repository';

/** What the account flows need to know about a person: who to write to, what a password may not contain. */
const accountUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  companyId: users.companyId,
  company: companies.name,
  emailVerifiedAt: users.emailVerifiedAt,
  passwordHash: users.passwordHash,
  language: users.language,
};

export async function findAccountUser(db: DbOrTx, userId: string) {
  const [row] = await db
    .select(accountUserColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export async function setPassword(db: DbOrTx, userId: string, passwordHash: string, now: Date) {
  await db.update(users).set({ passwordHash, passwordChangedAt: now }).where(eq(users.id, userId));
}

export async function setLanguage(db: DbOrTx, userId: string, language: Language) {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

export async function listLiveSessions(db: DbOrTx, userId: string, now: Date) {
  return db
    .select({ id: sessions.id, device: sessions.device, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(liveSessionsOf(userId, now))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}
