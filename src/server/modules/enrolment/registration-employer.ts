import type { DbOrTx } from '#db/client';
import { messages } from '#shared/messages/index';
import type { EnrolmentMode } from '#shared/schemas/enrolment';
import { AppError } from '../../lib/app-error';
import { nameMatchKey } from '../../lib/name-match-key';
import { type CompanyRow, insertCompany } from '../auth/auth.repository';
import { findCompanyWithListing } from './enrolment.repository';

const notListed = () => new AppError('validation', messages.enrolment.server.notListed, { lhmpId: messages.enrolment.server.notListed });

interface Applicant {
  company: string;
  lhmpId: string;
  firstName: string;
  lastName: string;
}

/**
 * The employer a new member joins, inside the registration's transaction.
 * - An existing `open` employer: joined, as the spec's find-or-create always did.
 * - An existing `roster` employer: joined only when a roster row has this programme ID and
 *   these first and last names (compared by nameMatchKey).
 * - No such employer: created (`open`) when ENROLMENT_MODE is `open`. When it is `roster`, a
 *   new employer would have an empty roster nobody can match, so none is created: the
 *   administrators add employers and import their rosters.
 * Every refusal is the same 400 on `lhmpId` after the same single query, whether the employer
 * or the row is missing: nobody learns from it who is on a roster. (The caller has already
 * answered a taken email or programme ID, before this, whatever the roster says.)
 * Queries: one for an existing employer; two (the lookup, the insert) for a new one; a third
 * only when another transaction created that employer in between.
 */
export async function employerForRegistration(db: DbOrTx, applicant: Applicant, newEmployerMode: EnrolmentMode): Promise<CompanyRow> {
  const keys = { lhmpId: applicant.lhmpId, firstNameKey: nameMatchKey(applicant.firstName), lastNameKey: nameMatchKey(applicant.lastName) };
  const admitted = (company: CompanyRow & { listed: boolean }): CompanyRow => {
    if (company.enrolmentMode === 'open' || company.listed) return { id: company.id, name: company.name, enrolmentMode: company.enrolmentMode };
    throw notListed();
  };
  const found = await findCompanyWithListing(db, applicant.company, keys);
  if (found) return admitted(found);
  if (newEmployerMode === 'roster') throw notListed();
  const created = await insertCompany(db, applicant.company, 'open');
  if (created) return created;
  // Created in between by another registration or an administrator (perhaps in roster mode):
  // that employer decides, as if it had been there all along.
  const raced = await findCompanyWithListing(db, applicant.company, keys);
  if (!raced) throw new Error('employer insert conflicted but no employer has that name key');
  return admitted(raced);
}
