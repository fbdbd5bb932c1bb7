import { defineConfig } from 'vitest/config';

const apiProject = (name: string, db: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: db },
    globalSetup: db === 'postgres' ? ['tests/api/support/pg-global-setup.ts'] : [],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const projects: object[] = [
  {
    test: {
      name: 'unit',
      include: ['src/**/*.test.{ts,tsx}'],
      environment: 'node',
    },
  },
  apiProject('api-pglite', 'pglite'),
];
// The API suite runs on PostgreSQL too whenever DATABASE_URL is set (always under CI).
if (process.env.DATABASE_URL) projects.push(apiProject('api-pg', 'postgres'));

export default defineConfig({
  test: {
    projects,
    pool: 'forks',
    maxWorkers: 2,
  },
});
