import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4173);
const out = process.env.BUILD_OUT ?? 'dist';
export const e2eAdmin = { email: 'admin@e2e.test', password: 'E2e-admin-passphrase-1' };

/** End-to-end tests drive Debian's Chromium at phone size against the built app. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: '.tmp/playwright.json' }]] : [['list'], ['json', { outputFile: `.tmp/playwright-${port}.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      BUILD_OUT: out,
      CLIENT_DIR: `${out}/client`,
      DATA_DIR: `.tmp/e2e-data-${port}`,
      DEMO_DATA: '0',
      ADMIN_EMAIL: e2eAdmin.email,
      ADMIN_PASSWORD: e2eAdmin.password,
      AUTH_RATE_LIMIT_PER_IP: '100000',
      LOG_LEVEL: 'warn',
      VITAL_SCAN_URL: 'https://vitalscan.example.test/start',
      WELLNESS_PROGRAM_URL: 'https://wellness.example.test/daily',
      HELP_VIDEO_IDS: 'dQw4w9WgXcQ,aqz-KE-bpKQ',
    },
  },
});
