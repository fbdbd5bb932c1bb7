import type { Db } from '#db/client';
import { messages } from '#shared/messages/index';
import {
  ADMIN_SHORT_SEARCH_COUNT_STEP,
  type EmployeeDetailResponse,
  type EmployeeListQueryParsed,
  type EmployeeListResponse,
  type EmployerDetailResponse,
  type EmployerListQueryParsed,
  type EmployerListResponse,
} from '#shared/schemas/admin';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import { recordEvent } from '../audit/audit.repository';
import * as repo from './admin.repository';

const m = messages.admin.server;

export interface AdminDeps {
  db: Db;
  clock: Clock;
}

export interface AdminActor {
  id: string;
  companyId: string;
}

/**
 * A short term is first looked for in at most this many rows of the employer per match it may
 * count (8,000 for a count up to 1,000): a term that matches one row in eight or more fills its
 * count there; one that does not is read further (below) or looked up by its characters and pairs.
 */
const SHORT_SEARCH_READ_FACTOR = 8;
/**
 * A first read that found at least this share of the count is read again in list order, further
 * (twice the rows its rate of matches says the count needs, at most about 21,000 for a count of
 * 1,000), instead of looking the term up by its grams, which would sort every candidate: terms
 * whose matches sort late ("u": 935 of the first 8,000, 12,969 in all). The second read starts
 * from the top again: the first 8,000 rows come from the index alone (about 5 ms).
 */
const SHORT_SEARCH_READ_ON_SHARE = 0.75;

const pageParams = (query: EmployeeListQueryParsed, offset: number) => ({ status: query.status, limit: query.size, offset });

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The admin area's reads: employers, their employees, one employee's record (audited). */
export function createAdminService(deps: AdminDeps) {
  const { db, clock } = deps;

  async function employerOr404(companyId: string) {
    const employer = await repo.findEmployer(db, companyId);
    if (!employer) throw new AppError('not_found', m.employerNotFound);
    return employer;
  }

  return {
    async listEmployers(query: EmployerListQueryParsed): Promise<EmployerListResponse> {
      const rows = await repo.listEmployers(db, query);
      return {
        employers: rows.map((r) => ({
          id: r.id,
          name: r.name,
          employees: r.employees,
          participants: r.participants,
          familyMembers: r.familyMembers,
          lastActivity: iso(r.lastActivityAt),
        })),
      };
    },

    async getEmployer(companyId: string): Promise<EmployerDetailResponse> {
      const e = await employerOr404(companyId);
      return {
        employer: { id: e.id, name: e.name, employees: e.employees, participants: e.participants, familyMembers: e.familyMembers },
      };
    },

    /**
     * One page of an employer's employees. Without a search the total comes from the
     * maintained aggregates; with one, the page and its total come from one statement. The
     * total of a term with a trigram is exact; a shorter term's count stops past the first
     * multiple of ADMIN_SHORT_SEARCH_COUNT_STEP that covers the page, and then says so
     * (`totalIsCapped`: "more than N"). A short term is first looked for in the employer's first
     * rows in list order (a term many match fills its count there); one that does not is then
     * looked up by its characters and pairs, so a term few match does not read a large employer
     * row by row (docs/decisions/admin-search-short-terms.md). A page past
     * the end is an empty page, not an error. Every page served is written to the audit trail.
     */
    async listEmployees(actor: AdminActor, companyId: string, query: EmployeeListQueryParsed): Promise<EmployeeListResponse> {
      const employer = await employerOr404(companyId);
      const offset = (query.page - 1) * query.size;
      const inStatus =
        query.status === 'verified'
          ? employer.verifiedEmployees
          : query.status === 'enrolled'
            ? employer.participants
            : query.status === 'not_enrolled'
              ? Math.max(0, employer.employees - employer.participants)
              : employer.employees;
      let total: number;
      let totalIsCapped = false;
      let rows: repo.EmployeeRow[];
      if (query.search && repo.hasTrigram(query.search)) {
        const found = await repo.searchEmployees(db, companyId, { ...pageParams(query, offset), search: query.search, reach: { path: 'trigrams' } });
        total = found.total;
        rows = found.rows;
      } else if (query.search) {
        const countUpTo = Math.ceil((offset + query.size) / ADMIN_SHORT_SEARCH_COUNT_STEP) * ADMIN_SHORT_SEARCH_COUNT_STEP;
        const search = { ...pageParams(query, offset), search: query.search };
        const inListOrder = (readAtMost: number) =>
          repo.searchEmployees(db, companyId, { ...search, reach: { path: 'list', countUpTo, readAtMost: readAtMost < inStatus ? readAtMost : undefined } });
        let read = countUpTo * SHORT_SEARCH_READ_FACTOR;
        let found = await inListOrder(read);
        // Most of the count found but not all (matches that thin out later in the list, "u"): read
        // again, twice as far as the rate so far says the whole count needs.
        if (read < inStatus && found.total <= countUpTo && found.total >= countUpTo * SHORT_SEARCH_READ_ON_SHARE) {
          read = Math.ceil((2 * read * (countUpTo + 1)) / found.total);
          found = await inListOrder(read);
        }
        if (read < inStatus && found.total <= countUpTo) {
          found = await repo.searchEmployees(db, companyId, { ...search, reach: { path: 'grams', countUpTo } });
        }
        totalIsCapped = found.total > countUpTo;
        total = totalIsCapped ? countUpTo : found.total;
        rows = found.rows;
      } else {
        total = inStatus;
        rows = offset < total ? await repo.listEmployees(db, companyId, { status: query.status, limit: query.size, offset }) : [];
      }
      // A page of names, emails and programme IDs is member data too: record who looked.
      await recordEvent(db, {
        type: 'admin.employees.listed',
        actorUserId: actor.id,
        companyId,
        payload: { search: query.search ?? null, status: query.status ?? null, page: query.page, returned: rows.length },
        at: clock(),
      });
      return {
        employees: rows.map((r) => ({
          id: r.id,
          firstName: r.firstName,
          lastName: r.lastName,
          email: r.email,
          lhmpId: r.lhmpId,
          lastLogin: iso(r.lastLoginAt),
          emailVerified: r.emailVerifiedAt !== null,
          enrolled: r.participantId !== null,
          familyMemberCount: r.familyMemberCount ?? 0,
        })),
        pagination: { total, page: query.page, totalPages: Math.ceil(total / query.size), size: query.size, totalIsCapped },
      };
    },

    /** An employee's record and family; every look is written to the audit trail. */
    async getEmployee(actor: AdminActor, userId: string): Promise<EmployeeDetailResponse> {
      const e = await repo.findEmployee(db, userId);
      if (!e) throw new AppError('not_found', m.employeeNotFound);
      const family = e.participantId ? await repo.listFamilyMembers(db, e.participantId) : [];
      await recordEvent(db, {
        type: 'admin.employee.viewed',
        actorUserId: actor.id,
        companyId: e.companyId,
        payload: { employeeUserId: e.id },
        at: clock(),
      });
      return {
        employee: {
          id: e.id,
          firstName: e.firstName,
          lastName: e.lastName,
          email: e.email,
          lhmpId: e.lhmpId,
          companyId: e.companyId,
          companyName: e.companyName,
          createdAt: e.createdAt.toISOString(),
          emailVerifiedAt: iso(e.emailVerifiedAt),
          enrolledAt: iso(e.enrolledAt),
          lastLoginAt: iso(e.lastLoginAt),
          familyMemberCount: e.familyMemberCount ?? 0,
        },
        familyMembers: family.map((f) => ({
          id: f.id,
          firstName: f.firstName,
          lastName: f.lastName,
          relationship: f.relationship,
          createdAt: f.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
