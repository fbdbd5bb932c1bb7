import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { seedSynthetic } from '../../src/server/seed/synthetic';
import { type TestDatabase, openTestDatabase } from './support/test-app';

const options = { employers: 6, employees: 700, seed: 99, now: new Date('2026-03-01T00:00:00Z'), passwordHash: 'seed-hash', batchSize: 150 };
let a: TestDatabase;
let b: TestDatabase;
let resultA: Awaited<ReturnType<typeof seedSynthetic>>;
let resultB: Awaited<ReturnType<typeof seedSynthetic>>;
// Every test reads the same seeded pair, so none depends on another having run first.
beforeAll(async () => {
  [a, b] = await Promise.all([openTestDatabase(), openTestDatabase()]);
  resultA = await seedSynthetic(a.db, options);
  resultB = await seedSynthetic(b.db, options);
});
afterAll(async () => {
  for (const d of [a, b]) {
    await d?.close();
    await d?.dropDatabase();
  }
});

async function rows<T>(d: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await d.db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}
const snapshot = (d: Database) =>
  Promise.all([
    rows(d, sql`select id, name, created_at::text from companies order by id`),
    rows(d, sql`select id, first_name, last_name, email, company_id, lhmp_id, email_verified_at::text, created_at::text, enrolled_at::text from users order by id`),
    rows(d, sql`select id, user_id, enrolled_at::text, last_login_at::text, family_member_count from participants order by id`),
    rows(d, sql`select id, participant_id, first_name, last_name, dob::text, relationship, created_at::text from family_members order by id`),
    rows(d, sql`select user_id, result, timestamp::text, ip_masked from login_audits order by user_id, timestamp, result`),
  ]);

describe('seedSynthetic', () => {
  it('fills employers, employees, participants, family members and sign-ins, reproducibly by seed', async () => {
    expect(resultA.rows).toEqual(resultB.rows);
    expect(resultA.rows).toMatchObject({ companies: 6, users: 700 });
    expect(resultA.rows.participants).toBeGreaterThan(300);
    expect(resultA.rows.familyMembers).toBeGreaterThan(100);
    expect(resultA.rows.loginAudits).toBeGreaterThanOrEqual(resultA.rows.participants);
    expect(resultA.rowsPerSecond).toBeGreaterThan(0);
    expect(await snapshot(a)).toEqual(await snapshot(b));
  });

  it('leaves the maintained aggregates equal to a full recount, and every row consistent', async () => {
    // The recount below would also be all zeros on an empty database: prove there is data.
    const [seeded] = await rows<Record<string, number>>(a, sql`select
      (select count(*)::int from companies) as companies, (select count(*)::int from company_stats) as stats,
      (select coalesce(sum(employees), 0)::int from company_stats) as employees, (select count(*)::int from participants) as participants`);
    expect(seeded).toEqual({ companies: options.employers, stats: options.employers, employees: options.employees, participants: resultA.rows.participants });
    const [mismatch] = await rows<{ n: number }>(a, sql`
      select count(*)::int as n from company_stats s join (
        select c.id, count(u.id)::int employees, count(u.email_verified_at)::int verified, count(p.id)::int participants,
               coalesce(sum(p.family_member_count), 0)::int fam, max(p.last_login_at) last
        from companies c left join users u on u.company_id = c.id left join participants p on p.user_id = u.id group by c.id
      ) t on t.id = s.company_id
      where s.employees <> t.employees or s.verified_employees <> t.verified or s.participants <> t.participants
         or s.family_members <> t.fam or s.last_activity_at is distinct from t.last`);
    expect(mismatch!.n).toBe(0);
    const [checks] = await rows<Record<string, number>>(a, sql`select
      (select count(*)::int from users u where (u.enrolled_at is null) <> (not exists (select 1 from participants p where p.user_id = u.id))) as enrolled,
      (select count(*)::int from participants p where p.family_member_count <> (select count(*) from family_members f where f.participant_id = p.id)) as family,
      (select count(*)::int from participants p where p.last_login_at is distinct from (select max(l.timestamp) from login_audits l where l.user_id = p.user_id and l.result = 'success')) as sign_ins,
      (select count(*)::int from family_members f join participants p on p.id = f.participant_id where f.dob >= f.created_at::date or f.created_at < p.enrolled_at) as family_dates,
      (select count(*)::int from users where lhmp_id like 'LQ%' or lhmp_id !~ '^[A-Z]{2}[0-9]{5}$') as ids,
      (select count(*)::int from users where created_at > '2026-03-01' or email_verified_at > '2026-03-01') as future`);
    expect(checks).toEqual({ enrolled: 0, family: 0, sign_ins: 0, family_dates: 0, ids: 0, future: 0 });
  });

  it('adds to a database that already has data without clashing (new names, next programme IDs)', async () => {
    const again = await seedSynthetic(a.db, { ...options, seed: 99, employees: 50, employers: 2 });
    expect(again.rows).toMatchObject({ companies: 2, users: 50 });
    const [counts] = await rows<{ companies: number; users: number }>(a, sql`select (select count(*)::int from companies) as companies, (select count(*)::int from users) as users`);
    expect(counts).toEqual({ companies: 8, users: 750 });
  });
});
