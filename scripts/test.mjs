// `npm test`: the whole suite. Types, lint (the code, and the OpenAPI document), unit and API
// tests (PGlite, and PostgreSQL whenever DATABASE_URL is set), then a production build driven
// end to end in Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

if (process.env.CI === 'true' && !process.env.DATABASE_URL) {
  console.error('CI=true requires DATABASE_URL so the API suite also runs on PostgreSQL.');
  process.exit(1);
}
if (!existsSync('node_modules/.package-lock.json')) {
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (install.status !== 0) process.exit(1);
}
mkdirSync('.tmp', { recursive: true });
for (const f of ['.tmp/vitest.json', '.tmp/playwright.json']) rmSync(f, { force: true });

const buildOut = '.tmp/e2e-build';
const only = process.argv[2]; // optional: unit|api|e2e
if (only !== undefined && !['unit', 'api', 'e2e'].includes(only)) {
  console.error(`Unknown part "${only}": use npm test, or npm test unit|api|e2e.`);
  process.exit(1);
}
// A partial run names its vitest projects (see vitest.config.ts; api-pg exists only with
// DATABASE_URL); the whole suite runs every project.
const vitestProjects = {
  unit: ['unit', 'unit-isolated', 'component'],
  api: ['api-pglite', 'api-pglite-isolated', ...(process.env.DATABASE_URL ? ['api-pg', 'api-pg-isolated'] : [])],
}[only] ?? [];
const steps = [
  // Three single-threaded checks, run side by side on the machine's cores; each one's output is
  // printed whole when it ends.
  {
    name: 'typecheck, lint and API document',
    parallel: [
      { name: 'typecheck', cmd: ['npm', 'run', '-s', 'typecheck'] },
      { name: 'lint', cmd: ['npm', 'run', '-s', 'lint'] },
      // The OpenAPI document: Redocly's recommended rules, zero errors and warnings; its generated client type-checks.
      { name: 'API document', cmd: ['npm', 'run', '-s', 'lint:api'] },
    ],
    when: !only,
  },
  {
    name: 'unit and API tests',
    cmd: ['npx', 'vitest', 'run', ...vitestProjects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', '--outputFile=.tmp/vitest.json'],
    when: !only || only === 'unit' || only === 'api',
  },
  { name: 'build', cmd: ['npm', 'run', '-s', 'build'], env: { BUILD_OUT: buildOut }, when: !only || only === 'e2e' },
  {
    name: 'end-to-end tests',
    cmd: ['npx', 'playwright', 'test'],
    env: { BUILD_OUT: buildOut, CI: 'true' },
    when: !only || only === 'e2e',
  },
];

/** Runs one command with its output kept, resolving to its exit status and output. */
function runBuffered(cmd) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (status) => resolve({ status, output: Buffer.concat(chunks).toString(), seconds: (Date.now() - started) / 1000 }));
  });
}

let failedStep;
for (const step of steps.filter((s) => s.when)) {
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  let ok;
  if (step.parallel) {
    const results = await Promise.all(step.parallel.map((part) => runBuffered(part.cmd)));
    step.parallel.forEach((part, i) => {
      const { status, output, seconds } = results[i];
      console.log(`--- ${part.name}: ${status === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(0)} s ---`);
      if (output.trim()) console.log(output.trimEnd());
    });
    const failed = step.parallel.filter((_, i) => results[i].status !== 0).map((part) => part.name);
    ok = failed.length === 0;
    if (!ok) step.name = failed.join(', ');
  } else {
    ok = spawnSync(step.cmd[0], step.cmd.slice(1), { stdio: 'inherit', env: { ...process.env, ...step.env } }).status === 0;
  }
  console.log(`=== ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
  if (!ok) {
    failedStep = step.name;
    break;
  }
}

let passed = 0;
let failed = 0;
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const vitest = read('.tmp/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
}
const pw = read('.tmp/playwright.json');
if (pw?.stats) {
  passed += pw.stats.expected;
  failed += pw.stats.unexpected + pw.stats.flaky;
}
if (failedStep && failed === 0) failed = 1;
console.log(`\n${failedStep ? `Failed at: ${failedStep}` : 'All steps passed'}`);
console.log(`Summary: ${passed} passed, ${failed} failed`);
process.exit(failedStep ? 1 : 0);
