import { and, asc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { substringPattern } from '../../lib/sql-text';
import { companies, companyStats, familyMembers, participants, users } from '#db/schema';
import type { EmployeeStatus, EmployerSortField, SortOrder } from '#shared/schemas/admin';

/**
 * The employee search text, written exactly as the users_company_text_search_idx expression
 * (migration 0004) so the planner can use that index: "first last\nemail\nprogrammeId".
 * A term cannot contain a line break, so a match lies within one field or the full name.
 */
const employeeSearchText = sql`(${users.firstName} || ' ' || ${users.lastName} || E'\\n' || ${users.email} || E'\\n' || ${users.lhmpId})`;

/** List order of one employer's employees; matches users_company_list_idx. */
const employeeOrder = [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id)];

export interface EmployerRow {
  id: string;
  name: string;
  employees: number;
  verifiedEmployees: number;
  participants: number;
  familyMembers: number;
  lastActivityAt: Date | null;
}

const employerColumns = {
  id: companies.id,
  name: companies.name,
  employees: sql<number>`coalesce(${companyStats.employees}, 0)`.mapWith(Number),
  verifiedEmployees: sql<number>`coalesce(${companyStats.verifiedEmployees}, 0)`.mapWith(Number),
  participants: sql<number>`coalesce(${companyStats.participants}, 0)`.mapWith(Number),
  familyMembers: sql<number>`coalesce(${companyStats.familyMembers}, 0)`.mapWith(Number),
  lastActivityAt: companyStats.lastActivityAt,
};

/** Every employer with its maintained counts: one query over ~1,000 rows, no per-row lookups. */
export async function listEmployers(
  db: DbOrTx,
  options: { search?: string | undefined; sortBy: EmployerSortField; sortOrder: SortOrder },
): Promise<EmployerRow[]> {
  const byName = [options.sortOrder === 'asc' ? sql`lower(${companies.name}) asc` : sql`lower(${companies.name}) desc`];
  // 'Never' counts as the oldest activity in either direction.
  const byActivity =
    options.sortOrder === 'asc'
      ? sql`${companyStats.lastActivityAt} asc nulls first`
      : sql`${companyStats.lastActivityAt} desc nulls last`;
  const order: SQL[] = options.sortBy === 'name' ? byName : [byActivity, sql`lower(${companies.name}) asc`];
  return db
    .select(employerColumns)
    .from(companies)
    .leftJoin(companyStats, eq(companyStats.companyId, companies.id))
    .where(options.search ? sql`${companies.name} ilike ${substringPattern(options.search)}` : undefined)
    .orderBy(...order, asc(companies.id));
}

export async function findEmployer(db: DbOrTx, companyId: string): Promise<EmployerRow | undefined> {
  const [row] = await db
    .select(employerColumns)
    .from(companies)
    .leftJoin(companyStats, eq(companyStats.companyId, companies.id))
    .where(eq(companies.id, companyId))
    .limit(1);
  return row;
}

/**
 * pg_trgm can only narrow a substring search by a term holding three word characters in a row
 * ("smi", "la0"); shorter terms ("ar", "j s") are found by reading the employer in list order or
 * through the characters-and-pairs index.
 */
export function hasTrigram(term: string): boolean {
  return /[A-Za-z0-9]{3}/.test(term);
}

/**
 * The search text's characters and pairs of adjacent characters, lower-cased (migration 0011's
 * employee_search_grams, indexed with the company id as text by users_company_search_grams_idx).
 */
const employeeSearchGrams = sql`employee_search_grams(${employeeSearchText})`;

/**
 * What a text must hold to contain the term, taken in SQL and lower-cased as ILIKE compares: its
 * one character ("q" gives {q}), or each of its pairs ("Zhu" gives {zh, hu}).
 */
function termGrams(term: string): SQL | undefined {
  const length = [...term].length;
  if (length === 0) return undefined; // array[] would hold nothing to look up
  const grams =
    length === 1 ? [sql`lower(${term})`] : Array.from({ length: length - 1 }, (_, i) => sql`substr(lower(${term}), ${i + 1}, 2)`);
  return sql`array[${sql.join(grams, sql`, `)}]`;
}

/**
 * How a search reaches its employer's matches:
 * - `trigrams`: the GIN index of company id text and trigrams hands over the candidates;
 * - `grams`: the GIN index of company id text, characters and pairs does (a term without a trigram);
 * - `list`: the employer is read in list order (users_company_list_idx), each row tested.
 * The first two name the employer by its id as text, which no btree index offers (only the GIN
 * indexes of 0004 and 0011, keyed on it), so the planner does not choose to read the employer's
 * btree range and test every row instead; with the term's grams in the query it takes 0011's.
 */
type SearchPath = 'trigrams' | 'grams' | 'list';

function gramsHeldBy(term: string): SQL | undefined {
  const grams = termGrams(term);
  return grams ? sql`${employeeSearchGrams} @> ${grams}` : undefined;
}

function employeeFilter(companyId: string, options: { search?: string | undefined; status?: EmployeeStatus | undefined; path?: SearchPath }) {
  const search = options.search;
  const byCompanyText = search !== undefined && (options.path === 'trigrams' || options.path === 'grams');
  return and(
    byCompanyText ? sql`${users.companyId}::text = ${companyId}::uuid::text` : eq(users.companyId, companyId),
    options.status === 'verified' ? isNotNull(users.emailVerifiedAt) : undefined,
    options.status === 'enrolled' ? isNotNull(users.enrolledAt) : undefined,
    options.status === 'not_enrolled' ? isNull(users.enrolledAt) : undefined,
    // The grams only narrow: a text holding every pair of the term may still not hold the term.
    search !== undefined && options.path === 'grams' ? gramsHeldBy(search) : undefined,
    search !== undefined ? sql`${employeeSearchText} ilike ${substringPattern(search)}` : undefined,
  );
}

export interface EmployeeRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  lhmpId: string;
  emailVerifiedAt: Date | null;
  lastLoginAt: Date | null;
  participantId: string | null;
  familyMemberCount: number | null;
}

/**
 * One page of an employer's employees without a search (the total comes from company_stats).
 * The page's ids come from users_company_list_idx alone (index-only, even at a deep offset);
 * only those 25 rows are then joined to participants.
 */
export async function listEmployees(
  db: DbOrTx,
  companyId: string,
  options: { status?: EmployeeStatus | undefined; limit: number; offset: number },
): Promise<EmployeeRow[]> {
  const page = db.$with('page').as(
    db
      .select({ pageId: users.id })
      .from(users)
      .where(employeeFilter(companyId, options))
      .orderBy(...employeeOrder)
      .limit(options.limit)
      .offset(options.offset),
  );
  return db
    .with(page)
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      lhmpId: users.lhmpId,
      emailVerifiedAt: users.emailVerifiedAt,
      lastLoginAt: participants.lastLoginAt,
      participantId: participants.id,
      familyMemberCount: participants.familyMemberCount,
    })
    .from(page)
    .innerJoin(users, eq(users.id, page.pageId))
    .leftJoin(participants, eq(participants.userId, users.id))
    .orderBy(...employeeOrder);
}

/**
 * How far a search reads (docs/decisions/admin-search-short-terms.md):
 * - `trigrams` (a term with a trigram): every match, so the total is exact; the page's sort needs
 *   all of them anyway.
 * - `list` with `countUpTo` n (a term without a trigram): the employer in list order until the
 *   (n+1)th match, so a term that many employees match reads only part of a large employer.
 *   With `readAtMost` k the read also stops after k rows of the employer (in its status): the
 *   answer is then whole only if it reached n+1 matches or the employer has at most k rows.
 * - `grams` with `countUpTo` n (a term without a trigram): every candidate the
 *   characters-and-pairs index hands over, sorted, the first n+1 kept: for a term few match.
 * `total` is at most n + 1, and n + 1 means "more than n". n must be at least offset + limit, so
 * the page lies inside what was read.
 */
export type SearchReach = { path: 'trigrams' } | { path: 'grams'; countUpTo: number } | { path: 'list'; countUpTo: number; readAtMost?: number | undefined };

/**
 * One page of a search together with its total, in one statement: the matches are read once
 * (a CTE referenced twice is materialised), counted, and the page is sorted out of them.
 * Counting in a second statement read every match a second time.
 */
export async function searchEmployees(
  db: DbOrTx,
  companyId: string,
  options: { search: string; status?: EmployeeStatus | undefined; limit: number; offset: number; reach: SearchReach },
): Promise<{ total: number; rows: EmployeeRow[] }> {
  const { reach, search, status } = options;
  const sortLast = sql<string>`lower(${users.lastName})`.as('sort_last');
  const sortFirst = sql<string>`lower(${users.firstName})`.as('sort_first');
  let matches;
  if (reach.path === 'list' && reach.readAtMost !== undefined) {
    // The employer's first rows in list order; the match test runs on them as they come, and
    // both reads stop as soon as the outer one has its n+1.
    const walked = db
      .select({ walkId: users.id, sortLast, sortFirst, searchText: sql<string>`${employeeSearchText}`.as('search_text') })
      .from(users)
      .where(employeeFilter(companyId, { status }))
      .orderBy(...employeeOrder)
      .limit(reach.readAtMost)
      .as('walked');
    matches = db
      .select({ matchId: sql<string>`${walked.walkId}`.as('match_id'), sortLast: walked.sortLast, sortFirst: walked.sortFirst })
      .from(walked)
      .where(sql`${walked.searchText} ilike ${substringPattern(search)}`)
      .orderBy(walked.sortLast, walked.sortFirst, walked.walkId)
      .limit(reach.countUpTo + 1);
  } else {
    const select = db
      .select({ matchId: sql<string>`${users.id}`.as('match_id'), sortLast, sortFirst })
      .from(users)
      .where(employeeFilter(companyId, { search, status, path: reach.path }));
    matches = reach.path === 'trigrams' ? select : select.orderBy(...employeeOrder).limit(reach.countUpTo + 1);
  }
  const matched = db.$with('matched').as(matches);
  const counted = db.$with('counted').as(db.select({ total: sql<number>`count(*)::int`.as('total') }).from(matched));
  const page = db.$with('page').as(
    db
      .select({ pageId: matched.matchId, pageLast: matched.sortLast, pageFirst: matched.sortFirst })
      .from(matched)
      .orderBy(matched.sortLast, matched.sortFirst, matched.matchId)
      .limit(options.limit)
      .offset(options.offset),
  );
  // One row even for a page past the end: the total, with the page's columns null.
  const result = await db
    .with(matched, counted, page)
    .select({
      total: counted.total,
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      lhmpId: users.lhmpId,
      emailVerifiedAt: users.emailVerifiedAt,
      lastLoginAt: participants.lastLoginAt,
      participantId: participants.id,
      familyMemberCount: participants.familyMemberCount,
    })
    .from(counted)
    .leftJoin(page, sql`true`)
    .leftJoin(users, eq(users.id, page.pageId))
    .leftJoin(participants, eq(participants.userId, users.id))
    .orderBy(page.pageLast, page.pageFirst, page.pageId);
  const rows: EmployeeRow[] = [];
  for (const { total: _total, id, firstName, lastName, email, lhmpId, ...rest } of result) {
    if (id !== null && firstName !== null && lastName !== null && email !== null && lhmpId !== null) rows.push({ id, firstName, lastName, email, lhmpId, ...rest });
  }
  return { total: Number(result[0]?.total ?? 0), rows };
}

export async function findEmployee(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      lhmpId: users.lhmpId,
      companyId: users.companyId,
      companyName: companies.name,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      participantId: participants.id,
      enrolledAt: participants.enrolledAt,
      lastLoginAt: participants.lastLoginAt,
      familyMemberCount: participants.familyMemberCount,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(participants, eq(participants.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export async function listFamilyMembers(db: DbOrTx, participantId: string) {
  return db
    .select({
      id: familyMembers.id,
      firstName: familyMembers.firstName,
      lastName: familyMembers.lastName,
      relationship: familyMembers.relationship,
      createdAt: familyMembers.createdAt,
    })
    .from(familyMembers)
    .where(eq(familyMembers.participantId, participantId))
    .orderBy(asc(familyMembers.createdAt), asc(familyMembers.id));
}
