/**
 * Building blocks for the API fuzzer: arbitraries generated from the zod request schemas
 * Fastify holds for each route, hostile values, and digests of every table so a test can
 * prove a refused request changed nothing.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fc from 'fast-check';
import { z } from 'zod';
import type { Db } from '../../../src/db/client';

type AnyZod = z.core.$ZodType;
interface Def {
  type: string;
  [key: string]: unknown;
}
const defOf = (schema: AnyZod) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isZod = (value: unknown): value is AnyZod =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** The zod schemas of one route, as Fastify holds them after registration. */
export interface RouteSchemas {
  body?: AnyZod;
  querystring?: AnyZod;
  params?: AnyZod;
}

/**
 * Adds a hook that records each route's request schemas the first time a request reaches it,
 * and which route (if any) the router matched for every request. Call it from
 * `createTestApp({ beforeReady })`.
 */
export function captureRoutes(app: FastifyInstance) {
  const schemas = new Map<string, RouteSchemas>();
  const matched = new Map<string, string | undefined>();
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    matched.set(request.id, url ? `${request.method} ${url}` : undefined);
    if (!url) return;
    const key = `${request.method} ${url}`;
    if (schemas.has(key)) return;
    const schema = (request.routeOptions.schema ?? {}) as FastifySchema;
    const pick = (part: unknown) => (isZod(part) ? part : undefined);
    schemas.set(key, { body: pick(schema.body), querystring: pick(schema.querystring), params: pick(schema.params) });
  });
  return { schemas, matched };
}

/** Strings that break parsers, encoders, SQL, LIKE patterns, logs and normalisation. */
export const NASTY_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1' AND pg_sleep(5)--",
  '1; select pg_sleep(5)',
  "' UNION SELECT password_hash FROM users --",
  '") OR ("a"="a',
  '%',
  '_',
  '%_%',
  '\\',
  '\\%',
  "\\'",
  '$1',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  'a\u0000b',
  '\u0000',
  'a\r\nSet-Cookie: x=y',
  '\ud800',
  'a\udfffb',
  '\ufeffBOM',
  '\u202egnp.exe',
  '\u200b\u200c\u200d',
  'Z\u0351\u0362\u0334\u0315a\u0337\u0328\u034e',
  '👩‍👩‍👧‍👦',
  'İstanbul ß ﬃ Ω',
  'ＡＢＣ１２３',
  '١٢٣',
  '   ',
  '\t\n\v\f\r',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  ' 1',
  '9'.repeat(40),
  '-1',
  '__proto__',
  'constructor',
  'LQ\u0000\u0000\u0000\u0000\u0000',
  'lq12345',
  'x'.repeat(257),
  'é'.repeat(2000),
  'a'.repeat(70_000),
];

/** Keys an attacker adds to a body: prototype pollution and mass assignment. */
export const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'role', 'isAdmin', 'userId', 'id', 'companyId', 'participantId', 'adminElevatedAt', 'passwordHash', '$where', ''];

/** A nested array `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

/** An object with an own `__proto__` key, as JSON.parse would make it. */
const protoObject = () => JSON.parse('{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"x":1}}}') as unknown;

/** Any value of the wrong kind, shape or size. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 2 ** 53 + 1, 1e308, -1e308, [], {}, [1, 2, 3], { $gt: '' }, { $ne: null }),
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(null).map(protoObject),
  fc.constantFrom(64, 2000).map(nested),
  fc.constant(null).map(() => Array.from({ length: 5000 }, (_, i) => i)),
);

/** Well-shaped strings for fields whose rule is a refinement the generator cannot read. */
const SHAPED_STRINGS = [
  '2000-01-01',
  '1900-01-01',
  '1899-12-31',
  '2024-02-29',
  '2023-02-29',
  '2999-12-31',
  '2026-03-02T12:00:00.000Z',
  '2026-03-02T12:00:00+14:00',
  'UTC',
  'America/Los_Angeles',
  'Europe/London',
  'Mars/Olympus',
  '+05:00',
  'Spouse',
  'Child',
  'Other',
  'home',
];

export interface Pools {
  /** Ids of rows that exist (other members' objects among them). */
  ids: string[];
  /** Known e-mail addresses (so sign-ins reach real accounts). */
  emails: string[];
}

function jsonSchemaOf(schema: AnyZod): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function hasRefinement(schema: AnyZod): boolean {
  const checks = (defOf(schema).checks ?? []) as AnyZod[];
  return checks.some((c) => defOf(c).check === 'custom');
}

/** Dates and instants around the test clock (2026-03-02), as ISO strings. */
const isoDates = fc.date({ min: new Date('1890-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const isoInstants = fc
  .integer({ min: -40 * 86_400, max: 40 * 86_400 })
  .map((s) => new Date(Date.parse('2026-03-02T12:00:00Z') + s * 1000).toISOString());
const timeZones = fc.constantFrom('UTC', 'America/Los_Angeles', 'Europe/London', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Mars/Olympus', '+05:00', 'utc');

/**
 * A fuzzing dictionary keyed by field name: a refinement (a real date, a known time zone)
 * cannot be read from the schema, but the field's name says what a valid value looks like.
 */
function hintFor(key: string | undefined): fc.Arbitrary<string> | undefined {
  if (!key) return undefined;
  if (/dob|birth|date$/i.test(key)) return isoDates;
  if (/At$/.test(key)) return isoInstants;
  if (/zone/i.test(key)) return timeZones;
  return undefined;
}

function stringArbitrary(schema: AnyZod, pools: Pools, key?: string): fc.Arbitrary<string> {
  const js = jsonSchemaOf(schema);
  const min = typeof js.minLength === 'number' ? js.minLength : 0;
  const max = typeof js.maxLength === 'number' ? js.maxLength : 120;
  const fits = (s: string) => s.length >= min && s.length <= max;
  const short = Math.max(min, Math.min(max, 40));
  // Free text gets hostile contents within its limits; a shaped field is mostly well-shaped.
  const shaped = typeof js.pattern === 'string' || js.format !== undefined || hasRefinement(schema) || hintFor(key) !== undefined;
  const options: fc.WeightedArbitrary<string>[] = [
    { weight: shaped ? 1 : 4, arbitrary: fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(short, 1) }).filter(fits) },
    { weight: shaped ? 1 : 2, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: short }) },
    { weight: shaped ? 1 : 3, arbitrary: fc.constantFrom(...NASTY_STRINGS).map((s) => s.slice(0, max)).filter(fits) },
    { weight: 1, arbitrary: fc.constantFrom(...SHAPED_STRINGS) },
  ];
  const hint = hintFor(key);
  if (hint) options.push({ weight: 30, arbitrary: hint });
  if (typeof js.pattern === 'string' && js.format !== 'email' && js.format !== 'date-time') {
    options.push({ weight: 30, arbitrary: fc.stringMatching(new RegExp(js.pattern)).filter(fits) });
  }
  if (js.format === 'email') {
    options.push({ weight: 2, arbitrary: fc.constantFrom(...(pools.emails.length ? pools.emails : ['a@b.test'])) });
    options.push({ weight: 26, arbitrary: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9.+_-]{0,20}[a-z0-9]$/), fc.constantFrom('example.test', 'EXAMPLE.org', 'xn--bcher-kva.example')).map(([local, domain]) => `${local.replace(/\.{2,}/g, '.')}@${domain}`) });
    options.push({ weight: 2, arbitrary: fc.emailAddress().filter(fits) });
  }
  if (js.format === 'date-time') options.push({ weight: 30, arbitrary: isoInstants });
  if (js.format === 'uuid') options.push({ weight: 20, arbitrary: fc.uuid({ version: 4 }) });
  if (pools.ids.length) options.push({ weight: js.format === 'uuid' ? 6 : 1, arbitrary: fc.constantFrom(...pools.ids) });
  return fc.oneof(...options);
}

function numberArbitrary(schema: AnyZod): fc.Arbitrary<number> {
  const js = jsonSchemaOf(schema);
  const lo = typeof js.minimum === 'number' ? js.minimum : typeof js.exclusiveMinimum === 'number' ? js.exclusiveMinimum + 1 : -1000;
  const hi = typeof js.maximum === 'number' ? js.maximum : typeof js.exclusiveMaximum === 'number' ? js.exclusiveMaximum - 1 : 1000;
  const min = Math.max(lo, Number.MIN_SAFE_INTEGER);
  const max = Math.min(hi, Number.MAX_SAFE_INTEGER);
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1) },
    { weight: 1, arbitrary: fc.double({ min, max, noNaN: true }) },
  );
}

/**
 * Values that are plausibly valid for a schema: right shape and type, contents drawn from
 * patterns, real ids and e-mails, edge strings within the length limits. The schema itself
 * says afterwards whether a sample was valid.
 */
export function plausible(schema: AnyZod, pools: Pools, key?: string): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, AnyZod>;
      const entries = Object.entries(shape).map(([key, child]) => {
        const t = defOf(child).type;
        const arb = plausible(child, pools, key);
        const optional = t === 'optional' || t === 'default' || t === 'prefault' || (t === 'pipe' && isOptionalPipe(child));
        return [key, optional ? fc.option(arb, { nil: undefined, freq: 3 }) : arb] as const;
      });
      return fc.tuple(...entries.map(([, arb]) => arb)).map((values) => {
        const out: Record<string, unknown> = {};
        entries.forEach(([key], i) => {
          if (values[i] !== undefined) out[key] = values[i];
        });
        return out;
      });
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return plausible(def.innerType as AnyZod, pools, key);
    case 'nullable':
      return fc.oneof(fc.constant(null), plausible(def.innerType as AnyZod, pools, key));
    case 'pipe': {
      const out = def.out as AnyZod;
      const inner = def.in as AnyZod;
      return defOf(out).type === 'transform' ? plausible(inner, pools, key) : plausible(out, pools, key);
    }
    case 'string':
      return stringArbitrary(schema, pools, key);
    case 'number':
    case 'int':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(plausible(def.element as AnyZod, pools, key), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(def.options as AnyZod[]).map((o) => plausible(o, pools, key)));
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function isOptionalPipe(schema: AnyZod): boolean {
  const def = defOf(schema);
  if (def.type !== 'pipe') return false;
  const t = defOf(def.out as AnyZod).type;
  return t === 'optional' || t === 'default' || isOptionalPipe(def.out as AnyZod);
}

/** A plausible object with one field damaged: wrong value, missing, or an attacker's extra key. */
export function damagedObject(schema: AnyZod, pools: Pools): fc.Arbitrary<unknown> {
  const base = plausible(schema, pools);
  const keys = defOf(schema).type === 'object' ? Object.keys(defOf(schema).shape as object) : [];
  const pickKey = keys.length ? fc.constantFrom(...keys) : fc.constant('x');
  return fc.oneof(
    fc.tuple(base, pickKey, hostileValue).map(([obj, key, value]) => withKey(obj, key, value)),
    fc.tuple(base, pickKey).map(([obj, key]) => {
      if (!isRecord(obj)) return obj;
      const copy = { ...obj };
      delete copy[key];
      return copy;
    }),
    fc.tuple(base, fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 10 })), hostileValue).map(([obj, key, value]) =>
      withKey(obj, key, value),
    ),
    hostileValue,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets a key as an own property, even `__proto__`. */
function withKey(obj: unknown, key: string, value: unknown): unknown {
  const copy: Record<string, unknown> = isRecord(obj) ? { ...obj } : {};
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** percent-encodes a value; a lone surrogate becomes its (invalid) UTF-8 bytes, as a raw client could send. */
export function encodeComponent(value: string): { text: string; exact: boolean } {
  try {
    return { text: encodeURIComponent(value), exact: true };
  } catch {
    const bytes = Buffer.from(value, 'latin1');
    return { text: [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''), exact: false };
  }
}

/** Raw path segments and query strings a hand-written client could send. */
export const RAW_SEGMENTS = ['%', '%zz', '%c0%af', '%ed%a0%80', '%00', '..', '%2e%2e%2f', '%2F', 'a%20b', ';', '~', 'x'.repeat(250), '%ff%fe'];
export const RAW_QUERIES = [
  'a=%',
  'search=%zz',
  'search=%00',
  'search=%ed%a0%80',
  'search[]=a&search[]=b',
  'search=a&search=b',
  'page=1&page=2',
  'page=-1',
  'page=1e3',
  'page=0x10',
  'size=101',
  'size=99999999999999999999',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'sortBy=name;drop table users',
  `search=${'a'.repeat(5000)}`,
  'token=abcdefghijklmnopqrstuvwxyz0123456789',
  'access_token=abcdefghijklmnopqrstuvwxyz0123456789',
  '&&&==&',
];

/** Content types and raw bodies that test the parser rather than the schema. */
export const RAW_BODIES: { contentType?: string; body: string | Buffer }[] = [
  { contentType: 'application/json', body: '{' },
  { contentType: 'application/json', body: '{"a":1,}' },
  { contentType: 'application/json', body: '' },
  { contentType: 'application/json', body: 'null' },
  { contentType: 'application/json', body: '"string"' },
  { contentType: 'application/json', body: '[]' },
  { contentType: 'application/json', body: '1e999' },
  { contentType: 'application/json', body: '\ufeff{}' },
  { contentType: 'application/json', body: '{"__proto__":{"role":"admin"}}' },
  { contentType: 'application/json', body: '{"constructor":{"prototype":{"role":"admin"}}}' },
  { contentType: 'application/json', body: '['.repeat(100_000) },
  { contentType: 'application/json', body: '{"a":"\\ud800"}' },
  { contentType: 'application/json', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0xff, 0x22, 0x7d]) },
  { contentType: 'application/json', body: `{"a":"${'x'.repeat(70 * 1024)}"}` },
  { contentType: 'application/json; charset=utf-16', body: '{}' },
  { contentType: 'application/json; charset=latin1', body: '{}' },
  { contentType: 'text/plain', body: 'hello' },
  { contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
  { contentType: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
  { contentType: 'application/xml', body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>' },
  { body: '{"a":1}' },
];

/** Authorization headers that must never authenticate. */
export const HOSTILE_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  'Bearer null',
  'Bearer undefined',
  `Bearer ${'a'.repeat(201)}`,
  'Bearer ../../../../etc/passwd',
  "Bearer ' OR '1'='1",
  'Basic YWRtaW46YWRtaW4=',
  'bearer abcdefghijklmnopqrstuvwxyz',
  'Bearer abcdefghijklmnopqrstuvwxyz\u0000',
];

const digestQueries = new WeakMap<Db, string>();

/**
 * `rows:digest` of a table aliased `t`: the sum of a 64-bit hash of every row, which needs no
 * sort (a refusal must change nothing, and this is computed twice per fuzz case).
 */
export const ROW_DIGEST = `count(*)::text || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0)::text`;

/**
 * Per-table digests (`rows:md5`) of every row in the public schema, in one round trip, plus
 * `max:<table>` for each table in `maxIdOf` (append-only tables with a serial id).
 */
export async function tableDigests(db: Db, maxIdOf: readonly string[] = []): Promise<Record<string, string>> {
  let query = digestQueries.get(db);
  if (!query) {
    const tables = (await db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )) as unknown as { rows: { name: string }[] };
    query = tables.rows
      .map(({ name }) => `select '${name}' as name, ${ROW_DIGEST} as digest from "${name}" t`)
      .join(' union all ');
    digestQueries.set(db, query);
  }
  const extra = maxIdOf.map((name) => ` union all select 'max:${name}', coalesce(max(id), 0)::text from "${name}"`).join('');
  const result = (await db.execute(sql.raw(query + extra))) as unknown as { rows: { name: string; digest: string }[] };
  return Object.fromEntries(result.rows.map((r) => [r.name, r.digest]));
}

/** Names of tables whose digest differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !k.startsWith('max:') && before[k] !== after[k]).sort();
}

/** Up to `count` samples its own schema accepts (fixed seed), for requests that must get through. */
export function validSamples(schema: AnyZod, pools: Pools, count: number, seed = 42): unknown[] {
  return fc
    .sample(plausible(schema, pools), { numRuns: 400, seed })
    .filter((s) => z.safeParse(schema, s).success)
    .slice(0, count);
}
