import { defineConfig } from 'vitest/config';

/**
 * Files whose modules must be their own: vi.mock wraps app modules, which a shared module
 * graph would already hold (or leak into the next file).
 */
const ownModules = ['tests/api/sign-in-race.test.ts', 'tests/api/held-write-order.test.ts'];

/** What only the embedded database has: a data directory and its lock. */
const embeddedOnly = ['tests/api/embedded-lock.test.ts', 'tests/api/embedded-driver.test.ts', 'tests/api/embedded-thread.test.ts'];

/**
 * Node flags for the workers that open PGlite databases. Node 24.21's V8 can free a dying
 * WebAssembly import wrapper twice when it tiers one up while its wasm code GC runs
 * (nodejs/node#66366, fixed in V8 9b8ca54d5a, not yet in a 24.x release): the worker dies
 * with SIGTRAP on `Check failed: jit_page_->allocations_.erase(addr) == 1`. An API worker
 * opens and closes a PGlite instance per file, and CI lost a run to it in fuzz.test.ts.
 * Without wasm code GC the race cannot happen; a test worker keeping its dead wasm code costs
 * nothing that matters. Node refuses this flag in NODE_OPTIONS, so it goes to the worker's
 * own arguments. Drop it once the Node package has the fix.
 */
const pgliteWorkerArgv = ['--no-wasm-code-gc'];

/**
 * The API suite on one database, in two projects. Most files share their worker's module graph
 * (isolate: false): each still builds its own app on its own database, and the app's modules
 * are loaded once per worker instead of once per file (about 3 s each). The few in `ownModules`
 * run isolated.
 */
const apiProjects = (name: string, db: 'pglite' | 'postgres') =>
  [false, true].map((isolated) => ({
    test: {
      name: isolated ? `${name}-isolated` : name,
      include: isolated ? ownModules : ['tests/api/**/*.test.ts'],
      // tests/api/postgres: what only PostgreSQL has (transactions on several connections at once);
      // embeddedOnly: what only PGlite has.
      exclude: isolated ? [] : [...ownModules, ...(db === 'postgres' ? embeddedOnly : ['tests/api/postgres/**'])],
      isolate: isolated,
      environment: 'node',
      execArgv: pgliteWorkerArgv,
      env: { TEST_DB: db },
      // One migrated template per run that each file's own database starts from.
      globalSetup: [db === 'postgres' ? 'tests/api/support/pg-global-setup.ts' : 'tests/api/support/pglite-global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  }));

/** Unit files whose modules must be their own: what they test happens as a module loads. */
const ownUnitModules = ['src/client/lib/zod-csp.test.ts'];

/**
 * Unit and component files share their worker's module graph too (isolate: false): a fresh
 * process per file spent more time importing than testing (the two projects took 35.8 s,
 * and 17.7-23.1 s in three shuffled runs this way). Each test still starts clean: the
 * component setup file restores globals, mocks and storage after every test, and so do the
 * unit files that stub anything.
 */
const projects: object[] = [
  {
    test: {
      name: 'unit',
      include: ['src/**/*.test.ts'],
      exclude: ownUnitModules,
      isolate: false,
      environment: 'node',
    },
  },
  { test: { name: 'unit-isolated', include: ownUnitModules, environment: 'node' } },
  // Screens and forms rendered with Testing Library in happy-dom, over the app's real api-client
  // with a stubbed fetch (src/client/test/render.tsx).
  {
    test: {
      name: 'component',
      include: ['src/client/**/*.test.tsx'],
      isolate: false,
      environment: 'happy-dom',
      setupFiles: ['src/client/test/setup.ts'],
    },
  },
  ...apiProjects('api-pglite', 'pglite'),
];
// The API suite runs on PostgreSQL too whenever DATABASE_URL is set (always under CI).
if (process.env.DATABASE_URL) projects.push(...apiProjects('api-pg', 'postgres'));

export default defineConfig({
  test: {
    projects,
    pool: 'forks',
    maxWorkers: 2,
  },
});
