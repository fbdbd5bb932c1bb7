// `npm run bench -- roster`: a 100,000-row eligibility roster through the real HTTP route on
// PostgreSQL (DATABASE_URL, default the local server, in a scratch database dropped
// afterwards): dry run, import, the same file again (idempotent: all unchanged), and a
// replacement with 10% changes (5% renamed, 5% gone). Rows/s, how long the import held a
// transaction open and the server's peak heap growth are printed; the import must take under 15 s.
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../src/db/client';
import { sessions } from '../src/db/schema';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { sha256Hex } from '../src/server/lib/crypto';
import { setAdminRole } from '../src/server/modules/auth/admin-bootstrap';
import { readSessionTokens } from '../src/server/modules/auth/session-tokens';
import type { RosterImportSummary } from '../src/shared/schemas/enrolment';
import { createScratchDatabase } from './support';

const ROWS = 100_000;
const BUDGET_S = 15;
const FIRST = ['Maria', 'James', 'Aisha', 'José', 'Zoë', 'Li', 'Mary Ann', 'Łukasz', 'Nguyễn', "D'Arcy"];
const LAST = ['Lopez', 'Chen', 'Okafor', 'Núñez', 'Becker', "O'Brien", 'Smith-Jones', 'Nair', 'Rivera', 'Kowalski'];

const id = (i: number) => `LQ${String(i).padStart(5, '0')}`;

/** The roster file: every programme ID LQ00000-LQ99999 once (all 100,000 there are). */
function rosterCsv(options: { renamed?: (i: number) => boolean; gone?: (i: number) => boolean } = {}): Buffer {
  const lines = ['programme_id,first_name,last_name,email'];
  for (let i = 0; i < ROWS; i += 1) {
    if (options.gone?.(i)) continue;
    const first = FIRST[i % FIRST.length]!;
    const last = `${LAST[Math.floor(i / FIRST.length) % LAST.length]!}${options.renamed?.(i) ? '-Renamed' : ''}`;
    lines.push(`${id(i)},"${first}",${last.includes("'") ? `"${last}"` : last},${i % 3 === 0 ? `person${i}@roster.example` : ''}`);
  }
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`);
}

export async function run(): Promise<Record<string, number | string>> {
  const scratch = await createScratchDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const database = await openDatabase({ databaseUrl: scratch.url, poolMax: 10 });
  try {
    await database.migrate();
    const config = loadConfig({ NODE_ENV: 'production', SERVE_CLIENT: '0', LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_IP: '100000000' });
    const app = await buildApp({ config, database });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      // An elevated administrator: registered, promoted, and a stepped-up session written directly.
      const reg = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Bench', lastName: 'Admin', email: 'bench.admin@bench.example', company: 'Bench Programme Office', lhmpId: 'LQ99999', password: 'violet marmot gravel 7' }),
      });
      if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
      const adminId = ((await reg.json()) as { user: { id: string } }).user.id;
      await setAdminRole(database.db, 'bench.admin@bench.example', true);
      const token = (await readSessionTokens(database.db)).mint();
      const now = new Date();
      await database.db.insert(sessions).values({ userId: adminId, tokenHash: sha256Hex(token), signed: true, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + 3_600_000), adminElevatedAt: now });
      const auth = { authorization: `Bearer ${token}` };

      const created = await fetch(`${base}/api/admin/employers`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench Roster Employer Inc' }) });
      if (created.status !== 201) throw new Error(`employer failed: ${created.status} ${await created.text()}`);
      const companyId = ((await created.json()) as { employer: { id: string } }).employer.id;
      // 2,000 registered members of that employer (written directly: no password hashing), to report on.
      await database.db.execute(sql`
        insert into users (first_name, last_name, email, company_id, lhmp_id, password_hash)
        select 'Member', 'Number' || n, 'member' || n || '@roster.example', ${companyId}, 'LQ' || lpad((n * 50)::text, 5, '0'), 'x'
        from generate_series(0, 1999) as n`);

      let peakHeap = 0;
      const sampler = setInterval(() => {
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }, 20);
      // The oldest open transaction of another connection, sampled every 20 ms: how long the
      // import holds one (the upload and the parsing must not be inside it).
      const longestTransaction = () => {
        let longest = 0;
        let running = true;
        const sampling = (async () => {
          while (running) {
            const [row] = rowsOf<{ s: number | null }>(
              await database.db.execute(sql`
                select extract(epoch from max(clock_timestamp() - xact_start))::float8 as s from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`),
            );
            longest = Math.max(longest, row?.s ?? 0);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })();
        return async () => {
          running = false;
          await sampling;
          return longest;
        };
      };
      const send = async (label: string, csv: Buffer, mode: 'dry-run' | 'import') => {
        global.gc?.();
        const heapBefore = process.memoryUsage().heapUsed;
        peakHeap = heapBefore;
        const stopSampling = longestTransaction();
        const started = performance.now();
        const res = await fetch(`${base}/api/admin/employers/${companyId}/roster?mode=${mode}`, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: new Uint8Array(csv) });
        const text = await res.text();
        const seconds = (performance.now() - started) / 1000;
        const transactionSeconds = await stopSampling();
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${text.slice(0, 300)}`);
        return { summary: JSON.parse(text) as RosterImportSummary, seconds, transactionSeconds, heapGrowthMb: Math.max(0, peakHeap - heapBefore) / 1024 / 1024 };
      };
      const check = (label: string, summary: RosterImportSummary, expected: Partial<Record<'rows' | 'added' | 'updated' | 'unchanged' | 'removed', number>>) => {
        for (const [key, value] of Object.entries(expected)) {
          if (summary[key as keyof typeof expected] !== value) throw new Error(`${label}: ${key} ${String(summary[key as keyof typeof expected])}, expected ${value}`);
        }
        if (summary.badRows.total !== 0) throw new Error(`${label}: ${summary.badRows.total} bad rows, first ${JSON.stringify(summary.badRows.shown[0])}`);
      };

      const file = rosterCsv();
      const dry = await send('dry run', file, 'dry-run');
      check('dry run', dry.summary, { rows: ROWS, added: ROWS, removed: 0 });
      const first = await send('import', file, 'import');
      check('import', first.summary, { rows: ROWS, added: ROWS, updated: 0, unchanged: 0, removed: 0 });
      const again = await send('re-import', file, 'import');
      check('re-import', again.summary, { rows: ROWS, added: 0, updated: 0, unchanged: ROWS, removed: 0 });
      // 10% changes: every 20th person renamed, every 20th (offset by 10) gone.
      const replacement = rosterCsv({ renamed: (i) => i % 20 === 0, gone: (i) => i % 20 === 10 });
      const replaced = await send('replacement', replacement, 'import');
      check('replacement', replaced.summary, { rows: ROWS - ROWS / 20, added: 0, updated: ROWS / 20, unchanged: ROWS - ROWS / 10, removed: ROWS / 20 });
      clearInterval(sampler);
      const [{ n } = { n: -1 }] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from roster_entries where company_id = ${companyId}`));
      if (n !== ROWS - ROWS / 20) throw new Error(`roster holds ${n} entries after the replacement`);
      if (first.seconds > BUDGET_S) throw new Error(`import took ${first.seconds.toFixed(1)} s, over the ${BUDGET_S} s budget`);

      const rate = (s: number, rows = ROWS) => Math.round(rows / s).toLocaleString('en-US');
      return {
        database: database.kind,
        'file size MB': (file.length / 1024 / 1024).toFixed(1),
        'dry run s': dry.seconds.toFixed(2),
        'dry run rows/s': rate(dry.seconds),
        'import s (budget 15)': first.seconds.toFixed(2),
        'import rows/s': rate(first.seconds),
        'import: longest transaction s (sampled every 20 ms)': first.transactionSeconds.toFixed(2),
        're-import s (all 100,000 unchanged)': again.seconds.toFixed(2),
        're-import rows/s': rate(again.seconds),
        'replacement s (5% renamed, 5% gone)': replaced.seconds.toFixed(2),
        'replacement rows/s': rate(replaced.seconds, ROWS - ROWS / 20),
        'registered members reported not listed after the replacement': replaced.summary.membersNotListed.total,
        'peak heap growth during the import MB (file is held by the client in the same process)': first.heapGrowthMb.toFixed(0),
      };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await scratch.drop();
  }
}
