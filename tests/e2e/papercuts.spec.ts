import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, type Member, registerViaApi, seedSession, signInViaStorage, test } from './support/fixtures';

/**
 * What a member and an admin hit, tried as they would at 390x844 (issue 13): the profile's
 * empty state, the employee record's emails and ids, focus after a refused sign-in and in
 * Admin Access, paging an admin list, the app's own not-found and error pages, and the
 * "Not enrolled" filter with its count.
 */

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const rows = (page: Page) => page.getByTestId('employee-row');

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

/** `inner`'s box lies inside `outer`'s (a pixel of rounding allowed). */
async function expectInside(inner: Locator, outer: Locator) {
  const a = await inner.boundingBox();
  const b = await outer.boundingBox();
  expect(a).not.toBeNull();
  expect(b).not.toBeNull();
  expect(a!.x).toBeGreaterThanOrEqual(b!.x - 1);
  expect(a!.y).toBeGreaterThanOrEqual(b!.y - 1);
  expect(a!.x + a!.width).toBeLessThanOrEqual(b!.x + b!.width + 1);
  expect(a!.y + a!.height).toBeLessThanOrEqual(b!.y + b!.height + 1);
}

/** How many text pieces of the element are split over two lines (a break inside a word). */
const piecesBrokenAcrossLines = (locator: Locator) =>
  locator.evaluate((el) => {
    let broken = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken += 1;
    }
    return broken;
  });

async function employerId(request: APIRequestContext, company: string): Promise<string> {
  const res = await request.get(`/api/admin/employers?search=${encodeURIComponent(company)}`, {
    headers: { authorization: `Bearer ${sharedElevatedAdmin().token}` },
  });
  expect(res.status()).toBe(200);
  const { employers } = (await res.json()) as { employers: { id: string; name: string }[] };
  const found = employers.find((e) => e.name === company);
  expect(found).toBeDefined();
  return found!.id;
}

test.describe('papercuts', () => {
  test('the profile empty state keeps its Add button inside the dashed box', async ({ page, request, member }) => {
    await signInViaStorage(page, request, member);
    await page.goto('/profile');
    const add = page.getByRole('link', { name: 'Add Your First Family Member' });
    await expect(add).toBeVisible();
    const box = page.getByTestId('add-first-family').locator('xpath=..');
    await expect(box).toContainText('No family members added yet');
    await expectInside(add, box);
    // Nothing on the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await add.scrollIntoViewIfNeeded();
    await shot(page, 'profile-empty');
    await expectNoSeriousA11yViolations(page);
  });

  test('a refused sign-in puts focus on the error summary; the idle notice still shows', async ({ page, member }) => {
    // Signed out for inactivity (idle-notice.ts): the sign-in page says so.
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('e2e-idle-once')) {
        sessionStorage.setItem('e2e-idle-once', '1');
        sessionStorage.setItem('wellhaven.idleSignOut', '1');
      }
    });
    await page.goto('/login');
    await expect(page.getByText('You were signed out after 15 minutes of inactivity.')).toBeVisible();
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill('not the passphrase at all');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const summary = page.getByTestId('sign-in-error');
    await expect(summary).toBeVisible();
    await expect(summary).toHaveAttribute('role', 'alert');
    await expect(summary).toBeFocused();
    await shot(page, 'sign-in-refused');
    await expectNoSeriousA11yViolations(page);

    // Fixing the password and trying again signs in (the summary took focus, not the form's place).
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
  });

  test('Admin Access opens with focus on the email field', async ({ page, request, member }) => {
    await signInViaStorage(page, request, member);
    await page.goto('/admin/employers');
    await page.getByRole('main').getByRole('button', { name: 'Admin Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Access' });
    await expect(dialog.getByLabel('Admin Email')).toBeFocused();
    await shot(page, 'admin-access');
    // Closing it returns focus to the button that opened it.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('main').getByRole('button', { name: 'Admin Access' })).toBeFocused();
  });

  test('an unknown address is the app’s own page: header, a way home, no developer text', async ({ page, request, member }) => {
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
    await expect(page.getByText(/forget to add|router/i)).toHaveCount(0);
    await expect(page.getByText('/no/such/page')).toBeVisible();
    await shot(page, 'not-found-signed-out');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL('**/login');

    // Signed in: the same page with the header's menu; the way home leads Home.
    await signInViaStorage(page, request, member);
    await page.goto('/profile/nothing-here');
    await expect(page.getByRole('banner').getByRole('button', { name: 'Open menu' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
    await shot(page, 'not-found-signed-in');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL('**/home');
  });

  test('a screen that cannot load shows the app’s error page with the header and Home', async ({ page }) => {
    await page.route('**/assets/register-page-*.js', (route) => route.abort());
    await page.goto('/register');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Something went wrong', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong. Please try again.' })).toBeVisible();
    await shot(page, 'route-error');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL('**/login');
  });

  test('the employee record: long emails and ids wrap between their parts, and one Back to Employer', async ({ page, request }) => {
    const company = `E2E Papercut Wrap ${unique()}`;
    const person = await registerViaApi(request, {
      company,
      firstName: 'Maximiliana',
      lastName: 'Featherstonehaugh',
      email: `maximiliana.featherstonehaugh.${unique()}@longdomain-example.test`,
    });
    await seedSession(page, sharedElevatedAdmin());
    await page.goto(`/admin/employees/${person.id}`);
    const account = page.getByRole('region', { name: 'Account Information' });
    await expect(account).toContainText(person.email);
    await expect(page.getByRole('link', { name: 'Back to Employer' })).toHaveCount(1);

    const email = page.getByTestId('employee-email');
    const id = page.getByTestId('employer-id');
    for (const value of [email, id]) {
      expect(await piecesBrokenAcrossLines(value)).toBe(0);
      await expectInside(value, account);
    }
    // The address still reads (and copies) as one string.
    await expect(email).toHaveText(person.email);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'employee-record');
    await expectNoSeriousA11yViolations(page);
  });

  test('paging the employee list returns to its top; Not Enrolled narrows it and says how many', async ({ page, request }) => {
    test.setTimeout(90_000);
    const company = `E2E Papercut Pages ${unique()}`;
    const people: Member[] = await Promise.all(
      Array.from({ length: 30 }, (_, i) => registerViaApi(request, { company, firstName: `Pat${String(i + 1).padStart(2, '0')}`, lastName: `Pager${String(i + 1).padStart(2, '0')}` })),
    );
    // Four of them sign in once (enrolled).
    for (const m of people.slice(0, 4)) {
      const res = await request.post('/api/auth/signin', { data: { email: m.email, password: m.password } });
      expect(res.status()).toBe(200);
    }
    const id = await employerId(request, company);
    await seedSession(page, sharedElevatedAdmin());
    await page.goto(`/admin/employers/${id}`);
    await expect(rows(page)).toHaveCount(25);
    // No filter: no count line (the pager says the total).
    await expect(page.getByTestId('employee-count')).toHaveCount(0);

    // Paging from the bottom of the page.
    const next = page.getByRole('button', { name: 'Next' });
    await next.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const bottom = await page.evaluate(() => window.scrollY);
    await next.click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    const heading = page.getByRole('heading', { name: 'Employees', level: 2 });
    await expect(heading).toBeFocused();
    // Page 2 (five rows) is too short to bring the heading up to the header: the page is
    // scrolled up from the pager to the heading's place, and the first row shows.
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(bottom);
    await expect(heading).toBeInViewport();
    await expect(rows(page).first()).toBeInViewport();
    await shot(page, 'paged');

    // Previous from the bottom of page 2: page 1 is long, so the heading comes to sit just
    // under the sticky header, the list's first row below it.
    const previous = page.getByRole('button', { name: 'Previous' });
    await previous.scrollIntoViewIfNeeded();
    await previous.click();
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(rows(page).first()).toBeInViewport();
    const headerBottom = await page.getByRole('banner').evaluate((el) => el.getBoundingClientRect().bottom);
    const top = await heading.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(headerBottom);
    expect(top).toBeLessThan(headerBottom + 40);
    await shot(page, 'paged-back');

    // Not Enrolled: the 26 who never signed in, over two pages, with a count.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Not Enrolled', exact: true }).click();
    await expect(page).toHaveURL(/status=not_enrolled/);
    const count = page.getByTestId('employee-count');
    await expect(count).toHaveText('26 employees match');
    await expect(rows(page)).toHaveCount(25);
    await expect(rows(page).first()).toContainText('Pat05 Pager05');
    for (const row of await rows(page).all()) await expect(row.getByText('Enrolled', { exact: true })).toHaveCount(0);
    await shot(page, 'not-enrolled');
    await expectNoSeriousA11yViolations(page);

    // With a search too: the count follows.
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('pager0');
    await expect(count).toHaveText('5 employees match');
    await expect(rows(page)).toHaveCount(5);
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('pager01');
    await expect(page.getByText('No employees found')).toBeVisible();
    await expect(count).toHaveCount(0);
  });
});
