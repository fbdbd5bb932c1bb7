import { type SQL, sql } from 'drizzle-orm';
import { pgArray, rowsOf, type Db } from '#db/client';

/**
 * Synthetic programme data at scale (npm run db:seed): employers with a realistic spread of
 * sizes, employees, participants, family members and sign-ins. Everything, ids included,
 * comes from one seeded generator: the same seed, counts, anchor date and starting database
 * give the same rows. Rows go in as batches of `INSERT ... SELECT FROM unnest(arrays)`, one
 * parameter per column, which PGlite and PostgreSQL both run quickly; the statement-level
 * triggers then update the employer aggregates once per batch.
 */

export interface SeedOptions {
  employers: number;
  employees: number;
  seed: number;
  /** Anchor for every timestamp ("now" of the synthetic world). */
  now: Date;
  /** One argon2 hash every seeded account shares (hashing a million passwords is pointless). */
  passwordHash: string;
  /** Users per batch; participants, family members and sign-ins of those users go with them. */
  batchSize?: number;
}

export interface SeedProgress {
  employeesDone: number;
  employeesTotal: number;
  rows: number;
}

export interface SeedResult {
  rows: { companies: number; users: number; participants: number; familyMembers: number; loginAudits: number; total: number };
  seconds: number;
  rowsPerSecond: number;
  /** Seconds spent in each table's inserts (their triggers included). */
  insertSeconds: { companies: number; users: number; participants: number; familyMembers: number; loginAudits: number };
  firstEmployerName: string | undefined;
  sampleEmail: string | undefined;
}

/** mulberry32: small, fast and good enough for synthetic data; fully determined by the seed. */
export function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  /** Skewed towards the front of the list: common names first. */
  const pickSkewed = <T>(list: readonly T[]) => list[Math.floor(list.length * next() ** 1.7)]!;
  const pick = <T>(list: readonly T[]) => list[Math.floor(list.length * next())]!;
  const randomHex = (digits: number) => {
    let out = '';
    while (out.length < digits) out += Math.floor(next() * 2 ** 32).toString(16).padStart(8, '0');
    return out.slice(0, digits);
  };
  /** A random (version 4) UUID. */
  const uuid = () => {
    const h = randomHex(32);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  /**
   * A time-ordered (version 7 layout) UUID: 48 bits that grow by one per call from `startMs`,
   * then random bits. Consecutive ids land next to each other in primary-key indexes, which
   * keeps a million-row load from touching a random index page per row.
   */
  let ordered = 0;
  const orderedUuid = (startMs: number) => {
    const t = (startMs + ordered++).toString(16).padStart(12, '0').slice(-12);
    const h = randomHex(16);
    const variant = ((parseInt(h[3]!, 16) & 0x3) | 0x8).toString(16);
    return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(0, 3)}-${variant}${h.slice(4, 7)}-${h.slice(7, 16)}${randomHex(3)}`;
  };
  return { next, int, pick, pickSkewed, uuid, orderedUuid };
}
export type Random = ReturnType<typeof createRandom>;

/**
 * Employer sizes: a Zipf-like spread (exponent 0.8), as real employer populations are, summing
 * to exactly `employees`. With 1,000 employers and 1,000,000 employees the largest has about
 * 64,000 and the smallest about 250.
 */
export function employerSizes(employers: number, employees: number): number[] {
  if (employers <= 0) return [];
  const weights = Array.from({ length: employers }, (_, i) => (i + 1) ** -0.8);
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * employees);
  const sizes = exact.map(Math.floor);
  let left = employees - sizes.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (left <= 0) break;
    sizes[i]! += 1;
    left -= 1;
  }
  return sizes;
}

const FIRST_NAMES = [
  'James', 'Mary', 'Michael', 'Patricia', 'Robert', 'Jennifer', 'John', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Karen', 'Christopher', 'Sarah', 'Charles', 'Lisa', 'Daniel', 'Nancy',
  'Matthew', 'Sandra', 'Anthony', 'Ashley', 'Mark', 'Emily', 'Maria', 'Jose', 'Juan', 'Carmen', 'Luis', 'Ana', 'Carlos',
  'Sofia', 'Miguel', 'Isabella', 'Wei', 'Li', 'Mei', 'Jun', 'Hiro', 'Yuki', 'Min-jun', 'Ji-woo', 'Priya', 'Arjun', 'Ananya',
  'Rahul', 'Aisha', 'Omar', 'Fatima', 'Yusuf', 'Layla', 'Ahmed', 'Chinedu', 'Amara', 'Kwame', 'Ngozi', 'Thabo', 'Zanele',
  'Olga', 'Dmitri', 'Anna', 'Ivan', 'Katarzyna', 'Piotr', 'Sven', 'Ingrid', 'Lars', 'Freya', 'Liam', 'Olivia', 'Noah', 'Emma',
  'Oliver', 'Ava', 'Elijah', 'Charlotte', 'Lucas', 'Amelia', 'Mateo', 'Mia', 'Ethan', 'Harper', 'Logan', 'Evelyn', 'Aiden',
  'Abigail', 'Grace', 'Chloe', 'Nora', 'Zoe', 'Leah', 'Hannah', 'Samuel', 'Benjamin', 'Henry', 'Jack', 'Owen', 'Caleb',
  "D'Andre", 'Mary Ann', 'Jean-Luc', 'Siobhan', 'Niamh', 'Seamus', 'Giulia', 'Marco', 'Chiara', 'Matteo', 'Nguyen', 'Linh',
] as const;

const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson',
  'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright',
  'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell',
  'Mitchell', 'Carter', 'Roberts', 'Chen', 'Wang', 'Zhang', 'Liu', 'Kim', 'Park', 'Tanaka', 'Sato', 'Patel', 'Shah',
  'Singh', 'Kumar', 'Okafor', 'Adeyemi', 'Mensah', 'Nkosi', 'Haddad', 'Khan', 'Rahman', 'Cohen', 'Levi', 'Murphy',
  "O'Brien", 'Kelly', 'Rossi', 'Russo', 'Ferrari', 'Schmidt', 'Muller', 'Schneider', 'Fischer', 'Novak', 'Kowalski',
  'Ivanov', 'Petrov', 'Larsen', 'Hansen', 'Johansson', 'Dubois', 'Moreau', 'Silva', 'Santos', 'Oliveira', 'Costa',
  'de la Cruz', 'van der Berg', 'McDonald', 'MacLeod', 'Fitzgerald', 'Becker', 'Hoffmann', 'Yilmaz', 'Demir', 'Popescu',
] as const;

const NAME_LEADS = [
  'Acme', 'Apex', 'Atlas', 'Beacon', 'Blue River', 'Bright', 'Cardinal', 'Cedar', 'Summit', 'Clearwater', 'Copper', 'Crescent',
  'Evergreen', 'Falcon', 'Frontier', 'Golden Gate', 'Granite', 'Harbor', 'Heritage', 'Highland', 'Horizon', 'Iron', 'Keystone',
  'Lakeside', 'Liberty', 'Lighthouse', 'Maple', 'Meridian', 'Midwest', 'Mountain', 'Northstar', 'Northwind', 'Oak', 'Pacific',
  'Patriot', 'Pinnacle', 'Pioneer', 'Prairie', 'Redwood', 'Riverbend', 'Silverline', 'Southern', 'Sterling', 'Stonebridge',
  'Sunrise', 'Tri-County', 'Union', 'Valley', 'Vanguard', 'Westfield', 'Willow', 'Zenith',
] as const;
const NAME_CORES = [
  'Logistics', 'Manufacturing', 'Health Partners', 'Medical Group', 'Foods', 'Energy', 'Construction', 'Software', 'Analytics',
  'Insurance', 'Credit Union', 'Hospitality', 'Retail', 'Transit', 'Utilities', 'Schools', 'Engineering', 'Biotech',
  'Pharmacy', 'Aerospace', 'Automotive', 'Textiles', 'Printing', 'Farms', 'Dairy', 'Brewing', 'Hotels', 'Airlines',
  'Shipping', 'Steel', 'Plastics', 'Paper', 'Telecom', 'Media', 'Security', 'Staffing', 'Consulting', 'Legal Services',
  'Dental', 'Clinics', 'Home Care', 'Senior Living', 'Fitness', 'Outdoor', 'Hardware', 'Electric', 'Water', 'Packaging',
] as const;
const NAME_TAILS = ['Inc', 'LLC', 'Co', 'Group', 'Corp', 'Ltd', 'Partners', 'Holdings', '& Sons', 'Cooperative'] as const;

const RELATIONSHIPS = ['Spouse', 'Child', 'Parent', 'Sibling', 'Other'] as const;
const IPS = ['192.0.2.0', '198.51.100.0', '203.0.113.0', '2001:db8:1::', '2001:db8:2::', '2001:db8:3::'] as const;

const DAY = 24 * 60 * 60 * 1000;

/** Letter pairs without Q, from "LA" on: seeded programme IDs never take the LQ range of real registrations. */
const ID_LETTERS = 'ABCDEFGHIJKLMNOPRSTUVWXYZ';
function lhmpPrefix(block: number): string {
  const index = ID_LETTERS.indexOf('L') * ID_LETTERS.length + block;
  return `${ID_LETTERS[Math.floor(index / ID_LETTERS.length) % ID_LETTERS.length]}${ID_LETTERS[index % ID_LETTERS.length]}`;
}

/** The i-th seeded programme ID: blocks of 100,000 per prefix, handed out in order as an enrolment office would. */
export function seededLhmpId(i: number): string {
  const digits = i % 100_000;
  return `${lhmpPrefix(Math.floor(i / 100_000))}${String(digits).padStart(5, '0')}`;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '');
}
function emailPart(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '');
}

/**
 * Unique employer names whose name keys are not already taken. The key is the database's
 * (SQL function employer_name_key: "Acme Logistics Inc" and "Acme Logistics LLC" are one
 * employer), so `keysOf` asks it for a batch of candidates at a time.
 */
export async function employerNames(
  rand: Random,
  count: number,
  takenKeys: Set<string>,
  keysOf: (names: string[]) => Promise<string[]>,
): Promise<string[]> {
  const names: string[] = [];
  const seen = new Set(takenKeys);
  let attempts = 0;
  while (names.length < count) {
    const candidates: string[] = [];
    for (let i = 0; i < Math.max(64, (count - names.length) * 2); i += 1) {
      attempts += 1;
      const name = `${rand.pick(NAME_LEADS)} ${rand.pick(NAME_CORES)} ${rand.pick(NAME_TAILS)}`;
      candidates.push(attempts > count * 20 ? `${name} ${attempts}` : name);
    }
    const keys = await keysOf(candidates);
    candidates.forEach((name, i) => {
      const key = keys[i]!;
      if (names.length >= count || seen.has(key)) return;
      seen.add(key);
      names.push(name);
    });
  }
  return names;
}

/** Name keys of `names`, in order, computed by the database's own employer_name_key. */
export async function employerNameKeys(db: Db, names: string[]): Promise<string[]> {
  const result = await db.execute(
    sql`select employer_name_key(n) as k from unnest(${pgArray(names)}::text[]) with ordinality as t(n, i) order by i`,
  );
  return rowsOf<{ k: string }>(result).map((r) => r.k);
}

class Columns<K extends string> {
  readonly data: Record<K, (string | number | null)[]>;
  constructor(readonly keys: readonly K[]) {
    this.data = Object.fromEntries(keys.map((k) => [k, []])) as unknown as Record<K, (string | number | null)[]>;
  }
  push(row: Record<K, string | number | null>) {
    for (const k of this.keys) this.data[k].push(row[k]);
  }
  get length() {
    return this.data[this.keys[0]!].length;
  }
  clear() {
    for (const k of this.keys) this.data[k] = [];
  }
  /** `select * from unnest($1::type[], ...)` with one array parameter per column. */
  unnest(types: Record<K, string>): SQL {
    const parts = this.keys.map((k) => sql`${pgArray(this.data[k])}::${sql.raw(types[k])}[]`);
    return sql`select * from unnest(${sql.join(parts, sql`, `)})`;
  }
}

/** Fills the database; `onProgress` is called after each committed batch. */
export async function seedSynthetic(db: Db, options: SeedOptions, onProgress?: (p: SeedProgress) => void): Promise<SeedResult> {
  const started = performance.now();
  const rand = createRandom(options.seed);
  const batchSize = options.batchSize ?? 5000;
  const now = options.now.getTime();
  const iso = (ms: number) => new Date(Math.min(ms, now)).toISOString();

  const existing = rowsOf<{ key: string }>(await db.execute(sql`select name_key as key from companies`));
  const taken = new Set(existing.map((r) => r.key));
  const [offsetRow] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from users where lhmp_id !~ '^LQ'`));
  let lhmpIndex = Number(offsetRow?.n ?? 0);

  // Ids continue from the anchor's millisecond in seed order (see orderedUuid).
  const idStart = now - 10 * 365 * DAY + lhmpIndex;
  const names = await employerNames(rand, options.employers, taken, (candidates) => employerNameKeys(db, candidates));
  const sizes = employerSizes(options.employers, options.employees);
  const usedDomains = new Set<string>();
  const employers = names.map((name) => {
    let domain = `${slug(name)}.example`;
    for (let n = 2; usedDomains.has(domain); n += 1) domain = `${slug(name)}${n}.example`;
    usedDomains.add(domain);
    return { id: rand.orderedUuid(idStart), name, domain, createdAt: now - rand.int(3 * 365, 8 * 365) * DAY };
  });
  const rows = { companies: 0, users: 0, participants: 0, familyMembers: 0, loginAudits: 0, total: 0 };
  const insertSeconds = { companies: 0, users: 0, participants: 0, familyMembers: 0, loginAudits: 0 };
  const timed = async (table: keyof typeof insertSeconds, run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    insertSeconds[table] += (performance.now() - t0) / 1000;
  };

  for (let i = 0; i < employers.length; i += batchSize) {
    const c = new Columns(['id', 'name', 'created_at'] as const);
    for (const e of employers.slice(i, i + batchSize)) c.push({ id: e.id, name: e.name, created_at: iso(e.createdAt) });
    await timed('companies', () => db.execute(sql`insert into companies (id, name, created_at) ${c.unnest({ id: 'uuid', name: 'text', created_at: 'timestamptz' })}`));
    rows.companies += c.length;
  }

  const u = new Columns(['id', 'first_name', 'last_name', 'email', 'company_id', 'lhmp_id', 'email_verified_at', 'password_hash', 'created_at', 'enrolled_at'] as const);
  const p = new Columns(['id', 'user_id', 'enrolled_at', 'last_login_at', 'family_member_count'] as const);
  const f = new Columns(['id', 'participant_id', 'first_name', 'last_name', 'dob', 'relationship', 'created_at'] as const);
  const l = new Columns(['user_id', 'company_id', 'result', 'timestamp', 'ip_masked', 'user_agent_hash'] as const);
  const userAgents = Array.from({ length: 24 }, () => rand.uuid().replace(/-/g, '') + rand.uuid().replace(/-/g, ''));
  let done = 0;
  let sampleEmail: string | undefined;

  const flush = async () => {
    if (u.length === 0) return;
    await db.transaction(async (tx) => {
      await timed('users', () => tx.execute(sql`insert into users (id, first_name, last_name, email, company_id, lhmp_id, email_verified_at, password_hash, created_at, enrolled_at)
        ${u.unnest({ id: 'uuid', first_name: 'text', last_name: 'text', email: 'text', company_id: 'uuid', lhmp_id: 'text', email_verified_at: 'timestamptz', password_hash: 'text', created_at: 'timestamptz', enrolled_at: 'timestamptz' })}`));
      if (p.length > 0) {
        await timed('participants', () => tx.execute(sql`insert into participants (id, user_id, enrolled_at, last_login_at, family_member_count)
          ${p.unnest({ id: 'uuid', user_id: 'uuid', enrolled_at: 'timestamptz', last_login_at: 'timestamptz', family_member_count: 'int' })}`));
      }
      if (f.length > 0) {
        await timed('familyMembers', () => tx.execute(sql`insert into family_members (id, participant_id, first_name, last_name, dob, relationship, created_at)
          ${f.unnest({ id: 'uuid', participant_id: 'uuid', first_name: 'text', last_name: 'text', dob: 'date', relationship: 'text', created_at: 'timestamptz' })}`));
      }
      if (l.length > 0) {
        await timed('loginAudits', () => tx.execute(sql`insert into login_audits (user_id, company_id, result, timestamp, ip_masked, user_agent_hash)
          ${l.unnest({ user_id: 'uuid', company_id: 'uuid', result: 'text', timestamp: 'timestamptz', ip_masked: 'text', user_agent_hash: 'text' })}`));
      }
    });
    rows.users += u.length;
    rows.participants += p.length;
    rows.familyMembers += f.length;
    rows.loginAudits += l.length;
    done += u.length;
    for (const cols of [u, p, f, l]) cols.clear();
    onProgress?.({ employeesDone: done, employeesTotal: options.employees, rows: rows.companies + rows.users + rows.participants + rows.familyMembers + rows.loginAudits });
  };

  for (const [ei, employer] of employers.entries()) {
    const perName = new Map<string, number>();
    for (let k = 0; k < sizes[ei]!; k += 1) {
      const first = rand.pickSkewed(FIRST_NAMES);
      const last = rand.pickSkewed(LAST_NAMES);
      const local = `${emailPart(first)}.${emailPart(last)}`;
      const n = (perName.get(local) ?? 0) + 1;
      perName.set(local, n);
      const email = `${local}${n > 1 ? n : ''}@${employer.domain}`;
      sampleEmail ??= email;
      const userId = rand.orderedUuid(idStart);
      const createdAt = employer.createdAt + rand.next() * (now - employer.createdAt - DAY);
      const verifiedAt = rand.next() < 0.75 ? createdAt + rand.next() * 3 * DAY : null;
      const enrolled = rand.next() < 0.65;
      const enrolledAt = enrolled ? createdAt + rand.next() * Math.min(30 * DAY, now - createdAt) : null;
      u.push({
        id: userId,
        first_name: first,
        last_name: last,
        email,
        company_id: employer.id,
        lhmp_id: seededLhmpId(lhmpIndex++),
        email_verified_at: verifiedAt === null ? null : iso(verifiedAt),
        password_hash: options.passwordHash,
        created_at: iso(createdAt),
        enrolled_at: enrolledAt === null ? null : iso(enrolledAt),
      });
      const ua = rand.pick(userAgents);
      const ip = rand.pick(IPS);
      if (enrolledAt === null) {
        if (rand.next() < 0.05) l.push({ user_id: userId, company_id: employer.id, result: 'bad_password', timestamp: iso(createdAt + DAY), ip_masked: ip, user_agent_hash: ua });
        continue;
      }
      // Most members signed in recently, some drifted away.
      const r = rand.next();
      const recency = r < 0.7 ? rand.next() * 30 * DAY : r < 0.9 ? 30 * DAY + rand.next() * 150 * DAY : rand.next() * (now - enrolledAt);
      const lastLogin = Math.max(enrolledAt, now - recency);
      const famRoll = rand.next();
      const familyCount = famRoll < 0.5 ? 0 : famRoll < 0.75 ? 1 : famRoll < 0.9 ? 2 : famRoll < 0.97 ? 3 : 4;
      const participantId = rand.orderedUuid(idStart);
      p.push({ id: participantId, user_id: userId, enrolled_at: iso(enrolledAt), last_login_at: iso(lastLogin), family_member_count: familyCount });
      let hasSpouse = false;
      for (let j = 0; j < familyCount; j += 1) {
        let relationship = rand.next() < 0.6 ? 'Child' : rand.pick(RELATIONSHIPS);
        if (relationship === 'Spouse') {
          if (hasSpouse) relationship = 'Child';
          hasSpouse = true;
        }
        const age = { Spouse: rand.int(24, 70), Child: rand.int(0, 25), Parent: rand.int(50, 92), Sibling: rand.int(18, 70), Other: rand.int(5, 80) }[relationship]!;
        const addedAt = enrolledAt + rand.next() * (lastLogin - enrolledAt);
        // Born before being added: the age is the age on the day the member added them.
        const dob = new Date(addedAt - age * 365.25 * DAY - rand.int(1, 364) * DAY).toISOString().slice(0, 10);
        f.push({
          id: rand.orderedUuid(idStart),
          participant_id: participantId,
          first_name: rand.pickSkewed(FIRST_NAMES),
          last_name: relationship === 'Other' || rand.next() < 0.15 ? rand.pickSkewed(LAST_NAMES) : last,
          dob,
          relationship,
          created_at: iso(addedAt),
        });
      }
      const signIns = rand.int(1, 3);
      for (let s = 0; s < signIns; s += 1) {
        const at = s === signIns - 1 ? lastLogin : enrolledAt + ((s + rand.next()) / signIns) * (lastLogin - enrolledAt);
        if (rand.next() < 0.08) l.push({ user_id: userId, company_id: employer.id, result: 'bad_password', timestamp: iso(at - 60_000), ip_masked: ip, user_agent_hash: ua });
        l.push({ user_id: userId, company_id: employer.id, result: 'success', timestamp: iso(at), ip_masked: ip, user_agent_hash: ua });
      }
      if (u.length >= batchSize) await flush();
    }
  }
  await flush();

  rows.total = rows.companies + rows.users + rows.participants + rows.familyMembers + rows.loginAudits;
  const seconds = (performance.now() - started) / 1000;
  return { rows, seconds, rowsPerSecond: Math.round(rows.total / seconds), insertSeconds, firstEmployerName: employers[0]?.name, sampleEmail };
}
