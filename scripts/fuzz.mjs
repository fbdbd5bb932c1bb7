// `npm run fuzz`: the API fuzzer (tests/api/fuzz.test.ts) run long. FUZZ_RUNS cases per
// route and caller (default 100; `npm test` runs 10), FUZZ_SEED to vary the inputs. Runs on
// PGlite, and on PostgreSQL too when DATABASE_URL is set; prints the figures of each.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const runs = process.env.FUZZ_RUNS ?? '100';
const projects = ['api-pglite', ...(process.env.DATABASE_URL ? ['api-pg'] : [])];
mkdirSync('.tmp', { recursive: true });
for (const db of ['pglite', 'postgres']) rmSync(`.tmp/fuzz-summary-${db}.json`, { force: true });
const started = Date.now();
const result = spawnSync('npx', ['vitest', 'run', 'tests/api/fuzz.test.ts', ...projects.flatMap((p) => ['--project', p])], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: runs },
});
console.log(`\nfuzz: FUZZ_RUNS=${runs}, seed ${process.env.FUZZ_SEED ?? 'default'}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
for (const db of ['pglite', 'postgres']) {
  const file = `.tmp/fuzz-summary-${db}.json`;
  if (!existsSync(file)) continue;
  const s = JSON.parse(readFileSync(file, 'utf8'));
  console.log(`  ${db}: ${s.cases} cases over ${s.routes} routes, ${s.accepted} accepted (2xx), ${s.serverErrors} 5xx, statuses ${JSON.stringify(s.status)}`);
}
process.exit(result.status ?? 1);
