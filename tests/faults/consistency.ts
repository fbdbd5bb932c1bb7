/**
 * Database consistency after a crash, for PostgreSQL and the embedded PGlite alike: every
 * table readable end to end, no foreign key pointing at nothing (generated from the
 * catalogue, so new tables are covered), maintained counts equal to the rows they count,
 * every index valid and, where amcheck is available, structurally sound.
 */
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

/** Runs SQL and returns rows; one shape over pg and PGlite. */
export interface Sql {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function connectPostgres(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    rows: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[],
    close: () => client.end(),
  };
}

/** Opens a PGlite data directory the way the server does (crash recovery runs here), plus amcheck. */
export async function openPglite(dataDir: string): Promise<Sql> {
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm, btree_gin, amcheck } });
  return {
    rows: async <T>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows,
    close: () => db.close(),
  };
}

export interface ConsistencyReport {
  problems: string[];
  tables: number;
  foreignKeys: number;
  indexesChecked: number;
  rows: number;
}

export async function checkConsistency(db: Sql): Promise<ConsistencyReport> {
  const problems: string[] = [];
  const tables = await db.rows<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`);
  let rows = 0;
  for (const { name } of tables) {
    // A full scan with a digest reads every heap page and detoasts every value.
    const [r] = await db.rows<{ n: number; d: string | null }>(`select count(*)::int as n, md5(string_agg(t::text, ',')) as d from "${name}" t`);
    rows += r!.n;
  }

  const fks = await db.rows<{ name: string; child: string; parent: string; child_cols: string; parent_cols: string }>(`
    select c.conname as name, c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
      (select string_agg(a.attname, ',' order by k.ord) from unnest(c.conkey) with ordinality k(attnum, ord)
         join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum) as child_cols,
      (select string_agg(a.attname, ',' order by k.ord) from unnest(c.confkey) with ordinality k(attnum, ord)
         join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum) as parent_cols
    from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace order by 1`);
  for (const fk of fks) {
    const cc = fk.child_cols.split(',');
    const pc = fk.parent_cols.split(',');
    const notNull = cc.map((c) => `c."${c}" is not null`).join(' and ');
    const join = cc.map((c, i) => `p."${pc[i]}" = c."${c}"`).join(' and ');
    const [r] = await db.rows<{ n: number }>(`select count(*)::int as n from ${fk.child} c where ${notNull} and not exists (select 1 from ${fk.parent} p where ${join})`);
    if (r!.n > 0) problems.push(`${r!.n} orphan row(s) in ${fk.child} (${fk.name})`);
  }

  const [family] = await db.rows<{ n: number }>(
    `select count(*)::int as n from participants p where p.family_member_count <> (select count(*) from family_members f where f.participant_id = p.id)`,
  );
  if (family!.n > 0) problems.push(`${family!.n} participant(s) whose family_member_count differs from their family rows`);

  const stats = await db.rows<{ company_id: string }>(`
    with actual as (
      select c.id as company_id,
        (select count(*) from users u where u.company_id = c.id)::int as employees,
        (select count(*) from users u where u.company_id = c.id and u.email_verified_at is not null)::int as verified,
        (select count(*) from participants p join users u on u.id = p.user_id where u.company_id = c.id)::int as participants,
        (select coalesce(sum(p.family_member_count), 0) from participants p join users u on u.id = p.user_id where u.company_id = c.id)::int as family
      from companies c)
    select a.company_id from actual a left join company_stats s on s.company_id = a.company_id
    where s.company_id is null or s.employees <> a.employees or s.verified_employees <> a.verified
       or s.participants <> a.participants or s.family_members <> a.family`);
  if (stats.length > 0) problems.push(`${stats.length} employer(s) whose company_stats differ from their rows`);

  const [enrolled] = await db.rows<{ n: number }>(
    `select count(*)::int as n from users u left join participants p on p.user_id = u.id where u.enrolled_at is distinct from p.enrolled_at`,
  );
  if (enrolled!.n > 0) problems.push(`${enrolled!.n} user(s) whose enrolled_at copy differs from their participant row`);

  const [invalid] = await db.rows<{ n: number }>(
    `select count(*)::int as n from pg_index i join pg_class c on c.oid = i.indrelid where c.relnamespace = 'public'::regnamespace and not (i.indisvalid and i.indisready)`,
  );
  if (invalid!.n > 0) problems.push(`${invalid!.n} invalid index(es)`);

  let indexesChecked = 0;
  try {
    await db.rows('create extension if not exists amcheck');
    const btrees = await db.rows<{ name: string }>(`
      select ic.oid::regclass::text as name from pg_index i join pg_class ic on ic.oid = i.indexrelid
      join pg_am am on am.oid = ic.relam where ic.relnamespace = 'public'::regnamespace and am.amname = 'btree'`);
    for (const { name } of btrees) {
      try {
        await db.rows(`select bt_index_check('${name}'::regclass, true)`);
        indexesChecked += 1;
      } catch (err) {
        problems.push(`index ${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } catch {
    // amcheck not installed: the validity flags above still hold.
  }
  return { problems, tables: tables.length, foreignKeys: fks.length, indexesChecked, rows };
}
