import type { Db, DbOrTx } from '#db/client';
import { ConfigError } from '../../config';
import { announceChange } from '../../lib/notify';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordEvent } from '../audit/audit.repository';
import { setEnrolmentMode } from '../enrolment/enrolment.repository';
import * as repo from './auth.repository';
import { ALL_TOKEN_PURPOSES, expireUnusedTokens, markEmailVerified } from './links.repository';
import { clearMfa } from './mfa.repository';
import { hashPassword, passwordProblem } from './passwords';

const BOOTSTRAP_NAME = { firstName: 'Programme', lastName: 'Administrator' };

/**
 * Creates the configured administrator, or promotes and re-passwords an existing account
 * (ADMIN_EMAIL / ADMIN_PASSWORD at start). A re-password revokes the account's sessions.
 * The address counts as verified: the operator who sets ADMIN_EMAIL vouches for it, and an
 * account someone else registered under it first loses here everything that let that person
 * in: the password, the sessions, the second factor (secret, recovery codes, sign-in
 * challenges; the administrator sets a new one up at the first Admin Access) and every link
 * still unused (a reset link asked for earlier would set the administrator's password).
 */
export async function ensureAdmin(
  db: Db,
  input: { email: string; password: string; companyName: string; brandName: string },
  now = new Date(),
): Promise<'created' | 'promoted'> {
  const email = input.email.trim().toLowerCase();
  const problem = passwordProblem(input.password, { email, ...BOOTSTRAP_NAME, company: input.companyName, brand: input.brandName });
  // A configuration error: the server stops at start with the reason (exit code 78).
  if (problem) throw new ConfigError([`ADMIN_PASSWORD: ${problem}`]);
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; ; attempt += 1) {
    try {
      let promoted: string | undefined;
      const outcome = await db.transaction(async (tx) => {
        const existing = await repo.findUserIdByEmail(tx, email);
        if (existing) {
          promoted = existing.id;
          await repo.updateUserRole(tx, existing.id, 'admin', passwordHash);
          await repo.revokeUserSessions(tx, existing.id, now);
          await clearMfa(tx, existing.id);
          await expireUnusedTokens(tx, existing.id, ALL_TOKEN_PURPOSES, now);
          await markEmailVerified(tx, existing.id, now);
          await recordEvent(tx, { type: 'admin.role.granted', companyId: existing.companyId, payload: { userId: existing.id, via: 'bootstrap', factorReset: true }, at: now });
          await keepAdminEmployerClosed(tx, await repo.findCompanyByName(tx, input.companyName), now);
          return 'promoted' as const;
        }
        const company = await repo.findOrCreateCompany(tx, input.companyName, 'roster');
        await keepAdminEmployerClosed(tx, company, now);
        const lhmpId = await repo.lowestFreeLhmpId(tx);
        if (!lhmpId) throw new Error('No free programme ID left for the administrator');
        const { id } = await repo.insertUser(tx, { email, ...BOOTSTRAP_NAME, companyId: company.id, lhmpId, passwordHash, role: 'admin', createdAt: now, emailVerifiedAt: now });
        await recordEvent(tx, { type: 'admin.role.granted', companyId: company.id, payload: { userId: id, via: 'bootstrap' }, at: now });
        return 'created' as const;
      });
      // Its sessions ended: running instances forget them too.
      if (outcome === 'promoted' && promoted) await announceChange(db, { userId: promoted });
      return outcome;
    } catch (err) {
      // A member registered the same programme ID or email in between: look again.
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/**
 * The administrators' employer (ADMIN_COMPANY) takes no self-registration: it is created in
 * roster mode with an empty roster, and one found open (created before this rule) is switched
 * to roster mode, audited. Suggestions never offer it either (enrolment.service).
 */
async function keepAdminEmployerClosed(tx: DbOrTx, company: repo.CompanyRow | undefined, now: Date): Promise<void> {
  if (!company || company.enrolmentMode === 'roster') return;
  await setEnrolmentMode(tx, company.id, 'roster');
  await recordEvent(tx, { type: 'admin.enrolment_mode.changed', companyId: company.id, payload: { from: company.enrolmentMode, to: 'roster', via: 'bootstrap' }, at: now });
}

/** Grants or revokes the admin role (operator CLI); any earlier step-up ends either way. */
export async function setAdminRole(db: Db, email: string, grant: boolean, now = new Date()): Promise<boolean> {
  const userId = await db.transaction(async (tx) => {
    const user = await repo.findUserIdByEmail(tx, email.trim().toLowerCase());
    if (!user) return undefined;
    await repo.updateUserRole(tx, user.id, grant ? 'admin' : 'member');
    await repo.clearAdminElevation(tx, user.id);
    await recordEvent(tx, { type: grant ? 'admin.role.granted' : 'admin.role.revoked', companyId: user.companyId, payload: { userId: user.id, via: 'cli' }, at: now });
    return user.id;
  });
  // After the commit: every instance (the CLI publishes on the servers' channel) refuses the old role at once.
  if (userId) await announceChange(db, { userId });
  return userId !== undefined;
}
