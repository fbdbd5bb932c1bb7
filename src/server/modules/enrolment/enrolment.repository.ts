import { sql } from 'drizzle-orm';
import { type DbOrTx, pgArray, rowsOf } from '#db/client';
import { companies, rosterEntries, users } from '#db/schema';
import type { EnrolmentMode } from '#shared/schemas/enrolment';
import { type CompanyRow, companyColumns, companyNamed, normaliseCompanyName } from '../auth/auth.repository';

/** The employer named like `rawName` (by name key) and whether a roster row matches the applicant, in one query. */
export async function findCompanyWithListing(
  db: DbOrTx,
  rawName: string,
  applicant: { lhmpId: string; firstNameKey: string; lastNameKey: string },
): Promise<(CompanyRow & { listed: boolean }) | undefined> {
  const [row] = await db
    .select({
      ...companyColumns,
      listed: sql<boolean>`exists (select 1 from ${rosterEntries} r
        where r.company_id = ${companies}.id and r.lhmp_id = ${applicant.lhmpId}
          and r.first_name_key = ${applicant.firstNameKey} and r.last_name_key = ${applicant.lastNameKey})`,
    })
    .from(companies)
    .where(companyNamed(rawName))
    .limit(1);
  return row;
}

export async function findCompany(db: DbOrTx, companyId: string): Promise<CompanyRow | undefined> {
  const result = await db.execute(sql`select id, name, enrolment_mode as "enrolmentMode" from ${companies} where id = ${companyId}`);
  return rowsOf<CompanyRow>(result)[0];
}

/**
 * Locks the employer for one roster import (two imports of one employer run one after the
 * other). NO KEY UPDATE: registrations, whose new user row only takes a KEY SHARE lock on
 * its employer, are not held up.
 */
export async function lockCompany(db: DbOrTx, companyId: string): Promise<CompanyRow | undefined> {
  const result = await db.execute(sql`select id, name, enrolment_mode as "enrolmentMode" from ${companies} where id = ${companyId} for no key update`);
  return rowsOf<CompanyRow>(result)[0];
}

export async function setEnrolmentMode(db: DbOrTx, companyId: string, mode: EnrolmentMode): Promise<void> {
  await db.execute(sql`update ${companies} set enrolment_mode = ${mode} where id = ${companyId}`);
}

export async function countRosterEntries(db: DbOrTx, companyId: string): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from ${rosterEntries} where company_id = ${companyId}`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/** One data row of a roster file as staged: a good row has every field; a bad one its reason. */
export interface StagedRow {
  line: number;
  /** Set when the programme ID itself is valid, even on a bad row (its roster entry is kept). */
  lhmpId: string | null;
  firstName: string | null;
  lastName: string | null;
  firstNameKey: string | null;
  lastNameKey: string | null;
  email: string | null;
  reason: string | null;
}

/** A temporary table for one import's rows, dropped with the transaction. */
export async function createStage(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
    create temp table roster_stage (
      line integer not null,
      lhmp_id text,
      first_name text,
      last_name text,
      first_name_key text,
      last_name_key text,
      email text,
      reason text,
      duplicate_of integer,
      good boolean not null
    ) on commit drop`);
}

/** Appends a batch of rows to the stage: one statement, one array parameter per column. */
export async function stageRows(tx: DbOrTx, rows: readonly StagedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = (pick: (r: StagedRow) => string | number | null) => pgArray(rows.map(pick));
  await tx.execute(sql`
    insert into roster_stage (line, lhmp_id, first_name, last_name, first_name_key, last_name_key, email, reason, good)
    select line, lhmp_id, first_name, last_name, first_name_key, last_name_key, email, reason, reason is null
    from unnest(${col((r) => r.line)}::int[], ${col((r) => r.lhmpId)}::text[], ${col((r) => r.firstName)}::text[],
                ${col((r) => r.lastName)}::text[], ${col((r) => r.firstNameKey)}::text[], ${col((r) => r.lastNameKey)}::text[],
                ${col((r) => r.email)}::text[], ${col((r) => r.reason)}::text[])
      as t(line, lhmp_id, first_name, last_name, first_name_key, last_name_key, email, reason)`);
}

/** A programme ID listed twice: every occurrence after the first becomes a bad row. */
export async function markDuplicates(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`analyze roster_stage`);
  await tx.execute(sql`
    update roster_stage s set good = false, duplicate_of = d.first_line
    from (select line, min(line) over (partition by lhmp_id) as first_line from roster_stage where lhmp_id is not null) d
    where s.line = d.line and d.line > d.first_line and s.reason is null`);
}

const count = async (tx: DbOrTx, statement: ReturnType<typeof sql>) => rowsOf<{ n: number }>(await tx.execute(statement))[0]?.n ?? 0;

/**
 * Makes the employer's roster what the stage says, set-based: entries whose programme ID is
 * nowhere in the file are removed (an ID on a bad row keeps its entry as it was), entries
 * whose names or email differ are updated, new IDs added. Counts what each step did.
 */
export async function applyStage(tx: DbOrTx, companyId: string, now: Date) {
  const removed = await count(
    tx,
    sql`with gone as (
          delete from ${rosterEntries} r
          where r.company_id = ${companyId} and not exists (select 1 from roster_stage s where s.lhmp_id = r.lhmp_id)
          returning 1)
        select count(*)::int as n from gone`,
  );
  const updated = await count(
    tx,
    sql`with changed as (
          update ${rosterEntries} r
          set first_name = s.first_name, last_name = s.last_name, first_name_key = s.first_name_key,
              last_name_key = s.last_name_key, email = s.email, updated_at = ${now}
          from roster_stage s
          where s.good and r.company_id = ${companyId} and r.lhmp_id = s.lhmp_id
            and (r.first_name, r.last_name, r.first_name_key, r.last_name_key, r.email)
                is distinct from (s.first_name, s.last_name, s.first_name_key, s.last_name_key, s.email)
          returning 1)
        select count(*)::int as n from changed`,
  );
  const added = await count(
    tx,
    sql`with fresh as (
          insert into ${rosterEntries} (company_id, lhmp_id, first_name, last_name, first_name_key, last_name_key, email, created_at, updated_at)
          select ${companyId}, s.lhmp_id, s.first_name, s.last_name, s.first_name_key, s.last_name_key, s.email, ${now}, ${now}
          from roster_stage s
          where s.good and not exists (select 1 from ${rosterEntries} r where r.company_id = ${companyId} and r.lhmp_id = s.lhmp_id)
          returning 1)
        select count(*)::int as n from fresh`,
  );
  const good = await count(tx, sql`select count(*)::int as n from roster_stage where good`);
  return { removed, updated, added, unchanged: good - updated - added };
}

/** The first `limit` bad rows by line, and how many there are. */
export async function badRows(tx: DbOrTx, limit: number) {
  const result = await tx.execute(sql`
    select line, lhmp_id as "lhmpId", reason, duplicate_of as "duplicateOf", count(*) over ()::int as total
    from roster_stage where not good order by line limit ${limit}`);
  const rows = rowsOf<{ line: number; lhmpId: string | null; reason: string | null; duplicateOf: number | null; total: number }>(result);
  return { total: rows[0]?.total ?? 0, shown: rows };
}

/** Registered members of the employer whose programme ID has no roster entry (first `limit`, and the total). */
export async function membersNotListed(tx: DbOrTx, companyId: string, limit: number) {
  const result = await tx.execute(sql`
    select u.id, u.first_name as "firstName", u.last_name as "lastName", u.lhmp_id as "lhmpId", u.email,
           count(*) over ()::int as total
    from ${users} u
    where u.company_id = ${companyId}
      and not exists (select 1 from ${rosterEntries} r where r.company_id = ${companyId} and r.lhmp_id = u.lhmp_id)
    order by u.last_name, u.first_name, u.lhmp_id
    limit ${limit}`);
  const rows = rowsOf<{ id: string; firstName: string; lastName: string; lhmpId: string; email: string; total: number }>(result);
  return { total: rows[0]?.total ?? 0, shown: rows.map(({ total: _total, ...member }) => member) };
}

/**
 * Up to `limit` employer names for what a member has typed, compared by name key: keys with a
 * word that starts with the typed key (the whole key's start first), and the employer whose
 * whole key the typed text starts with ("acme health c" still offers "Acme Health Co").
 * Never a match inside a word: three letters do not find every name that merely contains them.
 * `hidden` (ADMIN_COMPANY, the administrators' own employer) is never offered.
 */
export async function suggestEmployers(db: DbOrTx, typed: string, limit: number, hidden: string): Promise<string[]> {
  const result = await db.execute(sql`
    with q as (select employer_name_key(${normaliseCompanyName(typed)}) as k),
         p as (select k, replace(replace(replace(k, '\\', '\\\\'), '%', '\\%'), '_', '\\_') as pattern from q)
    select c.name
    from ${companies} c, p
    where length(p.k) >= 3
      and (c.name_key like p.pattern || '%' or c.name_key like '% ' || p.pattern || '%' or starts_with(p.k, c.name_key || ' '))
      and c.name_key <> employer_name_key(${normaliseCompanyName(hidden)})
    order by starts_with(c.name_key, p.k) desc, c.name_key
    limit ${limit}`);
  return rowsOf<{ name: string }>(result).map((r) => r.name);
}
