import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { companies, popups, sessions, userPopupStates, users } from '../src/db/schema';
import { occurrenceAt, type Recurrence } from '../src/server/modules/popups/schedule';
import { load, ratio, startApp, startBaseline } from './support';

const POPUPS = 1_000;
const USERS = 1_000;
const STATES_PER_USER = 100; // 100,000 user states
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['America/Los_Angeles', 'Europe/London', 'UTC', 'Asia/Kolkata', 'Australia/Sydney'];
const RECURRENCES: Recurrence[] = ['NONE', 'HOURLY', 'DAILY', 'WEEKLY'];

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

/** 1,000 live home popups, 1,000 signed-in users with 100 popup states each; returns their bearer tokens. */
async function seedPopupWorkload(db: Db): Promise<{ tokens: string[]; states: number }> {
  const random = rng(42);
  const now = Date.now();

  const popupRows = Array.from({ length: POPUPS }, (_, i) => ({
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
  }));
  const insertedPopups: (typeof popups.$inferSelect)[] = [];
  await insertChunked(popupRows, 500, async (chunk) => insertedPopups.push(...(await db.insert(popups).values(chunk).returning())));

  const [company] = await db.insert(companies).values({ name: `Bench Employer ${now}` }).returning();
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

  // Signed in an hour ago; some states were snoozed since then, some completed, most just seen.
  const signedInAt = new Date(now - HOUR);
  const tokens: string[] = [];
  const sessionRows = insertedUsers.map((u) => {
    const token = randomBytes(32).toString('base64url');
    tokens.push(token);
    return {
      userId: u.id,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      createdAt: signedInAt,
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + 11 * HOUR),
    };
  });
  await insertChunked(sessionRows, 500, (chunk) => db.insert(sessions).values(chunk));

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
  await db.execute(sql`analyze`);
  return { tokens, states: stateRows.length };

}

/**
 * GET /api/popups/next (context=login, route=home) with 1,000 live popups and 100,000 user
 * states, as a ratio against a bare node:http JSON endpoint measured in the same run, plus p99.
 * Every call is the real thing: it picks the popup and records the show (a state upsert and
 * an event) in a transaction.
 */
export async function run(): Promise<Record<string, number | string>> {
  const baseline = await startBaseline();
  const server = await startApp();
  try {
    const { tokens, states } = await seedPopupWorkload(server.database.db);
    const base = await load({ url: baseline.url });
    let next = 0;
    const path = '/api/popups/next?context=login&route=home';
    const check = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${tokens[0]}` } });
    if (check.status !== 200) throw new Error(`GET ${path} answered ${check.status}: ${await check.text()}`);
    const popupsNext = await load({
      url: server.url,
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
    return {
      'database': server.database.kind,
      'live popups': POPUPS,
      'user popup states': states,
      'signed-in users': tokens.length,
      'baseline node:http req/s': base.requestsPerSec,
      'GET /api/popups/next req/s': popupsNext.requestsPerSec,
      'GET /api/popups/next ratio to baseline': ratio(popupsNext.requestsPerSec, base.requestsPerSec),
      'GET /api/popups/next p50 ms': popupsNext.p50Ms,
      'GET /api/popups/next p99 ms': popupsNext.p99Ms,
      'GET /api/popups/next errors': popupsNext.errors + popupsNext.non2xx,
    };
  } finally {
    await server.close();
    await baseline.close();
  }
}
