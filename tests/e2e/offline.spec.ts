/**
 * Installable and offline (issue 11): with the service worker installed, screens that need no
 * fresh data open offline after a reload, data screens show the last data with a note, the
 * offline banner comes and goes, and sign-out leaves no member answer on the device.
 */
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

/** Waits until the app has kept the member's profile answer in its IndexedDB store. */
async function profileKept(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
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
                resolve(Boolean(value?.state?.queries?.some((q) => q.queryKey[0] === '/api/members/me/profile')));
              };
              get.onerror = () => {
                db.close();
                resolve(false);
              };
            };
          }),
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
  // The ID card screen's shell opens too (its cards are the cards work's own test).
  await page.goto('/id-card');
  await page.reload();
  await expect(h1(page)).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  await context.setOffline(false);
  await expect(banner(page)).toBeEmpty({ timeout: 1_000 });
});

test('Profile offline shows the last data with the time it is from', async ({ page, context, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/profile');
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await expect(page.getByTestId('offline-note')).toHaveCount(0);
  await serviceWorkerInControl(page);
  await profileKept(page);

  await goOffline(context, page);
  await page.reload();
  await expect(page.getByText(member.lhmpId)).toBeVisible();
  await expect(page.getByTestId('offline-note')).toContainText('Offline — showing information from');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await context.setOffline(false);
  await expect(page.getByTestId('offline-note')).toHaveCount(0);
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
  await profileKept(page);
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
  await profileKept(page);

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
  await page.waitForURL('**/login');
  await expect.poll(async () => (await deviceStorage(page)).databases).toEqual([]);
  expect((await deviceStorage(page)).urls.filter((u) => u.startsWith('/api/'))).toEqual([]);
});

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
