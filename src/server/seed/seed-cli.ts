// npm run db:seed -- --employers N --employees M [--seed S] [--now ISO] [--password P]
// Fills the configured database (DATABASE_URL, else PGlite in DATA_DIR) with synthetic data.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#db/client';
import { loadConfig } from '../config';
import { hashPassword } from '../modules/auth/passwords';
import { type SeedProgress, seedSynthetic } from './synthetic';

const usage = 'Usage: npm run db:seed -- --employers N --employees M [--seed S] [--now 2026-03-01T00:00:00Z] [--password P] [--batch 5000]';

function wholeNumber(name: string, raw: string | undefined, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw === undefined || !/^\d+$/.test(raw)) {
    console.error(`--${name} must be a whole number.\n${usage}`);
    process.exit(64);
  }
  return Number(raw);
}

let args;
try {
  args = parseArgs({
    options: {
      employers: { type: 'string' },
      employees: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      password: { type: 'string' },
      batch: { type: 'string' },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(64);
}

const employers = wholeNumber('employers', args.employers);
const employees = wholeNumber('employees', args.employees);
const seed = wholeNumber('seed', args.seed, 1);
const batchSize = Math.max(1, wholeNumber('batch', args.batch, 5000));
// The default anchor is today's midnight UTC: the same seed gives the same rows all day.
const now = args.now ? new Date(args.now) : new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
if (Number.isNaN(now.getTime())) {
  console.error(`--now must be an ISO date-time.\n${usage}`);
  process.exit(64);
}
if (employers === 0 && employees > 0) {
  console.error('Employees need at least one employer.');
  process.exit(64);
}
const password = args.password ?? 'Wellhaven-seed-2026';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR),
  // Bulk work, not a request: the vacuum after a million employees takes longer than a request's
  // 5 s bound (GIN indexes merge their pending entries), and it must not be cut.
  queryTimeoutMs: 30 * 60_000,
});
const where = config.DATABASE_URL ? new URL(config.DATABASE_URL).pathname.slice(1) + ' (PostgreSQL)' : `${config.DATA_DIR} (PGlite)`;

const bar = (() => {
  const tty = process.stderr.isTTY;
  let lastDraw = 0;
  let lastTenth = -1;
  const started = performance.now();
  return (p: SeedProgress, final = false) => {
    const fraction = p.employeesTotal === 0 ? 1 : p.employeesDone / p.employeesTotal;
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(p.rows / Math.max(seconds, 0.001));
    const eta = fraction > 0 ? Math.round((seconds / fraction) * (1 - fraction)) : 0;
    const width = 30;
    const filled = Math.round(fraction * width);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${p.employeesDone.toLocaleString('en-US')}/${p.employeesTotal.toLocaleString('en-US')} employees  ${rate.toLocaleString('en-US')} rows/s  ETA ${eta}s`;
    if (tty) {
      const t = performance.now();
      if (!final && t - lastDraw < 100) return;
      lastDraw = t;
      process.stderr.write(`\r${line}${final ? '\n' : ''}`);
    } else {
      const tenth = Math.floor(fraction * 10);
      if (tenth !== lastTenth) process.stderr.write(`${line}\n`);
      lastTenth = tenth;
    }
  };
})();

try {
  await database.migrate();
  console.error(`Seeding ${where}: ${employers.toLocaleString('en-US')} employers, ${employees.toLocaleString('en-US')} employees, seed ${seed}, anchored at ${now.toISOString()}`);
  const result = await seedSynthetic(database.db, { employers, employees, seed, now, passwordHash: await hashPassword(password), batchSize }, (p) => bar(p));
  bar({ employeesDone: employees, employeesTotal: employees, rows: result.rows.total }, true);
  // A bulk load leaves no planner statistics and no visibility map: the admin lists' index-only
  // scans and row estimates need both before the first request.
  const vacuumStarted = performance.now();
  await database.db.execute(sql`vacuum analyze companies, company_stats, users, participants, family_members, login_audits`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const r = result.rows;
  console.log(
    [
      `Seeded in ${result.seconds.toFixed(1)} s: ${r.total.toLocaleString('en-US')} rows, ${result.rowsPerSecond.toLocaleString('en-US')} rows/s`,
      `  companies ${r.companies}, users ${r.users}, participants ${r.participants}, family members ${r.familyMembers}, sign-ins (login audits) ${r.loginAudits}`,
      `  insert seconds (triggers and indexes included): ${Object.entries(result.insertSeconds)
        .map(([table, sec]) => `${table} ${sec.toFixed(1)}`)
        .join(', ')}; vacuum analyze ${vacuumSeconds.toFixed(1)} s`,
      result.sampleEmail ? `  every seeded account signs in with password "${password}", e.g. ${result.sampleEmail}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
} catch (err) {
  process.stderr.write('\n');
  console.error(`Seeding failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
