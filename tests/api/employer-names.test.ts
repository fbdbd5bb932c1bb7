/**
 * Employer names: near-duplicates join the existing employer, mixed scripts are refused
 * everywhere a name is typed, administrators add employers, and the registration form's
 * suggestions (limits, matching, rate limit).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { ensureAdmin, setAdminRole } from '../../src/server/modules/auth/admin-bootstrap';
import { seedDemoData } from '../../src/server/seed/demo-data';
import { seedSynthetic } from '../../src/server/seed/synthetic';
import { type TestApp, createTestApp, freshSessionHeaders, newMember, registerMember } from './support/test-app';

const MIXED = 'Employer name must not mix Latin letters with Cyrillic or Greek letters';
const NOT_LISTED = "We couldn't match these details to your employer's eligibility list. Check them against your enrolment letter.";
const ADMIN_PASSWORD = 'Sturdy admin pass 1';
let t: TestApp;
let adminHeaders: Record<string, string>;
const unique = () => Math.random().toString(36).slice(2, 8);

async function companiesKeyed(name: string, app: TestApp = t) {
  return rowsOf<{ id: string; name: string; enrolment_mode: string }>(
    await app.database.db.execute(sql`select id, name, enrolment_mode from companies where name_key = employer_name_key(${name})`),
  );
}

const names = (res: { json(): unknown }) => (res.json() as { employers: { name: string }[] }).employers.map((e) => e.name);

const suggest = (q: string, remoteAddress = '203.0.113.9') =>
  t.app.inject({ url: `/api/employers/suggest?q=${encodeURIComponent(q)}`, remoteAddress });

beforeAll(async () => {
  t = await createTestApp();
  const admin = await registerMember(t.app);
  await setAdminRole(t.database.db, admin.email, true);
  adminHeaders = await freshSessionHeaders(t, admin.id, { elevated: true });
});
afterAll(async () => {
  await t?.close();
});

describe('employer lookup at registration', () => {
  it('joins the existing employer whatever the case, punctuation, spacing or suffix, and shows its own name', async () => {
    const base = `Acme Health ${unique()}`;
    const first = await registerMember(t.app, { company: `${base} Co` });
    for (const typed of [base.toLowerCase(), `  ${base.toUpperCase()},   INC. `, `${base}-LLC`, `${base} Company`, `${base} Corp.`, `${base.toLowerCase()} co ltd`]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: typed }) });
      expect(res.statusCode, `${typed}: ${res.body}`).toBe(201);
      expect(res.json().user.company).toBe(`${base} Co`);
    }
    expect(await companiesKeyed(base)).toHaveLength(1);
    expect(first.id).toBeTruthy();
  });

  it('keeps different employers apart', async () => {
    const base = `Globex ${unique()}`;
    await registerMember(t.app, { company: `${base} Health` });
    const other = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: `${base} Health Partners` }) });
    expect(other.json().user.company).toBe(`${base} Health Partners`);
    expect((await companiesKeyed(`${base} Health`)).length + (await companiesKeyed(`${base} Health Partners`)).length).toBe(2);
  });

  it('creates one employer when several registrations name a new one at the same moment', async () => {
    const base = `Racing Employer ${unique()}`;
    const variants = [base, `${base} Inc`, base.toLowerCase(), `${base.toUpperCase()} LLC`, `${base}, Co.`, `  ${base}  `];
    const results = await Promise.all(variants.map((company) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company }) })));
    for (const res of results) expect(res.statusCode, res.body).toBe(201);
    const rows = await companiesKeyed(base);
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.json().user.company))).toEqual(new Set([rows[0]!.name]));
  });

  it('refuses an employer name that mixes Latin with Cyrillic or Greek letters', async () => {
    for (const company of ['Аcme Health', 'Acme Ηealth', 'Газпрoм']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: MIXED, code: 'validation', fields: { company: MIXED } });
    }
    const cyrillic = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: `Газпром ${unique().replace(/[a-z]/g, '')}` }) });
    expect(cyrillic.statusCode, cyrillic.body).toBe(201);
  });
});

describe('administrators adding employers', () => {
  it('creates an employer in the configured mode and refuses a near-duplicate or a mixed-script name', async () => {
    const name = `Initech ${unique()} Ltd`;
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name: `  ${name} ` } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().employer).toMatchObject({ name, enrolmentMode: 'open' });
    const events = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from events where type = 'admin.employer.created' and company_id = ${res.json().employer.id}`));
    expect(events[0]!.n).toBe(1);

    const twin = await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name: name.replace(/ Ltd$/, ', Inc.').toLowerCase() } });
    expect(twin.statusCode).toBe(409);
    expect(twin.json()).toEqual({ error: `An employer with this name already exists: ${name}`, code: 'conflict', fields: { name: `An employer with this name already exists: ${name}` } });

    const mixed = await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name: 'Іnitech' } });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ error: MIXED, code: 'validation', fields: { name: MIXED } });
  });
});

describe('employer suggestions', () => {
  it('offers at most 5 existing names for 3 or more characters, prefix matches first', async () => {
    const tag = unique();
    const names = ['Zephyr Dental', 'Zephyr Logistics', 'Zephyr Foods', 'Zephyr Hotels', 'Zephyr Media', 'Zephyr Steel', 'Blue Zephyr'].map((n) => `${n} ${tag}`);
    for (const name of names) await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name } });

    const many = await suggest(`zephyr`);
    expect(many.statusCode, many.body).toBe(200);
    expect(many.json().employers).toHaveLength(5);

    const one = await suggest(`ZEPHYR  dental ${tag}`);
    expect(one.json()).toEqual({ employers: [{ name: `Zephyr Dental ${tag}` }] });
    const inside = await suggest(`zephyr ${tag}`);
    expect(inside.json()).toEqual({ employers: [{ name: `Blue Zephyr ${tag}` }] });
    const tagged = await suggest(tag);
    expect(tagged.json().employers).toHaveLength(5);

    // Typing the suffix does not lose the employer: "... Co" is offered for "... c" and "... comp".
    const co = `Harbor Clinic ${tag} Co`;
    await registerMember(t.app, { company: co });
    for (const typed of [`harbor clinic ${tag} c`, `harbor clinic ${tag} comp`, `Harbor Clinic ${tag}, Inc.`]) {
      expect((await suggest(typed)).json(), typed).toEqual({ employers: [{ name: co }] });
    }
    expect((await suggest(`nothing like it ${tag}`)).json()).toEqual({ employers: [] });
    // Wildcards are literal text.
    expect((await suggest('%%%')).json()).toEqual({ employers: [] });
    expect((await suggest('___')).json()).toEqual({ employers: [] });
  });

  it('matches the start of a word only, never letters inside a word', async () => {
    const tag = unique();
    const name = `Quillfeather ${tag} Analytics`;
    await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name } });
    for (const typed of [`quillfeather ${tag}`, `QUILL`, `${tag} analyt`, `${tag} Analytics`]) {
      expect(names(await suggest(typed)), typed).toContain(name);
    }
    // Inside a word: "feather" of Quillfeather, the end of the tag, "lytics" of Analytics.
    for (const typed of [`feather ${tag}`, `${tag.slice(1)} analytics`, 'lytics']) {
      expect(names(await suggest(typed)), typed).not.toContain(name);
    }
  });

  it("never offers the administrators' employer (ADMIN_COMPANY), and nobody can register into it", async () => {
    const tag = unique();
    expect(await ensureAdmin(t.database.db, { email: `boot.${tag}@example.test`, password: ADMIN_PASSWORD, companyName: 'Program Administration', brandName: 'Wellhaven' })).toBe('created');
    // A neighbour with a similar name is offered; the administrators' employer never is.
    const neighbour = `Program Administrators Guild ${tag}`;
    await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name: neighbour } });
    expect(names(await suggest('program admin'))).toContain(neighbour);
    for (const typed of ['program administration', 'Program Administration Inc', 'program admin', 'administration', 'pro']) {
      expect(names(await suggest(typed)), typed).not.toContain('Program Administration');
    }
    expect(await companiesKeyed('Program Administration')).toEqual([expect.objectContaining({ name: 'Program Administration', enrolment_mode: 'roster' })]);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: 'program administration' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: NOT_LISTED, code: 'validation', fields: { lhmpId: NOT_LISTED } });
  });

  it("closes an administrators' employer found open when the administrator is set up, audited", async () => {
    const company = `Ops Office ${unique()}`;
    await t.database.db.execute(sql`insert into companies (name) values (${company})`);
    const early = await registerMember(t.app, { company }); // open until now: anyone could join
    expect(await ensureAdmin(t.database.db, { email: early.email, password: ADMIN_PASSWORD, companyName: company, brandName: 'Wellhaven' })).toBe('promoted');
    const [row] = await companiesKeyed(company);
    expect(row!.enrolment_mode).toBe('roster');
    const events = rowsOf<{ payload_json: unknown }>(
      await t.database.db.execute(sql`select payload_json from events where type = 'admin.enrolment_mode.changed' and company_id = ${row!.id}`),
    );
    expect(events.map((e) => e.payload_json)).toEqual([{ from: 'open', to: 'roster', via: 'bootstrap' }]);
    const late = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company }) });
    expect(late.statusCode).toBe(400);
  });

  it("seeds the demo's administrators' employer in roster mode and never suggests it", async () => {
    const demo = await createTestApp();
    try {
      await seedDemoData(demo.database.db, { now: demo.clock(), withholdAdminPassword: true });
      const modes = rowsOf<{ name: string; enrolment_mode: string }>(await demo.database.db.execute(sql`select name, enrolment_mode from companies order by name`));
      expect(modes).toEqual([
        { name: 'Acme Health Co', enrolment_mode: 'open' },
        { name: 'Globex Manufacturing', enrolment_mode: 'open' },
        { name: 'Initech Services', enrolment_mode: 'open' },
        { name: 'Program Administration', enrolment_mode: 'roster' },
      ]);
      const res = await demo.app.inject({ url: '/api/employers/suggest?q=program' });
      expect(res.json()).toEqual({ employers: [] });
    } finally {
      await demo.close();
    }
  });

  it('refuses fewer than 3 characters and more than 100', async () => {
    for (const q of ['', 'ab', '  ab  ']) {
      const res = await suggest(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toEqual({ error: 'Type at least 3 characters', code: 'validation', fields: { q: 'Type at least 3 characters' } });
    }
    const long = await suggest('x'.repeat(101));
    expect(long.statusCode).toBe(400);
    const none = await t.app.inject({ url: '/api/employers/suggest' });
    expect(none.statusCode).toBe(400);
  });

  it('is rate limited per IP address', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '5' } });
    try {
      const ask = (ip: string) => limited.app.inject({ url: '/api/employers/suggest?q=acme', remoteAddress: ip });
      for (let i = 0; i < 5; i += 1) expect((await ask('198.51.100.7')).statusCode).toBe(200);
      const refused = await ask('198.51.100.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json()).toEqual({ error: 'Too many requests. Please wait a minute and try again.', code: 'rate_limited' });
      expect((await ask('198.51.100.8')).statusCode).toBe(200);
      limited.clock.advance(61_000);
      expect((await ask('198.51.100.7')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('generated employers', () => {
  it('seeds hundreds of employers with names unique by name key (no "Inc" and "LLC" twins)', async () => {
    const seeded = await createTestApp();
    try {
      const result = await seedSynthetic(seeded.database.db, { employers: 400, employees: 400, seed: 7, now: new Date('2026-03-01T00:00:00Z'), passwordHash: 'seed-hash', batchSize: 400 });
      expect(result.rows.companies).toBe(400);
      const [row] = rowsOf<{ n: number; keys: number }>(
        await seeded.database.db.execute(sql`select count(*)::int as n, count(distinct name_key)::int as keys from companies`),
      );
      expect(row).toEqual({ n: 400, keys: 400 });
    } finally {
      await seeded.close();
    }
  });
});
