/**
 * Installable and offline (issue 11): with the service worker installed, screens that need no
 * fresh data open offline after a reload, data screens show the last data with a note, the
 * offline banner comes and goes, and sign-out leaves no member answer on the device.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signInViaStorage, test } from './support/fixtures';

test.use({ serviceWorkers: 'allow' });

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const banner = (page: Page) => page.getByTestId('offline-banner');

/** Waits until the service worker has installed (precache complete) and controls the page. */
async function serviceWorkerInControl(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Waits until the app has kept the member's answer to GET `path` in its IndexedDB store. */
async function answerKept(page: Page, path: string) {
  await expect
    .poll(() =>
      page.evaluate(
        (path) =>
          new Promise<boolean>((resolve) => {
            const open = indexedDB.open('wellhaven-queries');
            open.onupgradeneeded = () => open.result.createObjectStore('queries');
            open.onerror = () => resolve(false);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('queries')) {
                db.close();
                resolve(false);
                return;
              }
              const get = db.transaction('queries').objectStore('queries').get('cache');
              get.onsuccess = () => {
                db.close();
                const value = get.result as { state?: { queries?: { queryKey: unknown[] }[] } } | undefined;
                // A key is its URL in parts (lib/query-keys): the string parts joined with '/' are the path.
                const urlOf = (key: unknown[]) => key.filter((part) => typeof part === 'string').join('/');
                resolve(Boolean(value?.state?.queries?.some((q) => urlOf(q.queryKey) === path)));
              };
              get.onerror = () => {
                db.close();
                resolve(false);
              };
            };
          }),
        path,
      ),
    )
    .toBe(true);
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect(banner(page)).toContainText("You're offline", { timeout: 1_000 });
}

test('the app shell and screens without data open offline after a reload; the banner comes and goes', async ({ page, context, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/home');
  await expect(h1(page)).toHaveText(`Welcome back, ${member.firstName}`);
  await serviceWorkerInControl(page);
  await expect(banner(page)).toBeEmpty();

  await goOffline(context, page);
  await expect(banner(page)).toHaveAttribute('role', 'status');
  await expectNoSeriousA11yViolations(page);

  for (const [path, heading] of [
    ['/home', `Welcome back, ${member.firstName}`],
    ['/health', 'Health Services'],
    ['/wealth', 'Wealth Services'],
    ['/information', 'Information Center'],
  ] as const) {
    await page.goto(path);
    await page.reload();
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expect(banner(page)).toContainText("You're offline");
  }
  // Scrolled, the sticky header stops below the banner instead of sliding under it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const bannerBox = (await banner(page).boundingBox())!;
  const headerBox = (await page.locator('header').first().boundingBox())!;
  expect(bannerBox.height).toBeGreaterThan(0);
  expect(headerBox.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height - 1);
  // The ID card screen's shell opens too (its cards are the cards work's own test).
  await page.goto('/id-card');
  await page.reload();
  await expect(h1(page)).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  await context.setOffline(false);
  await expect(banner(page)).toBeEmpty({ timeout: 1_000 });
});

test("a returning device's /home and /login come from the worker's cache already drawn, online and offline", async ({ page, context, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/home');
  await expect(h1(page)).toHaveText(`Welcome back, ${member.firstName}`);
  await serviceWorkerInControl(page);
  // The app says in a cookie for /home that this device holds a session (prerendered-home.md).
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'wellhaven-signed-in')?.value).toBe('en');

  for (const offline of [false, true]) {
    await context.setOffline(offline);
    const home = await page.goto('/home');
    expect(home!.fromServiceWorker(), `offline: ${offline}`).toBe(true);
    // Home drawn in the document for no one in particular (the nameless greeting), not the empty shell.
    expect(await home!.text()).toMatch(/<div id="root"><[^>]*>[\s\S]*<h1[^>]*>Welcome back<\/h1>/);
    await expect(h1(page)).toHaveText(`Welcome back, ${member.firstName}`);
  }
  await context.setOffline(false);

  // Signed out, /home is the shell again (which leads to the sign-in screen), and /login is drawn.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'wellhaven-signed-in')).toBe(false);
  await context.setOffline(true);
  const shell = await page.goto('/home');
  expect(shell!.fromServiceWorker()).toBe(true);
  expect(await shell!.text()).toContain('<div id="root"></div>');
  const login = await page.goto('/login');
  expect(login!.fromServiceWorker()).toBe(true);
  expect(await login!.text()).toMatch(/<h1[^>]*>Sign In<\/h1>/);
  await expect(h1(page)).toHaveText('Sign In');
  await context.setOffline(false);

  // A language chosen on the device: the worker draws /login in it too (its own copy of the cookie).
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
  await expect(h1(page)).toHaveText('Iniciar sesión');
  await context.setOffline(true);
  const spanish = await page.goto('/login');
  expect(spanish!.fromServiceWorker()).toBe(true);
  expect(await spanish!.text()).toMatch(/<html lang="es"[\s\S]*<h1[^>]*>Iniciar sesión<\/h1>/);
  await context.setOffline(false);
});

test('Profile offline shows the last data with the time it is from', async ({ page, context, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/profile');
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await expect(page.getByTestId('offline-note')).toHaveCount(0);
  await serviceWorkerInControl(page);
  await answerKept(page, '/api/members/me/profile');

  await goOffline(context, page);
  await page.reload();
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await expect(page.getByTestId('offline-note')).toContainText('Offline — showing information from');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await context.setOffline(false);
  await expect(page.getByTestId('offline-note')).toHaveCount(0);
});

test('Security and Edit family member offline: the last data with its time, or a clear state when none was kept', async ({ page, context, request, member }) => {
  const { token } = await signInViaStorage(page, request, member);
  const created = await request.post('/api/family-members', {
    data: { firstName: 'Ana', lastName: 'Ruiz', dob: '2012-04-03', relationship: 'Child' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const editPath = `/profile/family/${id}/edit`;
  await page.goto('/home');
  await serviceWorkerInControl(page);

  // Never opened online on this device: no error page, no endless skeleton without a word.
  await goOffline(context, page);
  await page.goto(editPath);
  await expect(page.getByTestId('offline-note')).toHaveText(
    "You're offline, and this information has not been saved on this device yet. It will show when you're back online.",
  );
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  await context.setOffline(false);
  await expect(page.getByLabel('First Name')).toHaveValue('Ana');
  await expect(page.getByTestId('offline-note')).toHaveCount(0);
  await answerKept(page, '/api/family-members');
  await page.goto('/profile/security');
  await expect(page.getByText('This device', { exact: true })).toBeVisible();
  await answerKept(page, '/api/me/sessions');

  await goOffline(context, page);
  await page.reload();
  await expect(page.getByText('This device', { exact: true })).toBeVisible();
  await expect(page.getByTestId('offline-note')).toContainText('Offline — showing information from');
  await expectNoSeriousA11yViolations(page);

  await page.goto(editPath);
  await expect(page.getByLabel('First Name')).toHaveValue('Ana');
  await expect(page.getByTestId('offline-note')).toContainText('Offline — showing information from');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
});

/** Every URL Cache Storage holds, and the IndexedDB databases of the origin. */
async function deviceStorage(page: Page) {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    const databases = (await indexedDB.databases()).map((d) => d.name ?? '');
    return { urls, databases };
  });
}

test('"Sign out and remove my data from this device" leaves no member answer on the device', async ({ page, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/profile');
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await serviceWorkerInControl(page);
  await answerKept(page, '/api/members/me/profile');
  const before = await deviceStorage(page);
  expect(before.databases).toContain('wellhaven-queries');
  expect(before.urls.some((u) => u.startsWith('/assets/'))).toBe(true); // the precache, app code only
  expect(before.urls.filter((u) => u.startsWith('/api/'))).toEqual([]);

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out and remove my data from this device' }).click();
  await page.waitForURL('**/login');

  await expect.poll(async () => (await deviceStorage(page)).databases).toEqual([]);
  const after = await deviceStorage(page);
  expect(after.urls.filter((u) => u.startsWith('/api/'))).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('wellhaven.keepCards'))).toBeNull();
});

test('plain Sign Out (cards not kept) removes every answer and store too', async ({ page, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/profile');
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await serviceWorkerInControl(page);
  await answerKept(page, '/api/members/me/profile');

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
  await page.waitForURL('**/login');
  await expect.poll(async () => (await deviceStorage(page)).databases).toEqual([]);
  expect((await deviceStorage(page)).urls.filter((u) => u.startsWith('/api/'))).toEqual([]);
});

test('a session ended elsewhere leaves no member answer either: the app clears the device as it starts over', async ({ page, request, member }) => {
  const { token } = await signInViaStorage(page, request, member);
  await page.goto('/profile');
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await serviceWorkerInControl(page);
  await answerKept(page, '/api/members/me/profile');
  expect((await deviceStorage(page)).databases).toContain('wellhaven-queries');

  // Signed out from another device (or by an administrator): this tab's token is revoked.
  expect((await request.post('/api/auth/signout', { headers: { authorization: `Bearer ${token}` } })).status()).toBeLessThan(300);
  // The next call answers 401 and the app starts over, signed out, clearing what the session left.
  await page.reload();
  await page.waitForURL('**/login');
  await expectDeviceCleared(page);
});

test('signing out in one tab signs the member out of the other tabs too, and the device stays clear', async ({ page, context, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/profile');
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await serviceWorkerInControl(page);
  await answerKept(page, '/api/members/me/profile');
  // A second tab of the same browser, signed in through the same storage.
  const other = await context.newPage();
  await other.goto('/health');
  await expect(other.getByRole('heading', { level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
  await page.waitForURL('**/login');
  await other.waitForURL('**/login');
  await expectDeviceCleared(page);
  await other.close();
});

/** No database, no kept answer and no clearing owed: what a sign-out leaves (polled: the mark goes last). */
async function expectDeviceCleared(page: Page) {
  await expect
    .poll(async () => {
      const { databases, urls } = await deviceStorage(page);
      const owed = await page.evaluate(() => localStorage.getItem('wellhaven.deviceClearPending'));
      return { databases, answers: urls.filter((u) => u.startsWith('/api/')), owed };
    })
    .toEqual({ databases: [], answers: [], owed: null });
}

test('the web app manifest takes its name and colour from the brand configuration', async ({ request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await res.json()) as { name: string; display: string; theme_color: string; icons: { src: string; purpose?: string }[] };
  const config = (await (await request.get('/api/config')).json()) as { brandName: string; brandPrimaryColor: string };
  expect(manifest).toMatchObject({ name: config.brandName, display: 'standalone', theme_color: config.brandPrimaryColor });
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) expect((await request.get(icon.src)).headers()['content-type']).toBe('image/png');
});

/**
 * A second server of the same build for one test, serving its own copy of the client, so the
 * test can deploy a "next version" of the worker under it without touching the shared server.
 */
async function privateDeployment() {
  const out = process.env.BUILD_OUT ?? 'dist';
  const dir = mkdtempSync(path.join(tmpdir(), 'wellhaven-update-'));
  cpSync(path.join(out, 'client'), path.join(dir, 'client'), { recursive: true });
  // The worker is served from the file itself, not a precompressed copy of the old one.
  for (const suffix of ['.br', '.gz']) rmSync(path.join(dir, 'client', `sw.js${suffix}`), { force: true });
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', CLIENT_DIR: path.join(dir, 'client'), DATA_DIR: path.join(dir, 'data'), DEMO_DATA: '0', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const server = spawn(process.execPath, [path.resolve(out, 'server/main.js')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  server.stderr.on('data', (chunk) => stderr.push(String(chunk)));
  const origin = `http://127.0.0.1:${port}`;
  // A fresh embedded database is created first (initdb and migrations): seconds on a busy machine.
  await expect
    .poll((): Promise<number | string> | string => (server.exitCode !== null ? `exited ${server.exitCode}: ${stderr.join('')}` : fetch(`${origin}/readyz`).then((r) => r.status, () => 0)), { timeout: 60_000 })
    .toBe(200);
  return {
    origin,
    /** The next deployment: the same worker with different bytes (browsers compare them byte for byte). */
    deployNextWorker: () => appendFileSync(path.join(dir, 'client', 'sw.js'), '\n// next version\n'),
    close: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('a new version is announced with Reload and waits: a half-typed form stays until the member reloads', async ({ page }) => {
  // It starts a server of its own (privateDeployment) before the browser work.
  test.slow();
  const deployment = await privateDeployment();
  try {
    await page.goto(`${deployment.origin}/register`);
    await serviceWorkerInControl(page);
    const firstName = page.getByLabel('First Name');
    await firstName.fill('Half-typed');
    const prompt = page.getByTestId('update-prompt');
    await expect(prompt).toHaveCount(0);

    deployment.deployNextWorker();
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect(prompt).toHaveAttribute('role', 'status');
    await expect(prompt).toContainText('A new version is available');
    await expectNoSeriousA11yViolations(page);
    // Nothing was swapped under the form: the new version waits, the typing is there.
    await expect(firstName).toHaveValue('Half-typed');
    const waiting = () => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting));
    expect(await waiting()).toBe(true);

    // "Later" puts it away; the new version still waits, and the next load asks again.
    await prompt.getByRole('button', { name: 'Later' }).click();
    await expect(prompt).toHaveCount(0);
    await expect(firstName).toHaveValue('Half-typed');
    await page.reload();
    await expect(prompt).toContainText('A new version is available');

    // Reload lets it take over, and the page loads once more under it.
    await page.evaluate(() => {
      (window as { beforeUpdate?: boolean }).beforeUpdate = true;
    });
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    expect(await page.evaluate(() => (window as { beforeUpdate?: boolean }).beforeUpdate ?? false)).toBe(false);
    await expect(firstName).toBeVisible();
    await expect(prompt).toHaveCount(0);
    expect(await waiting()).toBe(false);
  } finally {
    await deployment.close();
  }
});
