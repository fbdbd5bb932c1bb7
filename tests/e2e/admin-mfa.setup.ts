/**
 * Runs once, before every spec (the `admin-setup` project): the bootstrap administrator's
 * first Admin Access through the dialog, which sets up the second factor, and the state the
 * specs share from then on (see support/admin-mfa.ts for why and how).
 */
import { readFileSync } from 'node:fs';
import { test as setup } from '@playwright/test';
import { e2eAdmin } from '../../playwright.config';
import { type SessionUser, submitAdminCredentials, totpCodeForStep, totpStepNow, writeSharedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, seedSession } from './support/fixtures';

/** Signed-in sessions made while the administrator has no factor yet: spares for tests that step up themselves. */
const SPARE_SESSIONS = 6;

setup('the administrator sets up two-step verification in the Admin Access dialog', async ({ page, context, request }) => {
  const sessions: { token: string; user: SessionUser }[] = [];
  for (let i = 0; i < SPARE_SESSIONS + 1; i += 1) {
    const res = await request.post('/api/auth/signin', { data: e2eAdmin });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { token: string; user: SessionUser };
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    sessions.push(body);
  }
  const [asking, ...spares] = sessions as [{ token: string; user: SessionUser }, ...{ token: string; user: SessionUser }[]];
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await seedSession(page, asking);

  const dialog = await submitAdminCredentials(page);

  // First set-up: the QR code (drawn in the browser), the same key as text, the code field.
  const heading = dialog.getByRole('heading', { name: 'Set up your authenticator app' });
  await expect(heading).toBeFocused();
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expect(dialog.getByText('Setup key', { exact: true })).toBeVisible();
  const secret = ((await dialog.getByTestId('setup-key').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codeField = dialog.getByLabel('Authentication code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  // No recovery codes exist before the set-up: no way to type one.
  await expect(dialog.getByRole('button', { name: 'Use a recovery code' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  const step = totpStepNow();
  await codeField.fill(totpCodeForStep(secret, step));
  await dialog.getByRole('button', { name: 'Verify' }).click();

  // The recovery codes, once: ten of them, Copy and Download; the dialog cannot be dismissed here.
  await expect(dialog.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const list = dialog.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('recovery-codes.txt');
  const file = readFileSync(await download.path(), 'utf8');
  for (const code of recoveryCodes) expect(file).toContain(code);
  expect(file).toContain(e2eAdmin.email);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Recovery codes copied', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(file);

  await dialog.getByRole('button', { name: 'Continue to dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/employers$/);
  await expect(page.getByText('Admin Access Granted', { exact: true })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search employers' })).toBeVisible();

  // The browser now holds a NEW token; the one that asked is revoked.
  const stored = await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('admin_access'), localStorage.getItem('admin_email')]);
  expect(stored[0]).not.toBe(asking.token);
  expect(stored.slice(1)).toEqual(['true', e2eAdmin.email]);
  expect((await request.get('/api/auth/me', { headers: { authorization: `Bearer ${asking.token}` } })).status()).toBe(401);
  const elevated = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${stored[0]}` } });
  expect((await elevated.json()).session.adminElevated).toBe(true);

  writeSharedAdmin({ secret, lastStep: step, recoveryCodes, elevatedToken: stored[0]!, plainTokens: spares.map((s) => s.token), user: asking.user });
});
