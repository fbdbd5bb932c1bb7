import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { companies, events, participants, popups, sessions, userPopupStates, users } from '../src/db/schema';
import { buildApp } from '../src/server/app';
import { announceChange } from '../src/server/lib/notify';
import { loadConfig } from '../src/server/config';
import { readSessionTokens } from '../src/server/modules/auth/session-tokens';
import { localTime } from '../src/server/modules/popups/delivery';
import { occurrenceAt, type Recurrence } from '../src/server/modules/popups/schedule';
import { load, ratio, startApp, startBaseline } from './support';

const POPUPS = 1_000;
const USERS = 1_000;
const STATES_PER_USER = 100; // 100,000 user states
const OTHER_EMPLOYERS = 20;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['America/Los_Angeles', 'Europe/London', 'UTC', 'Asia/Kolkata', 'Australia/Sydney'];
const RECURRENCES: Recurrence[] = ['NONE', 'HOURLY', 'DAILY', 'WEEKLY'];
/** The programme's daily cap in the "rules on" run. */
const DAILY_CAP = 3;

/** Deterministic pseudo-random numbers so runs are comparable. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Quiet hours of two hours around Sydney's clock now: a fifth of the members (Sydney) are in them, the other zones are 5+ hours away. */
function quietHoursAroundSydney(now: number): string {
  const at = (ms: number) => localTime(new Date(ms), 'Australia/Sydney');
  return `${at(now - HOUR)}-${at(now + HOUR)}`;
}

/**
 * 1,000 live home popups with audiences (a third for every employer, a third for a list of
 * employers, a third for enrolled members or members with family; a tenth with their own
 * daily cap or quiet hours), 1,000 signed-in users (each session with a browser zone; most
 * enrolled, some with family) holding 100 popup states each, and for a quarter of them three
 * first shows today (the daily cap reached). Returns their bearer tokens.
 */
export async function seedPopupWorkload(db: Db): Promise<{ tokens: string[]; userIds: { id: string }[]; states: number; capped: number }> {
  const random = rng(42);
  const now = Date.now();

  const [company] = await db.insert(companies).values({ name: `Bench Employer ${now}` }).returning();
  const others = await db
    .insert(companies)
    .values(Array.from({ length: OTHER_EMPLOYERS }, (_, i) => ({ name: `Bench Other Employer ${now} ${i}` })))
    .returning({ id: companies.id });

  const popupRows = Array.from({ length: POPUPS }, (_, i) => {
    const audience = i % 3;
    const listed = [company!.id, ...others.filter(() => random() < 0.2).map((o) => o.id)];
    return {
      title: `Bench reminder ${i}`,
      message: 'A reminder the benchmark shows to members.',
      target: 'home',
      startAt: new Date(now - Math.floor(random() * 30) * DAY - HOUR),
      endAt: new Date(now + (1 + Math.floor(random() * 60)) * DAY),
      recurrence: RECURRENCES[i % RECURRENCES.length]!,
      interval: 1 + Math.floor(random() * 3),
      timezone: ZONES[i % ZONES.length]!,
      theme: 'purple',
      maxSnoozes: 2,
      priority: 1 + Math.floor(random() * 10),
      isActive: true,
      // Every third lists employers (this one among them, or only others); every third narrows to enrolled or with family.
      audienceCompanyIds: audience === 1 ? (random() < 0.7 ? listed : listed.slice(1)) : [],
      audienceEnrolledOnly: audience === 2 && i % 2 === 0,
      audienceWithFamilyOnly: audience === 2 && i % 2 === 1,
      dailyCap: i % 10 === 0 ? 5 : null,
      quietHoursStart: i % 10 === 5 ? '01:00' : null,
      quietHoursEnd: i % 10 === 5 ? '05:00' : null,
    };
  });
  const insertedPopups: (typeof popups.$inferSelect)[] = [];
  await insertChunked(popupRows, 500, async (chunk) => insertedPopups.push(...(await db.insert(popups).values(chunk).returning())));

  const userRows = Array.from({ length: USERS }, (_, i) => ({
    firstName: 'Bench',
    lastName: `User${i}`,
    email: `bench.popups.${now}.${i}@bench.test`,
    companyId: company!.id,
    // Programme IDs are unique: spread over the 5-digit space.
    lhmpId: `LQ${String((i * 97 + 11) % 100_000).padStart(5, '0')}`,
    passwordHash: 'not-used-by-this-benchmark',
  }));
  const insertedUsers: { id: string }[] = [];
  await insertChunked(userRows, 500, async (chunk) => insertedUsers.push(...(await db.insert(users).values(chunk).returning({ id: users.id }))));
  // 80% enrolled, a third of those with family members.
  const participantRows = insertedUsers
    .filter(() => random() < 0.8)
    .map((u) => ({ userId: u.id, enrolledAt: new Date(now - 60 * DAY), lastLoginAt: new Date(now - HOUR), familyMemberCount: random() < 0.33 ? 2 : 0 }));
  await insertChunked(participantRows, 500, (chunk) => db.insert(participants).values(chunk));

  // Signed in an hour ago, from browsers in five zones; some states were snoozed since then, some completed, most just seen.
  const tokens = await signIn(db, insertedUsers, new Date(now - HOUR));

  const occurrenceOf = insertedPopups.map((p) => occurrenceAt({ ...p, recurrence: p.recurrence as Recurrence }, new Date(now))!.start);
  const stateRows = [];
  for (const u of insertedUsers) {
    const picked = new Set<number>();
    while (picked.size < STATES_PER_USER) picked.add(Math.floor(random() * POPUPS));
    for (const index of picked) {
      const roll = random();
      stateRows.push({
        userId: u.id,
        popupId: insertedPopups[index]!.id,
        occurrenceStart: occurrenceOf[index]!,
        snoozeCount: roll < 0.3 ? 1 + Math.floor(random() * 2) : 0,
        lastSnoozedAt: roll < 0.15 ? new Date(now - 10 * 60_000) : roll < 0.3 ? new Date(now - 2 * DAY) : null,
        lastShownAt: new Date(now - DAY),
        completedAt: roll > 0.7 ? new Date(now - 3 * HOUR) : null,
      });
    }
  }
  await insertChunked(stateRows, 4_000, (chunk) => db.insert(userPopupStates).values(chunk));

  // A quarter of the members were shown three new popups in the last half hour: the cap is reached for them.
  const cappedUsers = insertedUsers.filter((_, i) => i % 4 === 0);
  const eventRows = cappedUsers.flatMap((u) =>
    [0, 1, 2].map((k) => ({
      actorUserId: u.id,
      companyId: company!.id,
      type: 'popup.shown',
      payloadJson: { popupId: insertedPopups[(k * 331 + u.id.charCodeAt(0)) % POPUPS]!.id, context: 'login', newInOccurrence: true },
      createdAt: new Date(now - (10 + k * 5) * 60_000),
    })),
  );
  await insertChunked(eventRows, 1_000, (chunk) => db.insert(events).values(chunk));
  await db.execute(sql`analyze`);
  // Written behind the app's back: announced as the admin routes do, so no instance keeps older popups.
  await announceChange(db, { popups: true });
  return { tokens, userIds: insertedUsers, states: stateRows.length, capped: cappedUsers.length };
}

/** A session per user, from browsers in five zones (user i in zone i mod 5); their bearer tokens. */
async function signIn(db: Db, userIds: { id: string }[], at: Date): Promise<string[]> {
  const tokens: string[] = [];
  const sessionTokens = await readSessionTokens(db);
  const sessionRows = userIds.map((u, i) => {
    const token = sessionTokens.mint();
    tokens.push(token);
    return {
      userId: u.id,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      signed: true,
      createdAt: at,
      lastSeenAt: new Date(),
      expiresAt: new Date(at.getTime() + 11 * HOUR),
      timeZone: ZONES[i % ZONES.length]!,
    };
  });
  await insertChunked(sessionRows, 500, (chunk) => db.insert(sessions).values(chunk));
  return tokens;
}

/** `GET /api/popups/next` under load, round-robin over the members' sessions. */
async function loadNext(url: string, tokens: string[]) {
  let next = 0;
  const path = '/api/popups/next?context=login&route=home';
  const check = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${tokens[1]}` } });
  if (check.status !== 200 && check.status !== 204) throw new Error(`GET ${path} answered ${check.status}: ${await check.text()}`);
  return load({
    url,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (req) => {
          const token = tokens[next % tokens.length]!;
          next += 1;
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } };
        },
      },
    ],
  });
}

/**
 * GET /api/popups/next (context=login, route=home) with 1,000 live popups (with audiences)
 * and 100,000 user states, as a ratio against a bare node:http JSON endpoint measured in the
 * same run, plus p99: first with the daily cap and quiet hours on (programme cap 3, quiet
 * hours covering the Sydney fifth of the members, a quarter of the members at their cap),
 * then, on the same data, with both off. Every call is the real thing: audience in SQL, the
 * rules, and the show recorded once per session (later calls of a session re-answer it).
 */
export async function run(): Promise<Record<string, number | string>> {
  const baseline = await startBaseline();
  const quiet = quietHoursAroundSydney(Date.now());
  const server = await startApp({ POPUPS_DAILY_CAP: String(DAILY_CAP), POPUPS_QUIET_HOURS: quiet, POPUPS_NEXT_RATE_LIMIT_PER_MINUTE: '100000000' });
  // The same database behind a second app with capping and quiet hours off.
  const plain = await buildApp({
    config: loadConfig({ NODE_ENV: 'production', SERVE_CLIENT: '0', LOG_LEVEL: 'silent', POPUPS_NEXT_RATE_LIMIT_PER_MINUTE: '100000000' }),
    database: server.database,
  });
  try {
    const { tokens, userIds, states, capped } = await seedPopupWorkload(server.database.db);
    await plain.listen({ host: '127.0.0.1', port: 0 });
    const plainUrl = `http://127.0.0.1:${(plain.server.address() as AddressInfo).port}`;
    const base = await load({ url: baseline.url });
    const withRules = await loadNext(server.url, tokens);
    // New sign-ins for the second run, so it too pays each session's first (counted) show.
    const withoutRules = await loadNext(plainUrl, await signIn(server.database.db, userIds, new Date()));
    return {
      'database': server.database.kind,
      'live popups': POPUPS,
      'user popup states': states,
      'signed-in users': tokens.length,
      'audiences': 'a third every employer, a third listed employers, a third enrolled or with family',
      'daily cap / quiet hours': `${DAILY_CAP} a day (${capped} members at it) / ${quiet} (Sydney members in it)`,
      'baseline node:http req/s': base.requestsPerSec,
      'GET /api/popups/next (cap and quiet hours on) req/s': withRules.requestsPerSec,
      'GET /api/popups/next (cap and quiet hours on) ratio to baseline': ratio(withRules.requestsPerSec, base.requestsPerSec),
      'GET /api/popups/next (cap and quiet hours on) p50 / p99 ms': `${withRules.p50Ms} / ${withRules.p99Ms}`,
      'GET /api/popups/next (cap and quiet hours on) errors': withRules.errors + withRules.non2xx,
      'GET /api/popups/next (off) req/s': withoutRules.requestsPerSec,
      'GET /api/popups/next (off) ratio to baseline': ratio(withoutRules.requestsPerSec, base.requestsPerSec),
      'GET /api/popups/next (off) p50 / p99 ms': `${withoutRules.p50Ms} / ${withoutRules.p99Ms}`,
      'GET /api/popups/next (off) errors': withoutRules.errors + withoutRules.non2xx,
    };
  } finally {
    await plain.close();
    await server.close();
    await baseline.close();
  }
}
