import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4173);
const out = process.env.BUILD_OUT ?? 'dist';
/**
 * Debian's Chromium, as its headless build (`apt-get install chromium-headless-shell`) when
 * installed: the same engine without the browser's own interface, which took a third of the
 * suite's CPU (docs/decisions/e2e-browser.md). CHROMIUM_PATH chooses another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
/** The run's mailbox (scripts/e2e-mail-catcher.mjs): SMTP for the app, JSON for the tests (tests/e2e/support/mail.ts). */
export const e2eMail = { smtpPort: port + 20_000, httpPort: port + 21_000 };
export const e2eAdmin = { email: 'admin@e2e.test', password: 'E2e-keeper-passphrase-1' };

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
    // The same 390x844 CSS px layout, drawn at one device pixel per CSS pixel: the Pixel 7's
    // 2.625 made Chromium rasterize seven times the pixels in software, for nothing a test reads.
    deviceScaleFactor: 1,
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
    // The app registers a service worker; specs that route requests must see every one, so
    // only the offline spec (which needs it) allows it.
    serviceWorkers: 'block',
  },
  // The shared administrator's second factor is set up once, first, by one process; the specs
  // then share what it wrote to .tmp/ (tests/e2e/support/admin-mfa.ts says why).
  projects: [
    { name: 'admin-setup', testMatch: /admin-mfa\.setup\.ts$/ },
    { name: 'chromium', testMatch: /\.spec\.ts$/, dependencies: ['admin-setup'] },
  ],
  webServer: [
    {
      command: 'node scripts/e2e-mail-catcher.mjs',
      url: `http://127.0.0.1:${e2eMail.httpPort}/healthz`,
      reuseExistingServer: false,
      timeout: 15_000,
      env: { MAIL_SMTP_PORT: String(e2eMail.smtpPort), MAIL_HTTP_PORT: String(e2eMail.httpPort) },
    },
    {
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
        // Tests register many members at once from one machine: let their hashes wait rather
        // than meet the overload 503 (which tests/api/overload.test.ts covers).
        PASSWORD_HASH_QUEUE: '1000',
        LOG_LEVEL: 'warn',
        VITAL_SCAN_URL: 'https://vitalscan.example.test/start',
        WELLNESS_PROGRAM_URL: 'https://wellness.example.test/daily',
        HELP_VIDEO_IDS: 'dQw4w9WgXcQ,aqz-KE-bpKQ',
        SMTP_URL: `smtp://127.0.0.1:${e2eMail.smtpPort}`,
        MAIL_FROM: 'Wellhaven <no-reply@e2e.test>',
        // Links in mail open the app at the address the tests use (same origin as baseURL).
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    },
  ],
});
