/**
 * Property-based API fuzzer, generated from what the app registers: every route in
 * `app.routeTable` and the zod request schemas Fastify holds for it (captured by a hook, so
 * a route added tomorrow is fuzzed tomorrow). For anonymous callers, members, admins without
 * step-up and elevated admins it sends plausible, damaged, oversized, wrongly typed,
 * injected and unicode-edge bodies, queries, path parameters and auth headers, and checks:
 * - never a 5xx; every 4xx is `{ error, fields? }`;
 * - a 2xx only for input the route's own schemas accept;
 * - a refused caller is refused whatever the input (guards run before the body is read);
 * - a refused request changes no row (per-table digests before and after; refused
 *   credential attempts may only append their audit rows);
 * - the server is healthy and consistent afterwards.
 * Fixed seed and a bounded count here; `npm run fuzz` runs it longer (FUZZ_RUNS, FUZZ_SEED).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteEntry } from '../../src/server/plugins/auth';
import { ErrorBodySchema } from '../../src/shared/errors';
import {
  HOSTILE_AUTHORIZATION,
  RAW_BODIES,
  RAW_QUERIES,
  RAW_SEGMENTS,
  type Pools,
  type RouteSchemas,
  captureRoutes,
  changedTables,
  damagedObject,
  encodeComponent,
  hostileValue,
  plausible,
  ROW_DIGEST,
  tableDigests,
} from './support/fuzz';
import { CALLERS, type Caller, callerSessions, expectationFor } from './support/callers';
import { asUser, createTestApp, registerMember, signedInMember } from './support/test-app';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_302);
/** A sign-in case costs a password hash; longer runs get proportionally longer. */
const CELL_TIMEOUT_MS = 30_000 + RUNS * 1_000;
let capture!: ReturnType<typeof captureRoutes>;
const t = await createTestApp({
  beforeReady: (app) => {
    capture = captureRoutes(app);
  },
});
const routes: RouteEntry[] = [...t.app.routeTable].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
// One anonymous request per route lets the hook record the route's schemas.
for (const route of routes) await t.app.inject({ method: route.method as 'GET', url: route.url.replace(/:[A-Za-z0-9_]+/g, randomUUID()) });
const schemasOf = (route: RouteEntry): RouteSchemas => capture.schemas.get(`${route.method} ${route.url}`) ?? {};

const callers = callerSessions(t);
const headersFor = callers.headersFor;
const pools: Pools = { ids: [], emails: [] };
const stats = { cases: 0, status: {} as Record<number, number>, serverErrors: 0, accepted: 0 };

beforeAll(async () => {
  const member = await signedInMember(t.app);
  const other = await signedInMember(t.app);
  const admin = await registerMember(t.app);
  await callers.setUp(member, admin);
  // Objects for the ids pool: both members' family, a live popup and its member states.
  for (const m of [member, other]) {
    for (const relationship of ['Spouse', 'Child']) {
      const res = await t.app.inject(asUser(m.token, { method: 'POST', url: '/api/family-members', payload: { firstName: 'Fam', lastName: 'Ily', dob: '2001-02-03', relationship } }));
      expect(res.statusCode, res.body).toBe(201);
    }
  }
  const elevated = await headersFor('elevated admin');
  const now = t.clock();
  const popup = await t.app.inject({
    method: 'POST',
    url: '/api/admin/popups',
    headers: elevated,
    payload: { title: 'Fuzz', message: 'Fuzz popup', target: 'home', startAt: new Date(now.getTime() - 3_600_000).toISOString(), endAt: new Date(now.getTime() + 86_400_000).toISOString(), isActive: true },
  });
  expect(popup.statusCode, popup.body).toBe(201);
  // Asked twice from one session: one counted show each (checked after the fuzzing).
  for (const m of [member, other, member, other]) await t.app.inject(asUser(m.token, { url: '/api/popups/next?context=login&route=home' }));
  pools.ids = await existingIds();
  pools.emails = [member.email, other.email, admin.email];
});

afterAll(async () => {
  mkdirSync('.tmp', { recursive: true });
  const summary = { database: process.env.TEST_DB ?? 'pglite', seed: SEED, runsPerCell: RUNS, routes: routes.length, ...stats };
  writeFileSync(`.tmp/fuzz-summary-${summary.database}.json`, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`fuzz (${summary.database}): ${stats.cases} cases over ${routes.length} routes, ${stats.accepted} accepted, ${stats.serverErrors} 5xx, statuses ${JSON.stringify(stats.status)}`);
  await t.close();
});

/** Every uuid `id` in the database: real objects, other members' among them. */
async function existingIds(): Promise<string[]> {
  const cols = (await t.database.db.execute(
    sql`select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'id' and data_type = 'uuid' order by 1`,
  )) as unknown as { rows: { name: string }[] };
  const ids: string[] = [];
  for (const { name } of cols.rows) {
    const rows = (await t.database.db.execute(sql.raw(`select id::text as id from "${name}" limit 10`))) as unknown as { rows: { id: string }[] };
    ids.push(...rows.rows.map((r) => r.id));
  }
  return ids;
}

interface FuzzRequest {
  params: Record<string, string>;
  /** Raw path segments that are not exactly the decoded value. */
  paramsExact: boolean;
  query: Record<string, string | string[]>;
  queryText: string;
  queryExact: boolean;
  body?: { kind: 'json'; value: unknown } | { kind: 'raw'; contentType?: string; text: string | Buffer };
  authorization?: string;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value) ?? String(value));

function paramArbitrary(route: RouteEntry, schemas: RouteSchemas): fc.Arbitrary<{ params: Record<string, string>; segments: Record<string, string>; exact: boolean }> {
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  if (names.length === 0) return fc.constant({ params: {}, segments: {}, exact: true });
  const shape = schemas.params ? ((schemas.params as unknown as { _zod: { def: { shape?: Record<string, z.core.$ZodType> } } })._zod.def.shape ?? {}) : {};
  const one = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...pools.ids).map((v) => ({ value: v, segment: v, exact: true })) },
      { weight: 3, arbitrary: (shape[name] ? plausible(shape[name], pools) : fc.uuid()).map((v) => segmentFor(asText(v))) },
      { weight: 2, arbitrary: hostileValue.map((v) => segmentFor(asText(v))) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((s) => ({ value: s, segment: s, exact: false })) },
    );
  return fc.tuple(...names.map(one)).map((parts) => ({
    params: Object.fromEntries(names.map((n, i) => [n, parts[i]!.value])),
    segments: Object.fromEntries(names.map((n, i) => [n, parts[i]!.segment])),
    exact: parts.every((p) => p.exact),
  }));
}

function segmentFor(value: string) {
  const encoded = encodeComponent(value);
  // An empty or over-long segment cannot reach the route; the router answers for it.
  return { value, segment: encoded.text, exact: encoded.exact && value.length > 0 };
}

function queryArbitrary(schemas: RouteSchemas): fc.Arbitrary<{ query: Record<string, string | string[]>; text: string; exact: boolean }> {
  const fromObject = (obj: unknown) => {
    const query: Record<string, string | string[]> = {};
    const parts: string[] = [];
    let exact = true;
    if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
      for (const [key, raw] of Object.entries(obj)) {
        const values = Array.isArray(raw) && raw.length > 1 && raw.length < 5 ? raw.map(asText) : [asText(raw)];
        const k = encodeComponent(key);
        exact &&= k.exact && key !== '__proto__' && key !== 'constructor' && key !== '';
        for (const v of values) {
          const e = encodeComponent(v);
          exact &&= e.exact;
          parts.push(`${k.text}=${e.text}`);
        }
        query[key] = values.length > 1 ? values : values[0]!;
      }
    } else exact = false;
    return { query, text: parts.join('&'), exact };
  };
  const raw = fc.constantFrom(...RAW_QUERIES).map((text) => ({ query: {}, text, exact: false }));
  if (!schemas.querystring) return fc.oneof({ weight: 4, arbitrary: fc.constant({ query: {}, text: '', exact: true }) }, { weight: 1, arbitrary: raw });
  return fc.oneof(
    { weight: 3, arbitrary: plausible(schemas.querystring, pools).map(fromObject) },
    { weight: 4, arbitrary: damagedObject(schemas.querystring, pools).map(fromObject) },
    { weight: 1, arbitrary: raw },
  );
}

function bodyArbitrary(route: RouteEntry, schemas: RouteSchemas): fc.Arbitrary<FuzzRequest['body']> {
  const raw = fc.constantFrom(...RAW_BODIES).map((b) => ({ kind: 'raw' as const, contentType: b.contentType, text: b.body }));
  const json = (arb: fc.Arbitrary<unknown>) => arb.map((value) => ({ kind: 'json' as const, value }));
  if (schemas.body) {
    return fc.oneof({ weight: 4, arbitrary: json(plausible(schemas.body, pools)) }, { weight: 4, arbitrary: json(damagedObject(schemas.body, pools)) }, { weight: 1, arbitrary: raw });
  }
  if (route.method === 'GET') return fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: raw });
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: json(hostileValue) }, { weight: 1, arbitrary: raw });
}

function requestArbitrary(route: RouteEntry): fc.Arbitrary<FuzzRequest & { url: string }> {
  const schemas = schemasOf(route);
  return fc
    .tuple(
      paramArbitrary(route, schemas),
      queryArbitrary(schemas),
      bodyArbitrary(route, schemas),
      fc.oneof({ weight: 15, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_AUTHORIZATION) }),
    )
    .map(([p, q, body, authorization]) => {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => p.segments[name]!);
      return {
        url: q.text ? `${path}?${q.text}` : path,
        params: p.params,
        paramsExact: p.exact,
        query: q.query,
        queryText: q.text,
        queryExact: q.exact,
        body,
        ...(authorization ? { authorization } : {}),
      };
    });
}

/** Refused credential attempts are audited: only appended audit rows may follow a 4xx. */
const APPEND_ONLY_AUDIT: Record<string, string> = {
  login_audits: "result <> 'success'",
  events: "type like '%.denied'",
};

const AUDIT_TABLES = Object.keys(APPEND_ONLY_AUDIT);
const digest = () => tableDigests(t.database.db, AUDIT_TABLES);

async function unexpectedChanges(before: Record<string, string>): Promise<string[]> {
  const changed = changedTables(before, await tableDigests(t.database.db));
  const problems: string[] = [];
  for (const table of changed) {
    const rule = APPEND_ONLY_AUDIT[table];
    if (!rule) {
      problems.push(table);
      continue;
    }
    const bound = Number(before[`max:${table}`]);
    const r = (await t.database.db.execute(
      sql.raw(
        `select (select count(*) from "${table}" where id > ${bound} and not (${rule}))::int as bad,
                (select ${ROW_DIGEST} from "${table}" t where id <= ${bound}) as digest`,
      ),
    )) as unknown as { rows: { bad: number; digest: string }[] };
    const row = r.rows[0]!;
    if (row.bad > 0 || row.digest !== before[table]) problems.push(`${table} (not an appended refusal audit)`);
  }
  return problems;
}

async function send(route: RouteEntry, auth: Record<string, string>, req: FuzzRequest & { url: string }) {
  const headers: Record<string, string> = { ...auth, 'user-agent': 'fuzz' };
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  let payload: string | Buffer | undefined;
  if (req.body?.kind === 'json') {
    payload = JSON.stringify(req.body.value) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (req.body?.kind === 'raw') {
    payload = req.body.text;
    if (req.body.contentType) headers['content-type'] = req.body.contentType;
  }
  return t.app.inject({ method: route.method as 'GET', url: req.url, headers, ...(payload !== undefined ? { payload } : {}) });
}

function check(route: RouteEntry, caller: Caller, req: FuzzRequest & { url: string }, res: Awaited<ReturnType<typeof send>>) {
  const where = `${route.method} ${req.url.slice(0, 300)} as ${caller}`;
  stats.cases += 1;
  stats.status[res.statusCode] = (stats.status[res.statusCode] ?? 0) + 1;
  if (process.env.FUZZ_TRACE) console.log(`${res.statusCode} ${where.slice(0, 160)} ${res.body.slice(0, 120)} auth=${JSON.stringify(req.authorization)}`);
  if (res.statusCode >= 500) stats.serverErrors += 1;
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.statusCode, where).toBeGreaterThanOrEqual(200);
  // The security headers on every answer, refusals included; never cached, never CORS-open.
  expect(res.headers['content-security-policy'], where).toMatch(/default-src '(self|none)'.*frame-ancestors 'none'|frame-ancestors 'none'.*default-src/);
  expect(res.headers['strict-transport-security'], where).toContain('max-age=31536000');
  expect(res.headers['x-content-type-options'], where).toBe('nosniff');
  expect(res.headers['x-frame-options'], where).toBe('DENY');
  expect(res.headers['cross-origin-resource-policy'], where).toBe('same-origin');
  // A document's policy; a JSON answer carries none (docs/decisions/http-headers-and-transport.md).
  expect(res.headers['referrer-policy'], where).toBeUndefined();
  expect(res.headers['cache-control'], where).toBe('no-store');
  expect(res.headers['access-control-allow-origin'], where).toBeUndefined();
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], where).toMatch(/^application\/json/);
    const parsed = ErrorBodySchema.strict().safeParse(JSON.parse(res.body));
    expect(parsed.success, `${where}: error body ${res.body.slice(0, 300)}`).toBe(true);
  }
  const matchedRoute = capture.matched.get(res.headers['x-request-id'] as string);
  if (matchedRoute !== `${route.method} ${route.url}`) {
    // The router refused the path itself (undecodable, over-long or unmatched segment).
    expect([400, 404, 414], `${where}: unmatched path -> ${res.statusCode}`).toContain(res.statusCode);
    return;
  }
  const authorizationTampered = req.authorization !== undefined;
  const expected = authorizationTampered && route.access !== 'public' ? 401 : expectationFor(route.access, caller);
  if (expected !== 'allowed') {
    expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBe(expected);
    return;
  }
  if (res.statusCode < 300) {
    stats.accepted += 1;
    const schemas = schemasOf(route);
    if (schemas.body && req.body?.kind === 'json') {
      expect(z.safeParse(schemas.body, JSON.parse(JSON.stringify(req.body.value) ?? 'null')).success, `${where}: accepted a body its schema refuses`).toBe(true);
    }
    if (schemas.querystring && req.queryExact) {
      expect(z.safeParse(schemas.querystring, req.query).success, `${where}: accepted a query its schema refuses`).toBe(true);
    }
    if (schemas.params && req.paramsExact) {
      expect(z.safeParse(schemas.params, req.params).success, `${where}: accepted params their schema refuses`).toBe(true);
    }
  }
}

/** Long generated strings would bury the failure; elide them in the counterexample. */
function shortReport<T>(details: fc.RunDetails<T>) {
  if (!details.failed) return;
  const example = JSON.stringify(details.counterexample, (_k, v: unknown) => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 100)}…(${v.length} chars)` : v));
  const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`Property failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath}):\n${reason.slice(0, 1500)}\ncounterexample: ${example?.slice(0, 2000)}`);
}

describe('the fuzzer', () => {
  it('knows every route and found the request schemas Fastify validates with', () => {
    expect(routes.length).toBeGreaterThan(10);
    const withBody = routes.filter((r) => schemasOf(r).body);
    const withQuery = routes.filter((r) => schemasOf(r).querystring);
    const withParams = routes.filter((r) => schemasOf(r).params);
    expect(withBody.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/auth/register', '/api/auth/signin', '/api/family-members']));
    expect(withQuery.length).toBeGreaterThan(0);
    // Every route with a path parameter declares a schema for it.
    for (const route of routes.filter((r) => r.url.includes(':'))) expect(withParams, `${route.method} ${route.url}`).toContain(route);
  });

  it('has digests that see one changed character in one row', async () => {
    const id = ((await t.database.db.execute(sql`select id::text as id from family_members order by id limit 1`)) as unknown as { rows: { id: string }[] }).rows[0]!.id;
    const before = await digest();
    await t.database.db.execute(sql`update family_members set first_name = first_name || 'x' where id = ${id}`);
    expect(changedTables(before, await digest())).toEqual(['family_members']);
    await t.database.db.execute(sql`update family_members set first_name = left(first_name, -1) where id = ${id}`);
    expect(changedTables(before, await digest())).toEqual([]);
  });
});

describe.each(routes)('$method $url ($access)', (route) => {
  it.each(CALLERS)('as %s: never a 5xx, refusals change nothing', async (caller) => {
    const allowed = expectationFor(route.access, caller) === 'allowed';
    const numRuns = allowed ? RUNS : Math.max(2, Math.ceil(RUNS / 4));
    await fc.assert(
      fc.asyncProperty(requestArbitrary(route), async (req) => {
        const auth = await headersFor(caller);
        const before = await digest();
        const res = await send(route, auth, req);
        check(route, caller, req, res);
        if (res.statusCode >= 400) {
          // The case's own fresh session row is part of "before"; nothing else may move.
          expect(await unexpectedChanges(before), `${route.method} ${req.url.slice(0, 200)} as ${caller} -> ${res.statusCode}`).toEqual([]);
        }
      }),
      { seed: SEED + routes.indexOf(route) * 10 + CALLERS.indexOf(caller), numRuns, endOnFailure: !process.env.FUZZ_SHRINK, reporter: shortReport },
    );
  }, CELL_TIMEOUT_MS);
});

describe('transport-level inputs on every route', () => {
  const withBody = routes.filter((r) => r.method !== 'GET');
  it.each(withBody)('$method $url: every raw body and content type', async (route) => {
    const caller: Caller = route.access === 'admin' ? 'elevated admin' : route.access === 'member' ? 'member' : 'anonymous';
    for (const raw of RAW_BODIES) {
      const req = { url: route.url.replace(/:[A-Za-z0-9_]+/g, () => pools.ids[0]!), params: {}, paramsExact: false, query: {}, queryText: '', queryExact: false, body: { kind: 'raw' as const, contentType: raw.contentType, text: raw.body } };
      const auth = await headersFor(caller);
      const before = await digest();
      const res = await send(route, auth, req);
      check(route, caller, req, res);
      if (res.statusCode >= 400) expect(await unexpectedChanges(before), `${route.method} ${route.url} ${raw.contentType}`).toEqual([]);
    }
  });

  const guarded = routes.filter((r) => r.access !== 'public');
  it.each(guarded)('$method $url: no forged, malformed or query-string token is accepted', async (route) => {
    const url = route.url.replace(/:[A-Za-z0-9_]+/g, () => randomUUID());
    const token = (await headersFor('elevated admin')).authorization!.slice('Bearer '.length);
    const cases: { url: string; authorization?: string }[] = [
      ...HOSTILE_AUTHORIZATION.map((authorization) => ({ url, authorization })),
      { url: `${url}?token=${token}` },
      { url: `${url}?access_token=${token}` },
      { url, authorization: `Bearer ${token}x` },
      { url, authorization: `Bearer ${token.slice(0, -1)}` },
      { url, authorization: `Token ${token}` },
    ];
    for (const c of cases) {
      const req = { ...c, params: {}, paramsExact: false, query: {}, queryText: '', queryExact: false };
      const res = await send(route, {}, req);
      check(route, 'anonymous', req, res);
      expect(res.statusCode, `${route.method} ${c.url} ${c.authorization ?? ''}`).toBe(401);
    }
  });
});

describe('after the fuzzing', () => {
  it('is healthy, consistent, and still serves a member', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    // A new employer: the fuzzer may have switched the existing ones to roster mode (PATCH .../enrolment).
    const m = await signedInMember(t.app, { company: `Fuzz Aftercare ${randomUUID().slice(0, 8)}` });
    expect((await t.app.inject(asUser(m.token, { url: '/api/auth/me' }))).statusCode).toBe(200);
    const counts = (await t.database.db.execute(
      sql`select count(*)::int as bad from participants p where p.family_member_count <> (select count(*) from family_members f where f.participant_id = p.id)`,
    )) as unknown as { rows: { bad: number }[] };
    expect(counts.rows[0]!.bad).toBe(0);
    // Popup statistics stay exact whatever was sent: every counted show names its session and
    // occurrence, and no member, popup, occurrence and session is counted twice.
    const shows = (await t.database.db.execute(sql`
      select
        (select count(*) from events where type = 'popup.shown')::int as shows,
        (select count(*) from (select 1 from events where type = 'popup.shown'
          group by actor_user_id, payload_json->>'popupId', payload_json->>'occurrenceStart', payload_json->>'sessionId' having count(*) > 1) d)::int as repeated,
        (select count(*) from events where type = 'popup.shown' and not (payload_json ? 'sessionId' and payload_json ? 'occurrenceStart'))::int as unattributed`)) as unknown as {
      rows: { shows: number; repeated: number; unattributed: number }[];
    };
    expect(shows.rows[0]!.shows).toBeGreaterThanOrEqual(2);
    expect(shows.rows[0]).toMatchObject({ repeated: 0, unattributed: 0 });
    expect(stats.cases).toBeGreaterThan(routes.length * CALLERS.length);
    expect(stats.serverErrors).toBe(0);
  });
});
