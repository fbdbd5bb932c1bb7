import type { Page } from '@playwright/test';
import { messages as en } from '../../src/shared/messages/index';
import { messages as es } from '../../src/shared/messages/es/index';
import { expect, expectNoSeriousA11yViolations, holdAppCode, registerViaApi, test } from './support/fixtures';

// /login's HTML carries the sign-in screen (scripts/prerender.mjs), so it shows before the app's
// code has arrived.

/** Whether the app has rendered over the drawn screen: React's inputs carry the ids it gives them. */
const appHasStarted = (page: Page) => page.evaluate(() => Boolean(document.querySelector('input[name=email]')?.id.startsWith('_r')));

test('the sign-in screen shows before the app arrives and keeps what is typed into it, focus included', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const app = await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'domcontentloaded' });

  // Drawn by the HTML: heading, fields and button, while the app's code is held back.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.auth.signIn.title);
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('button', { name: en.auth.signIn.submit })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // The app's code is asked for once the screen shows.
  await expect.poll(app.wasRequested).toBe(true);
  expect(await appHasStarted(page)).toBe(false);

  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password.slice(0, 6));
  app.release();
  await expect.poll(() => appHasStarted(page)).toBe(true);
  // The app took up the drawn form's values and the field the member was in.
  await expect(page.getByLabel('Email')).toHaveValue(member.email);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(member.password.slice(0, 6));
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(member.password.slice(6));
  await page.keyboard.press('Enter');
  await page.waitForURL('**/home');
});

test('a sign-in asked for before the app arrives sends nothing then, and goes ahead once it is here', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const app = await holdAppCode(page);
  const signIns: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/signin')) signIns.push(r.method());
  });
  await page.goto('/login', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: en.auth.signIn.submit }).click();
  // A dialog form: no navigation, and no password in any address.
  await expect.poll(app.wasRequested).toBe(true);
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/login');
  expect(signIns).toEqual([]);

  app.release();
  await page.waitForURL('**/home');
  expect(signIns).toEqual(['POST']);
});

test.describe('a browser that prefers Spanish', () => {
  test.use({ locale: 'es-US' });

  test('gets the screen drawn in Spanish before any script runs', async ({ page }) => {
    const app = await holdAppCode(page);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(es.auth.signIn.title);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await expect(page.getByLabel(es.auth.signIn.email)).toBeVisible();
    app.release();
  });
});

test("a language chosen on the device is the drawn screen's language from then on", async ({ page }) => {
  await page.goto('/login');
  await expect.poll(() => appHasStarted(page)).toBe(true);
  await page.getByRole('group', { name: en.common.menu.language }).getByRole('button', { name: 'Español' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(es.auth.signIn.title);

  // The app tells the server in a cookie for /login alone, holding the language and nothing else.
  const cookies = await page.context().cookies();
  const language = cookies.find((c) => c.name === 'wellhaven-language' && c.path === '/login');
  expect(language).toMatchObject({ value: 'es', path: '/login', sameSite: 'Lax', httpOnly: false });
  // Its copy for the service worker (lib/address-cookie.ts) is the only other cookie.
  expect(cookies.filter((c) => c.name === 'wellhaven-language').map((c) => c.path).sort()).toEqual(['/login', '/sw.js']);
  expect(cookies.filter((c) => c.name !== 'wellhaven-language')).toEqual([]);

  // This browser prefers English, yet /login now comes drawn in Spanish, before any script.
  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(es.auth.signIn.title);
  expect(await appHasStarted(page)).toBe(false);
  app.release();

  // Back to English: the cookie follows.
  await expect.poll(() => appHasStarted(page)).toBe(true);
  await page.getByRole('group', { name: es.common.menu.language }).getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.auth.signIn.title);
  expect((await page.context().cookies()).find((c) => c.name === 'wellhaven-language')?.value).toBe('en');
});
