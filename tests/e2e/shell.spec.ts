import { e2eAdmin } from '../../playwright.config';
import { claimAdminCode } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, pauseClock, signInViaUi, test } from './support/fixtures';

test.describe('header menu', () => {
  test('shows the member and leads to Profile and Information', async ({ page, member }) => {
    await signInViaUi(page, member);
    await expect(page.getByRole('banner').getByText('Wellhaven')).toBeVisible();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText(`${member.firstName} ${member.lastName}`)).toBeVisible();
    await expect(menu.getByText(member.email)).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText(['Profile', 'Help', 'Information', 'Admin Access', 'Sign Out', 'Sign out and remove my data from this device']);
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Information' }).click();
    await page.waitForURL('**/information');
  });

  test('menu is keyboard operable', async ({ page, member }) => {
    await signInViaUi(page, member);
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });
});

test.describe('Admin Access dialog', () => {
  test('refuses missing and wrong credentials with the spec toasts, one toast at a time', async ({ page, member }) => {
    await signInViaUi(page, member);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Access' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    // While the modal is open the page behind it (toasts included) is hidden from the
    // accessibility tree; Radix announces each toast through its own live region.
    const toasts = page.locator('[role=region][aria-label^="Notifications"] li');
    await expect(toasts.filter({ hasText: 'Missing Credentials' })).toBeVisible();
    await expect(toasts.filter({ hasText: 'Please enter both email and password for admin access.' })).toBeVisible();
    // The toast does not cover the button just pressed (nor the field to fill next).
    const toastBox = (await toasts.first().boundingBox())!;
    for (const control of [dialog.getByRole('button', { name: 'Access Dashboard' }), dialog.getByLabel('Admin Email')]) {
      const box = (await control.boundingBox())!;
      const overlaps = toastBox.x < box.x + box.width && box.x < toastBox.x + toastBox.width && toastBox.y < box.y + box.height && box.y < toastBox.y + toastBox.height;
      expect(overlaps, `toast ${JSON.stringify(toastBox)} over ${JSON.stringify(box)}`).toBe(false);
    }

    await dialog.getByLabel('Admin Email').fill(member.email);
    const password = dialog.getByLabel('Admin Password');
    await password.fill(member.password);
    await expect(password).toHaveAttribute('type', 'password');
    await dialog.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await dialog.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(toasts.filter({ hasText: 'Admin Login Failed' })).toBeVisible();
    await expect(toasts.filter({ hasText: 'Access denied - invalid admin credentials' })).toBeVisible();
    await expect(toasts).toHaveCount(1);

    await dialog.getByLabel('Admin Email').fill('someone.else@e2e.test');
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(toasts.filter({ hasText: 'Access denied - you must be logged in as the admin user' })).toBeVisible();
    await expect(toasts).toHaveCount(1);
    expect(await page.evaluate(() => localStorage.getItem('admin_access'))).toBeNull();

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('toasts can be reached with F8 and dismissed', async ({ page, member }) => {
    await page.clock.install();
    await signInViaUi(page, member);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin Access' }).click();
    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    const toast = page.locator('[role=region][aria-label^="Notifications"] li').filter({ hasText: 'Missing Credentials' });
    await expect(toast).toBeVisible();
    // The toast's 5 s lifetime now waits on the paused clock while the test works.
    await pauseClock(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog', { name: 'Admin Access' })).toBeHidden();
    // The dialog hands focus back on a zero-delay timer; let it run (the toast keeps its time).
    await page.clock.runFor(100);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    const focusedRegion = () => page.evaluate(() => document.activeElement?.closest('[role=region]')?.getAttribute('aria-label') ?? '');
    await expect(async () => {
      await page.keyboard.press('F8');
      await expect.poll(focusedRegion, { timeout: 1_000 }).toMatch(/^Notifications/);
    }).toPass();
    await toast.getByRole('button', { name: 'Close' }).click();
    await expect(toast).toBeHidden();
  });

  test('grants the administrator access and remembers it', async ({ page }) => {
    // The administrator has two-step verification (admin-mfa.setup.ts): sign-in asks for a code too.
    await signInViaUi(page, e2eAdmin, { code: claimAdminCode().code });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Access' });
    await expectNoSeriousA11yViolations(page);
    await dialog.getByLabel('Admin Email').fill(e2eAdmin.email);
    await dialog.getByLabel('Admin Password').fill(e2eAdmin.password);
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    await dialog.getByLabel('Authentication code').fill(claimAdminCode().code);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.locator('[role=region][aria-label^="Notifications"] li').filter({ hasText: 'Admin Access Granted' })).toBeVisible();
    await page.waitForURL('**/admin/employers');
    expect(await page.evaluate(() => [localStorage.getItem('admin_access'), localStorage.getItem('admin_email')])).toEqual(['true', e2eAdmin.email]);
  });
});
