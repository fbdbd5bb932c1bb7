import type { Page } from '@playwright/test';
import { messages as en } from '../../src/shared/messages/index';
import { messages as es } from '../../src/shared/messages/es/index';
import { expect, expectNoSeriousA11yViolations, holdAppCode, signInViaUi, test } from './support/fixtures';

// A device that holds a session gets /home with Home drawn in its HTML (scripts/prerender.mjs),
// so it shows before the app's code has arrived; the app then renders Home over it.

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const signedInCookie = async (page: Page, path = '/home') => (await page.context().cookies()).find((c) => c.name === 'wellhaven-signed-in' && c.path === path);

test("a signed-in device's Home shows before the app arrives, and the app then takes over", async ({ page, member }) => {
  await signInViaUi(page, member);
  // The app tells the server in a cookie for /home alone: the page's language, never the token.
  const cookie = await signedInCookie(page);
  expect(cookie).toMatchObject({ value: 'en', path: '/home', sameSite: 'Lax', httpOnly: false });
  // And its copy for the service worker, which reads only the cookies of its own script's address.
  expect(await signedInCookie(page, '/sw.js')).toMatchObject({ value: 'en', sameSite: 'Lax', httpOnly: false });
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  expect(JSON.stringify(await page.context().cookies())).not.toContain(token);

  const app = await holdAppCode(page);
  const firstReads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/api/config' || pathname === '/api/auth/me') firstReads.push(pathname);
  });
  await page.reload({ waitUntil: 'domcontentloaded' });
  // Drawn by the HTML for no one in particular: the nameless greeting, the cards, the tab bar.
  await expect(h1(page)).toHaveText(en.members.home.greeting);
  await expect(page.getByText(en.members.home.intro)).toBeVisible();
  await expect(page.getByRole('link', { name: en.members.home.healthCard.explore })).toHaveAttribute('href', '/health');
  // This member has not verified their address yet: the drawn banner is shown to them, with it.
  const banner = page.getByRole('status').filter({ hasText: en.account.banner.title });
  await expect(banner).toContainText(en.account.banner.body(member.email));
  const drawnBannerBox = await banner.boundingBox();
  await expectNoSeriousA11yViolations(page);
  await expect.poll(app.wasRequested).toBe(true);

  app.release();
  await expect(h1(page)).toHaveText(en.members.home.greetingNamed(member.firstName));
  // One Home: the app's render replaced the drawn one, and its banner is where the drawn one was.
  await expect(page.locator('main#main')).toHaveCount(1);
  await expect(banner).toHaveCount(1);
  expect(await banner.boundingBox()).toEqual(drawnBannerBox);
  // The app's first reads once each: the configuration asked for as it starts
  // (app/first-reads.ts), which the provider found on its way, and the session user.
  await page.waitForLoadState('networkidle');
  expect(firstReads.sort()).toEqual(['/api/auth/me', '/api/config']);
});

test("a drawn Home's links work before the app arrives", async ({ page, member }) => {
  await signInViaUi(page, member);
  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.getByRole('link', { name: en.members.home.healthCard.explore }).click();
  await page.waitForURL('**/health');
  app.release();
  await expect(h1(page)).toHaveText(en.members.health.heading);
});

test('a tap on the drawn Home before the app arrives is given to the app once it is here: the menu opens', async ({ page, member }) => {
  await signInViaUi(page, member);
  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect(h1(page)).toHaveText(en.members.home.greeting);
  await page.getByRole('button', { name: en.common.openMenu }).click();
  await expect.poll(app.wasRequested).toBe(true);
  await expect(page.getByRole('menuitem', { name: en.common.menu.signOut, exact: true })).toHaveCount(0);
  app.release();
  // The app's menu, for this member.
  await expect(page.getByRole('menuitem', { name: en.common.menu.signOut, exact: true })).toBeVisible();
  await expect(page.getByRole('menu').getByText(member.email)).toBeVisible();
});

test("a press begun on the drawn Home and released once the app's Home is in its place is a tap", async ({ page, member }) => {
  await signInViaUi(page, member);
  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  const box = (await page.getByRole('button', { name: en.members.home.quickHealth, exact: true }).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  app.release();
  await expect(h1(page)).toHaveText(en.members.home.greetingNamed(member.firstName));
  await page.mouse.up();
  await expect(page.getByRole('region', { name: en.members.home.overlayHealth })).toBeVisible();
  await expect(page.getByRole('button', { name: en.members.home.quickHealth, exact: true })).toHaveAttribute('aria-expanded', 'true');
});

test("a tap on the drawn verify banner's Resend email before the app arrives sends it once the app is here", async ({ page, member }) => {
  await signInViaUi(page, member);
  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  const banner = page.getByRole('status').filter({ hasText: en.account.banner.title });
  await banner.getByRole('button', { name: en.account.banner.resend }).click();
  await expect.poll(app.wasRequested).toBe(true);
  app.release();
  await expect(banner).toContainText(en.account.banner.sent);
});

test("a tap on a drawn card's body leads on once the app is here", async ({ page, member }) => {
  await signInViaUi(page, member);
  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.getByRole('region', { name: en.members.home.wealthCard.title }).getByRole('heading', { name: en.members.home.wealthCard.title }).click();
  await expect.poll(app.wasRequested).toBe(true);
  app.release();
  await page.waitForURL('**/wealth');
});

test('signed out, the cookie goes with the session: /home is the app shell, which leads to sign-in', async ({ page, member }) => {
  await signInViaUi(page, member);
  expect(await signedInCookie(page)).toBeDefined();
  await page.getByRole('button', { name: en.common.openMenu }).click();
  await page.getByRole('menuitem', { name: en.common.menu.signOut, exact: true }).click();
  await page.waitForURL('**/login');
  expect(await signedInCookie(page)).toBeUndefined();
  const shell = await page.request.get('/home');
  expect(await shell.text()).toContain('<div id="root"></div>');
  await page.goto('/home');
  await page.waitForURL('**/login');
});

test('a member who switches to Spanish gets Home drawn in Spanish from then on', async ({ page, member }) => {
  await signInViaUi(page, member);
  await page.getByRole('button', { name: en.common.openMenu }).click();
  await page.getByRole('menuitemradio', { name: 'Español' }).click();
  await expect(h1(page)).toHaveText(es.members.home.greetingNamed(member.firstName));
  expect((await signedInCookie(page))?.value).toBe('es');

  const app = await holdAppCode(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect(h1(page)).toHaveText(es.members.home.greeting);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
  app.release();
  await expect(h1(page)).toHaveText(es.members.home.greetingNamed(member.firstName));
});
