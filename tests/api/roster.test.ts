/**
 * Eligibility rosters: the admin's CSV import (dry run, import, re-import, replacement),
 * enrolment modes, and registration against a roster.
 */
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../src/db/client';
import type { RosterImportSummary } from '../../src/shared/schemas/enrolment';
import { setAdminRole } from '../../src/server/modules/auth/admin-bootstrap';
import { type TestApp, createTestApp, freshSessionHeaders, newMember, registerMember } from './support/test-app';

const NOT_LISTED = "We couldn't match these details to your employer's eligibility list. Check them against your enrolment letter.";

let t: TestApp;
let admin: { id: string; email: string };
let adminHeaders: Record<string, string>;
let idSeq = 0;

/** Programme IDs no other test in this file uses: a block of 1,000 per call. */
function idBlock() {
  idSeq += 1;
  const base = ((process.pid % 40) * 2000 + idSeq * 1000) % 100_000;
  return (i: number) => `LQ${String((base + i) % 100_000).padStart(5, '0')}`;
}

const unique = () => Math.random().toString(36).slice(2, 8);

async function newEmployer(name = `Roster Employer ${unique()}`) {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/employers', headers: adminHeaders, payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().employer as { id: string; name: string; enrolmentMode: string };
}

async function sendCsv(companyId: string, csv: string | Buffer, mode?: 'dry-run' | 'import', headers: Record<string, string> = adminHeaders) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/employers/${companyId}/roster${mode ? `?mode=${mode}` : ''}`,
    headers: { ...headers, 'content-type': 'text/csv' },
    payload: csv,
  });
}

/**
 * A request body the test writes by hand, as a slow or stalled client would send it.
 * `read()` resolves once the server has taken everything written so far and asked for more.
 */
function handBody() {
  let asks = 0;
  let asksAtWrite = 0;
  const stream = new Readable({
    read() {
      asks += 1;
    },
  });
  const tick = () => new Promise((resolve) => setImmediate(resolve)); // setImmediate is never faked here
  return {
    stream,
    write: (text: string) => {
      asksAtWrite = asks;
      stream.push(text);
    },
    end: () => stream.push(null),
    read: async () => {
      while (stream.readableLength > 0 || asks === asksAtWrite) await tick();
      // What left this stream has gone through the server's stream handlers too.
      await tick();
      await tick();
    },
  };
}

function sendStream(companyId: string, body: Readable, mode: 'dry-run' | 'import' = 'import', contentType = 'text/csv') {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/employers/${companyId}/roster?mode=${mode}`,
    headers: { ...adminHeaders, 'content-type': contentType },
    payload: body,
  });
}

/** Fails after `ms` (a bound on a wait that must end, not a sleep). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

async function importCsv(companyId: string, csv: string, mode: 'dry-run' | 'import' = 'import'): Promise<RosterImportSummary> {
  const res = await sendCsv(companyId, csv, mode);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RosterImportSummary;
}

async function rosterOf(companyId: string) {
  return rowsOf<{ lhmp_id: string; first_name: string; last_name: string; first_name_key: string; last_name_key: string; email: string | null }>(
    await t.database.db.execute(
      sql`select lhmp_id, first_name, last_name, first_name_key, last_name_key, email from roster_entries where company_id = ${companyId} order by lhmp_id`,
    ),
  );
}

async function enrolmentOf(companyId: string) {
  const res = await t.app.inject({ url: `/api/admin/employers/${companyId}/enrolment`, headers: adminHeaders });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { enrolmentMode: string; rosterEntries: number };
}

async function register(overrides: Parameters<typeof newMember>[0]) {
  return t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember(overrides) });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerMember(t.app);
  await setAdminRole(t.database.db, admin.email, true);
  adminHeaders = await freshSessionHeaders(t, admin.id, { elevated: true });
});
afterAll(async () => {
  await t?.close();
});

describe('roster import: dry run', () => {
  it('counts rows to add and lists every bad row with its line and reason, changing nothing', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    // BOM, CRLF, columns in another order, header in mixed case with spaces, values with spaces.
    const csv = [
      '\ufeff Last_Name , PROGRAMME_ID ,first_name, Email ',
      `Lopez,${id(1)},Maria,maria@example.test`,
      ` Chen , ${id(2).toLowerCase()} , James ,`,
      '',
      `Okafor,${id(3)},Aisha,`,
      `Nobody,LQ12,Bad,`,
      `,${id(5)},Missing,`,
      `Mail,${id(6)},Bad,not-an-email`,
      `Again,${id(1)},Maria,`,
      `Shifted,${id(8)},Too,x@example.test,extra`,
      `"Quoted, Jr.",${id(9)},"Anne ""Annie""",`,
      '',
    ].join('\r\n');
    const summary = await importCsv(employer.id, csv, 'dry-run');
    expect(summary).toMatchObject({ mode: 'dry-run', applied: false, rows: 9, added: 4, updated: 0, unchanged: 0, removed: 0, enrolmentMode: 'open' });
    expect(summary.badRows.total).toBe(5);
    expect(summary.badRows.shown).toEqual([
      { line: 6, reason: "programme_id: LHMP ID must be exactly 7 characters" },
      { line: 7, reason: 'last_name: Last name is required' },
      { line: 8, reason: 'email: Valid email is required' },
      { line: 9, reason: `Programme ID ${id(1)} already appears on line 2` },
      { line: 10, reason: 'Expected 4 values, found 5 (a value that contains a comma must be in double quotes)' },
    ]);
    expect(await rosterOf(employer.id)).toEqual([]);
    expect(await enrolmentOf(employer.id)).toEqual({ enrolmentMode: 'open', rosterEntries: 0 });
  });

  it('refuses files it cannot read as a roster, with the reason', async () => {
    const employer = await newEmployer();
    const cases: [string | Buffer, number, string][] = [
      ['', 400, 'The first line must name the columns programme_id, first_name and last_name (email is optional)'],
      ['id,name\nLQ00001,Ann', 400, 'The first line must name the columns programme_id, first_name and last_name (email is optional)'],
      ['programme_id,first_name,last_name,First Name\n', 400, 'The column first_name appears twice in the first line'],
      ['programme_id,first_name,last_name\n\n\n', 400, 'The file lists nobody: there are no rows under its header line'],
      ['programme_id,first_name,last_name\nLQ00001,"Ann,Lee\nLQ00002,Bo,Li\n', 400, 'A quoted value opened on or before line 3 is never closed'],
      [`programme_id,first_name,last_name\nLQ00001,${'x'.repeat(20_000)},Lee\n`, 400, 'Line 2 is too long'],
    ];
    for (const [csv, status, error] of cases) {
      const res = await sendCsv(employer.id, csv, 'dry-run');
      expect(res.statusCode, JSON.stringify(csv).slice(0, 80)).toBe(status);
      expect(res.json()).toEqual({ error, code: 'validation' });
    }
    // Not CSV at all: JSON, or no body (415: see also the test on the parsers).
    const json = await t.app.inject({ method: 'POST', url: `/api/admin/employers/${employer.id}/roster`, headers: adminHeaders, payload: { rows: [] } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ error: 'Send the roster as a CSV file (Content-Type: text/csv)', code: 'unsupported_media_type' });
    const empty = await t.app.inject({ method: 'POST', url: `/api/admin/employers/${employer.id}/roster`, headers: adminHeaders });
    expect(empty.statusCode).toBe(415);
    expect(empty.json()).toEqual({ error: 'Send the roster as a CSV file (Content-Type: text/csv)', code: 'unsupported_media_type' });
    const bad = await t.app.inject({ method: 'POST', url: `/api/admin/employers/${employer.id}/roster?mode=apply`, headers: { ...adminHeaders, 'content-type': 'text/csv' }, payload: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { mode: 'Mode must be dry-run or import' } });
    const missing = await sendCsv('00000000-0000-4000-8000-000000000000', 'programme_id,first_name,last_name\nLQ00001,A,B\n', 'import');
    expect(missing.statusCode).toBe(404);
    expect(await rosterOf(employer.id)).toEqual([]);
  });

  it('answers 413 for a file over 20 MB, declared or streamed', async () => {
    const employer = await newEmployer();
    const line = 'LQ00001,Somebody,Withaverylongname\n';
    const big = Buffer.from(`programme_id,first_name,last_name\n${line.repeat(Math.ceil((20 * 1024 * 1024) / line.length) + 10)}`);
    const res = await sendCsv(employer.id, big, 'dry-run');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'The file is larger than 20 MB', code: 'payload_too_large' });
    // Chunked (no content-length): the service counts the bytes itself.
    const { Readable } = await import('node:stream');
    const streamed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/employers/${employer.id}/roster?mode=dry-run`,
      headers: { ...adminHeaders, 'content-type': 'text/csv' },
      payload: Readable.from([big.subarray(0, 10 * 1024 * 1024), big.subarray(10 * 1024 * 1024)]),
    });
    expect(streamed.statusCode).toBe(413);
    expect(await rosterOf(employer.id)).toEqual([]);
  });

  it('lists the first 100 bad rows and counts them all', async () => {
    const employer = await newEmployer();
    const lines = ['programme_id,first_name,last_name'];
    for (let i = 0; i < 150; i += 1) lines.push(`XX${String(i).padStart(5, '0')},A,B`);
    const summary = await importCsv(employer.id, lines.join('\n'), 'dry-run');
    expect(summary.badRows.total).toBe(150);
    expect(summary.badRows.shown).toHaveLength(100);
    expect(summary.badRows.shown[0]).toEqual({ line: 2, reason: "programme_id: LHMP ID must start with 'LQ' followed by 5 digits" });
    expect(summary.badRows.shown[99]!.line).toBe(101);
    expect(summary).toMatchObject({ rows: 150, added: 0 });
  });
});

describe('roster import: reading the upload', () => {
  it('serves other requests while an upload is still arriving: no transaction waits on the client', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    const body = handBody();
    body.write(`programme_id,first_name,last_name\n${id(1)},Ann,Lee\n`);
    const upload = sendStream(employer.id, body.stream);
    try {
      await within(10_000, 'the server reading the upload', body.read());
      // The upload is half there and the client is silent. The embedded database runs one
      // statement at a time: a transaction opened for the import would hold every query here.
      const me = await within(5_000, 'GET /api/auth/me during the upload', Promise.resolve(t.app.inject({ url: '/api/auth/me', headers: adminHeaders })));
      expect(me.statusCode, me.body).toBe(200);
      const other = await within(5_000, 'an enrolment read during the upload', enrolmentOf(employer.id));
      expect(other).toEqual({ enrolmentMode: 'open', rosterEntries: 0 });
      if (t.database.kind === 'postgres') {
        // Nor does it keep a pooled connection idle in a transaction.
        const idle = rowsOf<{ n: number }>(
          await t.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`),
        );
        expect(idle[0]!.n).toBe(0);
      }
    } finally {
      body.write(`${id(2)},Bo,Li\n`);
      body.end();
    }
    const done = await upload;
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ rows: 2, added: 2, applied: true, enrolmentMode: 'roster' });
    expect((await rosterOf(employer.id)).map((r) => r.lhmp_id)).toEqual([id(1), id(2)]);
  });

  it('answers 408 and closes the connection when an upload stalls for 30 s, changing nothing', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const body = handBody();
    try {
      body.write(`programme_id,first_name,last_name\n${id(1)},Ann,Lee\n`);
      const upload = sendStream(employer.id, body.stream);
      await body.read();
      await vi.advanceTimersByTimeAsync(29_000);
      body.write(`${id(2)},Bo,Li\n`); // a byte in time restarts the wait
      await body.read();
      await vi.advanceTimersByTimeAsync(30_000);
      const res = await upload;
      expect(res.statusCode).toBe(408);
      expect(res.headers.connection).toBe('close');
      expect(res.json()).toEqual({ error: 'The upload stopped: no data arrived for 30 seconds. Try again on a steadier connection.', code: 'request_timeout' });
    } finally {
      vi.useRealTimers();
      body.end();
    }
    expect(await rosterOf(employer.id)).toEqual([]);
    expect(await enrolmentOf(employer.id)).toEqual({ enrolmentMode: 'open', rosterEntries: 0 });
  });

  it('answers 408 when an upload trickles in for more than 5 minutes', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const body = handBody();
    try {
      body.write('programme_id,first_name,last_name\n');
      const upload = Promise.resolve(sendStream(employer.id, body.stream, 'dry-run'));
      let answered = false;
      void upload.then(() => (answered = true));
      await body.read();
      // A row every 10 s: never idle for 30 s, but 5 minutes in all.
      let elapsed = 0;
      while (!answered && elapsed < 400_000) {
        await vi.advanceTimersByTimeAsync(10_000);
        elapsed += 10_000;
        body.write(`${id(elapsed / 10_000)},Ann,Lee\n`);
        await Promise.race([body.read(), upload]);
      }
      expect(elapsed).toBeGreaterThanOrEqual(300_000); // not before 5 minutes
      const res = await upload;
      expect(res.statusCode).toBe(408);
      expect(res.json()).toEqual({ error: 'The upload took longer than 5 minutes. Try again on a faster connection.', code: 'request_timeout' });
    } finally {
      vi.useRealTimers();
      body.end();
    }
  });

  it('accepts text/csv only: any other body is refused with 415 before it is read', async () => {
    const employer = await newEmployer();
    const refusal = { error: 'Send the roster as a CSV file (Content-Type: text/csv)', code: 'unsupported_media_type' };
    // A large JSON body used to be buffered and parsed under the route's 20 MB limit.
    const big = await t.app.inject({
      method: 'POST',
      url: `/api/admin/employers/${employer.id}/roster?mode=dry-run`,
      headers: adminHeaders,
      payload: { rows: Array.from({ length: 40_000 }, (_, i) => ({ programme_id: `LQ${String(i).padStart(5, '0')}`, first_name: 'Ann', last_name: 'Lee' })) },
    });
    expect(big.statusCode).toBe(415);
    expect(big.json()).toEqual(refusal);
    // A JSON body that never ends: refused at once, not waited for.
    for (const contentType of ['application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/octet-stream']) {
      const body = handBody();
      body.write('{"rows": [');
      try {
        const res = await within(5_000, contentType, Promise.resolve(sendStream(employer.id, body.stream, 'dry-run', contentType)));
        expect(res.statusCode, contentType).toBe(415);
        expect(res.json()).toEqual(refusal);
      } finally {
        body.end();
      }
    }
    expect(await rosterOf(employer.id)).toEqual([]);
  });
});

describe('roster import: import, re-import, replace', () => {
  it('imports, switches the employer to roster mode, audits, and a re-import of the same file changes nothing', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    const csv = `programme_id,first_name,last_name,email\n${id(1)},José,Núñez,jose@example.test\n${id(2)},Ann,Lee,\n${id(3)},Bo,Li,\n`;
    const first = await importCsv(employer.id, csv);
    expect(first).toMatchObject({ mode: 'import', applied: true, rows: 3, added: 3, updated: 0, unchanged: 0, removed: 0, enrolmentMode: 'roster' });
    expect(await rosterOf(employer.id)).toEqual([
      { lhmp_id: id(1), first_name: 'José', last_name: 'Núñez', first_name_key: 'jose', last_name_key: 'nunez', email: 'jose@example.test' },
      { lhmp_id: id(2), first_name: 'Ann', last_name: 'Lee', first_name_key: 'ann', last_name_key: 'lee', email: null },
      { lhmp_id: id(3), first_name: 'Bo', last_name: 'Li', first_name_key: 'bo', last_name_key: 'li', email: null },
    ]);
    expect(await enrolmentOf(employer.id)).toEqual({ enrolmentMode: 'roster', rosterEntries: 3 });
    const events = rowsOf<{ actor_user_id: string; payload_json: Record<string, unknown> }>(
      await t.database.db.execute(sql`select actor_user_id, payload_json from events where type = 'admin.roster.imported' and company_id = ${employer.id}`),
    );
    expect(events).toEqual([
      { actor_user_id: admin.id, payload_json: { rows: 3, added: 3, updated: 0, unchanged: 0, removed: 0, badRows: 0, membersNotListed: 0, previousMode: 'open' } },
    ]);

    const again = await importCsv(employer.id, csv);
    expect(again).toMatchObject({ rows: 3, added: 0, updated: 0, unchanged: 3, removed: 0 });
    const dry = await importCsv(employer.id, csv, 'dry-run');
    expect(dry).toMatchObject({ applied: false, rows: 3, added: 0, updated: 0, unchanged: 3, removed: 0, enrolmentMode: 'roster' });
    expect(await rosterOf(employer.id)).toHaveLength(3);
  });

  it('replaces the roster: removes entries not in the file and reports the registered members no longer on it, deleting nobody', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    await importCsv(employer.id, `programme_id,first_name,last_name\n${id(1)},Ann,Lee\n${id(2)},Bo,Li\n${id(3)},Cy,Ma\n${id(4)},Di,Na\n`);
    const bo = await registerMember(t.app, { company: employer.name, lhmpId: id(2), firstName: 'Bo', lastName: 'Li' });
    const cy = await registerMember(t.app, { company: employer.name, lhmpId: id(3), firstName: 'Cy', lastName: 'Ma' });

    // Bo leaves, Cy's surname changes, Di's row is broken (kept as it was), Eve joins.
    const replacement = `programme_id,first_name,last_name\n${id(1)},Ann,Lee\n${id(3)},Cy,Ma-Smith\n${id(4)},,Na\n${id(5)},Eve,Ng\n`;
    const dry = await importCsv(employer.id, replacement, 'dry-run');
    const expected = { rows: 4, added: 1, updated: 1, unchanged: 1, removed: 1 };
    expect(dry).toMatchObject({ ...expected, applied: false });
    expect(dry.badRows).toEqual({ total: 1, shown: [{ line: 4, reason: 'first_name: First name is required' }] });
    expect(dry.membersNotListed).toEqual({ total: 1, shown: [{ id: bo.id, firstName: 'Bo', lastName: 'Li', lhmpId: id(2), email: bo.email }] });

    const done = await importCsv(employer.id, replacement);
    expect(done).toMatchObject({ ...expected, applied: true });
    expect(done.membersNotListed.shown.map((m) => m.id)).toEqual([bo.id]);
    expect((await rosterOf(employer.id)).map((r) => [r.lhmp_id, r.last_name])).toEqual([
      [id(1), 'Lee'],
      [id(3), 'Ma-Smith'],
      [id(4), 'Na'],
      [id(5), 'Ng'],
    ]);
    // Reported, not deleted: Bo and Cy still have their accounts and can sign in.
    for (const member of [bo, cy]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: member.email, password: member.password } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("never touches another employer's roster or reports its members", async () => {
    const a = await newEmployer();
    const b = await newEmployer();
    const id = idBlock();
    await importCsv(b.id, `programme_id,first_name,last_name\n${id(1)},Ann,Lee\n${id(2)},Bo,Li\n`);
    const bMember = await registerMember(t.app, { company: b.name, lhmpId: id(2), firstName: 'Bo', lastName: 'Li' });
    // The same programme ID on A's file: A's roster only.
    const summary = await importCsv(a.id, `programme_id,first_name,last_name\n${id(1)},Other,Person\n`);
    expect(summary).toMatchObject({ added: 1, removed: 0, membersNotListed: { total: 0, shown: [] } });
    expect((await rosterOf(b.id)).map((r) => [r.lhmp_id, r.first_name])).toEqual([
      [id(1), 'Ann'],
      [id(2), 'Bo'],
    ]);
    expect(await rosterOf(a.id)).toHaveLength(1);
    expect(bMember.id).toBeTruthy();
  });

  it('is documented in OpenAPI as a text/csv body with the summary as the answer', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const route = doc.paths['/api/admin/employers/{companyId}/roster'].post;
    expect(Object.keys(route.requestBody.content)).toEqual(['text/csv']);
    expect(route.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['companyId', 'mode']);
    expect(Object.keys(route.responses['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['added', 'updated', 'unchanged', 'removed', 'badRows', 'membersNotListed', 'enrolmentMode']),
    );
  });

  it('refuses members and admins without step-up before reading the file', async () => {
    const employer = await newEmployer();
    const member = await registerMember(t.app);
    const csv = 'programme_id,first_name,last_name\nLQ00001,Ann,Lee\n';
    const asMember = await sendCsv(employer.id, csv, 'import', await freshSessionHeaders(t, member.id));
    expect(asMember.statusCode).toBe(403);
    const notElevated = await sendCsv(employer.id, csv, 'import', await freshSessionHeaders(t, admin.id));
    expect(notElevated.statusCode).toBe(403);
    const anonymous = await sendCsv(employer.id, csv, 'import', {});
    expect(anonymous.statusCode).toBe(401);
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/admin/employers/${employer.id}/enrolment`, headers: await freshSessionHeaders(t, member.id), payload: { enrolmentMode: 'roster' } });
    expect(patch.statusCode).toBe(403);
    expect(await rosterOf(employer.id)).toEqual([]);
    expect(await enrolmentOf(employer.id)).toEqual({ enrolmentMode: 'open', rosterEntries: 0 });
  });
});

describe('registration in roster mode', () => {
  it('matches programme ID and names ignoring case, accents and spaces, and refuses anything else with one message on lhmpId', async () => {
    const employer = await newEmployer(`Eligible Health ${unique()} Co`);
    const id = idBlock();
    await importCsv(employer.id, `programme_id,first_name,last_name\n${id(1)},José,Núñez\n${id(2)},Mary Ann,O'Brien\n${id(3)},Li,Wei\n${id(4)},Ann,Lee\n`);

    const refusals: Parameters<typeof newMember>[0][] = [
      { lhmpId: id(3), firstName: 'Li', lastName: 'Wang' }, // wrong last name
      { lhmpId: id(3), firstName: 'Lee', lastName: 'Wei' }, // wrong first name
      { lhmpId: id(3), firstName: 'Wei', lastName: 'Li' }, // swapped
      { lhmpId: id(9), firstName: 'Li', lastName: 'Wei' }, // not on the roster
      { lhmpId: id(4), firstName: 'Anne', lastName: 'Lee' }, // near miss
    ];
    for (const attempt of refusals) {
      const res = await register({ company: employer.name, ...attempt });
      expect(res.statusCode, JSON.stringify(attempt)).toBe(400);
      expect(res.json()).toEqual({ error: NOT_LISTED, code: 'validation', fields: { lhmpId: NOT_LISTED } });
    }

    const accepted: Parameters<typeof newMember>[0][] = [
      { lhmpId: id(1).toLowerCase(), firstName: '  JOSE ', lastName: 'nunez' },
      { lhmpId: id(2), firstName: 'mary   ann', lastName: 'O’Brien' },
      { lhmpId: id(3), firstName: 'LI', lastName: 'WEI' },
    ];
    for (const attempt of accepted) {
      // The employer's name as members type it: case, punctuation, suffix.
      const res = await register({ company: `${employer.name.toLowerCase().replace(/ co$/, '')}, inc.`, ...attempt });
      expect(res.statusCode, `${JSON.stringify(attempt)} ${res.body}`).toBe(201);
      expect(res.json().user).toMatchObject({ company: employer.name, lhmpId: id(Number(attempt!.lhmpId!.slice(-1))) });
    }
    // A roster row is not a second account: the programme ID is taken now.
    const twice = await register({ company: employer.name, lhmpId: id(3), firstName: 'Li', lastName: 'Wei' });
    expect(twice.statusCode).toBe(409);
  });

  it('answers a taken email or programme ID with the same 409 whether or not the roster lists the details', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    await importCsv(employer.id, `programme_id,first_name,last_name\n${id(1)},Ann,Lee\n${id(2)},Bo,Li\n`);
    const ann = await registerMember(t.app, { company: employer.name, lhmpId: id(1), firstName: 'Ann', lastName: 'Lee' });
    const emailTaken = { error: 'An account with this email already exists', code: 'conflict', fields: { email: 'An account with this email already exists' } };
    const idTaken = { error: 'This programme ID is already registered', code: 'conflict', fields: { lhmpId: 'This programme ID is already registered' } };
    // Someone holding Ann's email tries guesses: listed, wrong names, not on the roster, unknown employer.
    const guesses: Parameters<typeof newMember>[0][] = [
      { company: employer.name, lhmpId: id(2), firstName: 'Bo', lastName: 'Li' },
      { company: employer.name, lhmpId: id(2), firstName: 'Bo', lastName: 'Wrong' },
      { company: employer.name, lhmpId: id(3), firstName: 'No', lastName: 'Body' },
    ];
    for (const guess of guesses) {
      const res = await register({ ...guess, email: ann.email });
      expect(res.statusCode, JSON.stringify(guess)).toBe(409);
      expect(res.json()).toEqual(emailTaken);
    }
    // Ann's programme ID with her names and with others': the same 409.
    for (const names of [{ firstName: 'Ann', lastName: 'Lee' }, { firstName: 'Not', lastName: 'Ann' }]) {
      const res = await register({ company: employer.name, lhmpId: id(1), ...names });
      expect(res.statusCode, JSON.stringify(names)).toBe(409);
      expect(res.json()).toEqual(idTaken);
    }
    // Bo is still free to register: nothing above took his row.
    expect((await register({ company: employer.name, lhmpId: id(2), firstName: 'Bo', lastName: 'Li' })).statusCode).toBe(201);
  });

  it('refuses an unknown employer in roster mode with the same message, and creates no employer', async () => {
    const roster = await createTestApp({ env: { ENROLMENT_MODE: 'roster' } });
    try {
      const name = `Brand New Employer ${unique()}`;
      const res = await roster.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: name }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: NOT_LISTED, code: 'validation', fields: { lhmpId: NOT_LISTED } });
      const count = rowsOf<{ n: number }>(await roster.database.db.execute(sql`select count(*)::int as n from companies where name_key = employer_name_key(${name})`));
      expect(count[0]!.n).toBe(0);

      // An administrator adds the employer: in roster mode, with an empty roster nobody matches.
      const rosterAdmin = await setUpAdmin(roster);
      const created = await roster.app.inject({ method: 'POST', url: '/api/admin/employers', headers: rosterAdmin, payload: { name } });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().employer).toMatchObject({ name, enrolmentMode: 'roster' });
      const still = await roster.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: name }) });
      expect(still.json()).toEqual({ error: NOT_LISTED, code: 'validation', fields: { lhmpId: NOT_LISTED } });

      // An existing open employer stays open whatever ENROLMENT_MODE says.
      await roster.database.db.execute(sql`insert into companies (name) values ('Old Open Employer')`);
      const open = await roster.app.inject({ method: 'POST', url: '/api/auth/register', payload: newMember({ company: 'old open employer' }) });
      expect(open.statusCode, open.body).toBe(201);
    } finally {
      await roster.close();
    }
  });

  it('switches between roster and open mode, keeping the roster, audited', async () => {
    const employer = await newEmployer();
    const id = idBlock();
    await importCsv(employer.id, `programme_id,first_name,last_name\n${id(1)},Ann,Lee\n`);
    const outsider = { company: employer.name, lhmpId: id(7), firstName: 'Out', lastName: 'Sider' };
    expect((await register(outsider)).statusCode).toBe(400);

    const toOpen = await t.app.inject({ method: 'PATCH', url: `/api/admin/employers/${employer.id}/enrolment`, headers: adminHeaders, payload: { enrolmentMode: 'open' } });
    expect(toOpen.statusCode, toOpen.body).toBe(200);
    expect(toOpen.json()).toEqual({ enrolmentMode: 'open', rosterEntries: 1 });
    expect((await register(outsider)).statusCode).toBe(201);

    const toRoster = await t.app.inject({ method: 'PATCH', url: `/api/admin/employers/${employer.id}/enrolment`, headers: adminHeaders, payload: { enrolmentMode: 'roster' } });
    expect(toRoster.json()).toEqual({ enrolmentMode: 'roster', rosterEntries: 1 });
    expect((await register({ ...outsider, lhmpId: id(8) })).statusCode).toBe(400);
    expect((await register({ company: employer.name, lhmpId: id(1), firstName: 'ann', lastName: 'lee' })).statusCode).toBe(201);

    const events = rowsOf<{ payload_json: Record<string, unknown> }>(
      await t.database.db.execute(sql`select payload_json from events where type = 'admin.enrolment_mode.changed' and company_id = ${employer.id} order by id`),
    );
    expect(events.map((e) => e.payload_json)).toEqual([
      { from: 'roster', to: 'open' },
      { from: 'open', to: 'roster' },
    ]);
    const invalid = await t.app.inject({ method: 'PATCH', url: `/api/admin/employers/${employer.id}/enrolment`, headers: adminHeaders, payload: { enrolmentMode: 'closed' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ error: 'Enrolment mode must be open or roster', code: 'validation', fields: { enrolmentMode: 'Enrolment mode must be open or roster' } });
    const unknown = await t.app.inject({ method: 'PATCH', url: '/api/admin/employers/00000000-0000-4000-8000-000000000000/enrolment', headers: adminHeaders, payload: { enrolmentMode: 'open' } });
    expect(unknown.statusCode).toBe(404);
  });
});

/** An elevated admin of `app`, in an open employer made for them (registration may not create one). */
async function setUpAdmin(app: TestApp) {
  const company = `Admins ${unique()}`;
  await app.database.db.execute(sql`insert into companies (name) values (${company})`);
  const member = await registerMember(app.app, { company });
  await setAdminRole(app.database.db, member.email, true);
  return freshSessionHeaders(app, member.id, { elevated: true });
}
