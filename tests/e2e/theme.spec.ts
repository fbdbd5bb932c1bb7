import type { Page } from '@playwright/test';
import { sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, seedSession, signInViaStorage, test } from './support/fixtures';

/** The page's background, `--color-canvas` (styles.css): light #f4f6f8, dark #0f141b. */
const LIGHT = 'rgb(244, 246, 248)';
const DARK = 'rgb(15, 20, 27)';
const canvas = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

test.describe('on a device set to dark', () => {
  test.use({ colorScheme: 'dark' });

  test('signed out, sign-in and registration follow the device and pass axe, contrast included', async ({ page }) => {
    await page.goto('/login');
    await expect(h1(page)).toBeVisible();
    expect(await canvas(page)).toBe(DARK);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/register');
    await expect(h1(page)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('every member screen passes axe in the dark theme', async ({ page, request, member }) => {
    test.slow();
    await signInViaStorage(page, request, member);
    for (const path of ['/home', '/health', '/health/activities', '/health/get-care', '/wealth', '/information', '/id-card', '/profile', '/profile/add-family', '/profile/security', '/health/get-care/prescriptions']) {
      await page.goto(path);
      await expect(h1(page), path).toBeVisible();
      expect(await canvas(page), path).toBe(DARK);
      await expectNoSeriousA11yViolations(page);
    }
    // The menu, open, with its theme choice (the page behind it is aria-hidden while it is open).
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Same as device' })).toBeChecked();
    await expectNoSeriousA11yViolations(page, { include: '[role="menu"]' });
  });

  test('the admin screens pass axe in the dark theme', async ({ page }) => {
    const admin = sharedElevatedAdmin();
    await seedSession(page, admin);
    await page.addInitScript(() => localStorage.setItem('admin_access', 'true'));
    await page.goto('/admin/employers');
    await expect(page.getByTestId('employer-card').first()).toBeVisible();
    expect(await canvas(page)).toBe(DARK);
    await expectNoSeriousA11yViolations(page);
    await page.goto('/admin/popups');
    await expect(h1(page)).toHaveText('Popup Management');
    await page.getByRole('button', { name: 'Create Popup' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Create New Popup' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test("the menu's Theme overrides the device on this device, across reloads; Same as device follows it again", async ({ page, request, member }) => {
    await signInViaStorage(page, request, member);
    await page.goto('/profile');
    await expect(h1(page)).toHaveText('Profile');
    expect(await canvas(page)).toBe(DARK);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    await expect.poll(() => canvas(page)).toBe(LIGHT);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.reload();
    await expect(h1(page)).toHaveText('Profile');
    expect(await canvas(page)).toBe(LIGHT);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Light' })).toBeChecked();
    await page.getByRole('menuitemradio', { name: 'Same as device' }).click();
    await expect.poll(() => canvas(page)).toBe(DARK);
    await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  });
});

test('on a light device, Dark in the menu turns the app dark', async ({ page, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/home');
  await expect(h1(page)).toBeVisible();
  expect(await canvas(page)).toBe(LIGHT);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect.poll(() => canvas(page)).toBe(DARK);
  await expectNoSeriousA11yViolations(page);
});
