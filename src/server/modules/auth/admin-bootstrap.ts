import type { Db } from '#db/client';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordEvent } from '../audit/audit.repository';
import * as repo from './auth.repository';
import { hashPassword, isCommonPassword } from './passwords';

/**
 * Creates the configured administrator, or promotes and re-passwords an existing account
 * (ADMIN_EMAIL / ADMIN_PASSWORD at start). A re-password revokes the account's sessions.
 */
export async function ensureAdmin(
  db: Db,
  input: { email: string; password: string; companyName: string },
  now = new Date(),
): Promise<'created' | 'promoted'> {
  if (isCommonPassword(input.password)) throw new Error('ADMIN_PASSWORD is too common; choose another');
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => {
        const existing = await repo.findUserIdByEmail(tx, email);
        if (existing) {
          await repo.updateUserRole(tx, existing.id, 'admin', passwordHash);
          await repo.revokeUserSessions(tx, existing.id, now);
          await recordEvent(tx, { type: 'admin.role.granted', companyId: existing.companyId, payload: { userId: existing.id, via: 'bootstrap' }, at: now });
          return 'promoted' as const;
        }
        const company = await repo.findOrCreateCompany(tx, input.companyName);
        const lhmpId = await repo.lowestFreeLhmpId(tx);
        if (!lhmpId) throw new Error('No free programme ID left for the administrator');
        const { id } = await repo.insertUser(tx, { email, firstName: 'Programme', lastName: 'Administrator', companyId: company.id, lhmpId, passwordHash, role: 'admin', createdAt: now });
        await recordEvent(tx, { type: 'admin.role.granted', companyId: company.id, payload: { userId: id, via: 'bootstrap' }, at: now });
        return 'created' as const;
      });
    } catch (err) {
      // A member registered the same programme ID or email in between: look again.
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/** Grants or revokes the admin role (operator CLI); any earlier step-up ends either way. */
export async function setAdminRole(db: Db, email: string, grant: boolean, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const user = await repo.findUserIdByEmail(tx, email.trim().toLowerCase());
    if (!user) return false;
    await repo.updateUserRole(tx, user.id, grant ? 'admin' : 'member');
    await repo.clearAdminElevation(tx, user.id);
    await recordEvent(tx, { type: grant ? 'admin.role.granted' : 'admin.role.revoked', companyId: user.companyId, payload: { userId: user.id, via: 'cli' }, at: now });
    return true;
  });
}
