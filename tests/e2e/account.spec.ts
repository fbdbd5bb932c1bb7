import { type Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, registerViaApi, signInViaStorage, test } from './support/fixtures';
import { linkFrom, waitForEmail } from './support/mail';

const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const NEW_PASSWORD = 'Lantern orbit quietly 42';

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
/** A link's path and query, for page.goto (the mail carries PUBLIC_URL, the same origin). */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

test.describe('verified email', () => {
  test('Home asks to verify; the emailed link verifies, leaves the address bar and the banner goes', async ({ page, request, member }) => {
    await signInViaStorage(page, request, member);
    await page.goto('/home');
    const banner = page.getByRole('status').filter({ hasText: 'Please verify your email address' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(member.email);
    await expectNoSeriousA11yViolations(page);

    const sentBefore = (await waitForEmail(member.email, (m) => m.subject === 'Verify your email address')).id;
    await banner.getByRole('button', { name: 'Resend email' }).click();
    await expect(banner).toContainText('A new link is on its way. Check your inbox.');
    const mail = await waitForEmail(member.email, (m) => m.subject === 'Verify your email address' && m.id > sentBefore);

    await page.goto(pathOf(linkFrom(mail)));
    await expect(heading(page, 'Your email address is verified')).toBeFocused();
    // The token is gone from the address bar and from this history entry.
    await expect(page).toHaveURL(/\/verify-email$/);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Continue to Home' }).click();
    await expect(heading(page, /^Welcome back/)).toBeVisible();
    await expect(page.getByText('Please verify your email address')).toHaveCount(0);
  });

  test('a used link, signed out, says so and offers to sign in for a new one', async ({ page, member }) => {
    const mail = await waitForEmail(member.email, (m) => m.subject === 'Verify your email address');
    await page.goto(pathOf(linkFrom(mail)));
    await expect(heading(page, 'Your email address is verified')).toBeVisible();
    await page.goto(pathOf(linkFrom(mail)));
    await expect(heading(page, 'We could not verify your email address')).toBeFocused();
    await expect(page.getByRole('alert')).toContainText('already been used');
    await expect(page.getByRole('link', { name: 'Sign in to get a new link' })).toHaveAttribute('href', '/login');
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('password reset', () => {
  test('forgot -> reset link -> the new password works and the old one does not', async ({ page, member }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(heading(page, 'Forgot Password')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    const sent = page.getByRole('status').filter({ hasText: "If an account exists for that email, we've sent a link" });
    await expect(sent).toBeFocused();

    const mail = await waitForEmail(member.email, (m) => m.subject === 'Reset your password');
    await page.goto(pathOf(linkFrom(mail)));
    await expect(heading(page, 'Choose a New Password')).toBeVisible();
    await expect(page).toHaveURL(/\/reset-password$/);
    await expectNoSeriousA11yViolations(page);

    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password', { exact: true });
    // The server's policy speaks on the field, which takes focus.
    await password.fill('password123');
    await confirm.fill('password123');
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(password).toBeFocused();
    await expect(page.getByText('This password is too common')).toBeVisible();
    await password.fill(NEW_PASSWORD);
    await confirm.fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page.getByText('The two passwords do not match')).toBeVisible();
    await expect(confirm).toBeFocused();
    await confirm.fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save New Password' }).click();

    await page.waitForURL('**/login');
    await expect(page.getByRole('status').filter({ hasText: 'Your password has been changed. Sign in with your new password.' })).toBeVisible();
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
  });
});

test.describe('security', () => {
  test('devices: this one marked, another signed out through the confirmation; password changed', async ({ page, request }) => {
    const member = await registerViaApi(request);
    const other = await request.post('/api/auth/signin', { data: { email: member.email, password: member.password }, headers: { 'user-agent': WINDOWS_FIREFOX } });
    const otherToken = (await other.json()).token as string;
    await signInViaStorage(page, request, member);
    await page.goto('/profile');
    await page.getByRole('link', { name: /Security/ }).click();
    await expect(heading(page, 'Security')).toBeVisible();

    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    const items = devices.getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText('Chrome on Android');
    await expect(items.first()).toContainText('This device');
    await expect(items.nth(1)).toContainText('Firefox on Windows');
    await expect(items.nth(1)).not.toContainText('This device');
    await expectNoSeriousA11yViolations(page);

    await items.nth(1).getByRole('button', { name: /^Sign out Firefox on Windows/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out this device?' });
    await expect(dialog).toContainText('Firefox on Windows will need to sign in again.');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByText('The device has been signed out.', { exact: true })).toBeVisible();
    await expect(items).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Signed-in devices' })).toBeFocused();
    expect((await request.get('/api/auth/me', { headers: { authorization: `Bearer ${otherToken}` } })).status()).toBe(401);

    const current = page.getByLabel('Current password', { exact: true });
    await current.fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Your current password is not correct')).toBeVisible();
    await expect(current).toBeFocused();
    await current.fill(member.password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your password has been changed.' })).toBeFocused();
    await expect(current).toHaveValue('');
    // This device stays signed in: the list still loads.
    await page.reload();
    await expect(items).toHaveCount(1);
    expect((await request.post('/api/auth/signin', { data: { email: member.email, password: NEW_PASSWORD } })).status()).toBe(200);
    expect((await request.post('/api/auth/signin', { data: { email: member.email, password: member.password } })).status()).toBe(401);
  });
});
