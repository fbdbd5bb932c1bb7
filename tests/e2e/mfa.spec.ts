/**
 * The second factor in the browser at phone size: an enrolled administrator's step-up (no QR,
 * the code, a new token), a member's two-step sign-in on the sign-in page, and turning it on
 * and off under Security. The administrator's first set-up (QR, setup key, recovery codes,
 * Copy and Download) is walked by the admin-setup project, admin-mfa.setup.ts.
 */
import type { APIRequestContext } from '@playwright/test';
import { e2eAdmin } from '../../playwright.config';
import { claimAdminCode, claimAdminRecoveryCode, claimPlainAdminSession, submitAdminCredentials, totpCodeForStep, totpStepNow } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, type Member, seedSession, signInViaStorage, test } from './support/fixtures';

const INVALID_CODE = 'That code is not valid. Enter the current code from your authenticator app, or an unused recovery code.';

/** A member's own authenticator: codes for steps nobody used yet (this member is the test's alone). */
function authenticator(secret: string, lastStep: number) {
  let last = lastStep;
  return () => {
    last = Math.max(last + 1, totpStepNow());
    return totpCodeForStep(secret, last);
  };
}

/** Turns two-step sign-in on for a member through the API; returns their authenticator and recovery codes. */
async function withTwoStep(request: APIRequestContext, member: Member) {
  const signIn = await (await request.post('/api/auth/signin', { data: { email: member.email, password: member.password } })).json();
  const headers = { authorization: `Bearer ${signIn.token as string}` };
  const offer = await (await request.post('/api/me/mfa/setup', { headers, data: { password: member.password } })).json();
  const step = totpStepNow();
  const confirmed = await request.post('/api/me/mfa/confirm', { headers, data: { code: totpCodeForStep(offer.secret as string, step) } });
  expect(confirmed.status()).toBe(200);
  return { nextCode: authenticator(offer.secret as string, step), recoveryCodes: (await confirmed.json()).recoveryCodes as string[] };
}

test.describe('Two-step verification', () => {
  test('an enrolled administrator steps up with a code: no QR, a refused code, then the dashboard on a new token', async ({ page, request }) => {
    const session = claimPlainAdminSession();
    await seedSession(page, session);
    const dialog = await submitAdminCredentials(page);

    const code = dialog.getByLabel('Authentication code');
    await expect(code).toBeFocused();
    await expect(dialog.getByText('Enter the code from your authenticator app to continue.')).toBeVisible();
    await expect(dialog.getByRole('img')).toHaveCount(0);
    await expect(dialog.getByText('Setup key')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    // Start over goes back to the credentials (the password is asked again).
    await dialog.getByRole('button', { name: 'Start over' }).click();
    await expect(dialog.getByLabel('Admin Email')).toBeFocused();
    await expect(dialog.getByLabel('Admin Password', { exact: true })).toHaveValue('');
    await dialog.getByLabel('Admin Password', { exact: true }).fill(e2eAdmin.password);
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(code).toBeFocused();

    const mine = claimAdminCode();
    await code.fill(mine.code === '000000' ? '999999' : '000000');
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog.getByText(INVALID_CODE)).toBeVisible();
    await expect(code).toBeFocused();
    await expect(code).toHaveValue('');
    await expect(code).toHaveAccessibleDescription(new RegExp(INVALID_CODE.slice(0, 30)));
    await expectNoSeriousA11yViolations(page);

    await code.fill(mine.code);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Admin Access Granted', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/employers$/);
    await expect(page.getByRole('searchbox', { name: 'Search employers' })).toBeVisible();
    const stored = await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('admin_access'), localStorage.getItem('admin_email')]);
    expect(stored[0]).not.toBe(session.token);
    expect(stored.slice(1)).toEqual(['true', e2eAdmin.email]);
    expect((await request.get('/api/auth/me', { headers: { authorization: `Bearer ${session.token}` } })).status()).toBe(401);
  });

  test('an administrator on a phone steps up with a recovery code (a text keyboard), and a stale keep-alive does not sign them out', async ({ page, request }) => {
    const session = claimPlainAdminSession();
    await seedSession(page, session);
    // The app confirms the restored session with GET /api/auth/me, carrying the token of the
    // time. Hold that answer until the step-up has replaced the token (and revoked the old one):
    // it comes back 401 then, as a keep-alive ping sent just before the step-up would.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    let answered!: (status: number) => void;
    const staleAnswer = new Promise<number>((resolve) => {
      answered = resolve;
    });
    await page.route('**/api/auth/me', async (route) => {
      if (held || route.request().headers().authorization !== `Bearer ${session.token}`) return route.continue();
      held = true;
      await released;
      const response = await route.fetch();
      await route.fulfill({ response });
      answered(response.status());
    });
    const dialog = await submitAdminCredentials(page);

    const code = dialog.getByLabel('Authentication code');
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('inputmode', 'text');
    await expect(code).toHaveAttribute('autocomplete', 'off');
    await expect(code).not.toHaveAttribute('pattern');
    await expect(code).toHaveAccessibleDescription(/Enter one of your recovery codes/);
    await expect(dialog.getByRole('button', { name: 'Use your authenticator app' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // An empty code is refused on the spot, under the field.
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(code).toHaveAccessibleDescription(/Enter the code from your authenticator app/);
    await expect(code).toBeFocused();

    await code.pressSequentially(claimAdminRecoveryCode());
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Admin Access Granted', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/employers$/);
    const newToken = await page.evaluate(() => localStorage.getItem('auth_token'));
    expect(newToken).not.toBe(session.token);

    expect(held).toBe(true);
    release();
    expect(await staleAnswer).toBe(401);
    // One turn of the page's event loop: the app has handled that answer by then.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    // The answer about the old token leaves the new one, and the page, alone.
    await expect(page.getByRole('searchbox', { name: 'Search employers' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/employers$/);
    expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('admin_access')])).toEqual([newToken, 'true']);
    expect((await request.get('/api/admin/employers', { headers: { authorization: `Bearer ${newToken}` } })).status()).toBe(200);
  });

  test('a member with two-step sign-in gives the code after the password, or a recovery code in the same field', async ({ page, request, member }) => {
    const { nextCode, recoveryCodes } = await withTwoStep(request, member);
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    const code = page.getByLabel('Authentication code');
    await expect(code).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeHidden();
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(code).toHaveAttribute('pattern', '[0-9]*');
    await expectNoSeriousA11yViolations(page);

    const right = nextCode();
    await code.fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText(INVALID_CODE)).toBeVisible();
    await expect(code).toBeFocused();
    await code.fill(right);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();

    // Again with a recovery code: the same field, a text keyboard.
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect(code).toHaveAttribute('inputmode', 'text');
    await expect(code).toHaveAttribute('autocomplete', 'off');
    await expect(code).not.toHaveAttribute('pattern');
    await expect(code).toHaveAccessibleDescription(/Enter one of your recovery codes/);
    await expect(code).toBeFocused();
    await code.fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
  });

  test('Security turns two-step sign-in on (QR, setup key, code, recovery codes once) and off', async ({ page, request, member }) => {
    await signInViaStorage(page, request, member);
    await page.goto('/profile/security');
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await expect(card.getByText('Two-step sign-in is off.')).toBeVisible();
    await card.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await expect(card.getByLabel('Password', { exact: true })).toBeFocused();
    await card.getByLabel('Password', { exact: true }).fill(member.password);
    await card.getByRole('button', { name: 'Continue' }).click();

    await expect(card.getByRole('heading', { name: 'Set up your authenticator app' })).toBeFocused();
    await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = ((await card.getByTestId('setup-key').textContent()) ?? '').replace(/\s+/g, '');
    await expectNoSeriousA11yViolations(page);
    const step = totpStepNow();
    await card.getByLabel('Authentication code').fill(totpCodeForStep(secret, step));
    await card.getByRole('button', { name: 'Verify' }).click();

    await expect(card.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
    await expect(card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await expectNoSeriousA11yViolations(page);
    await card.getByRole('button', { name: 'Done' }).click();
    await expect(card.getByText('Two-step sign-in is on. Your other devices were signed out; you will be asked for a code at your next sign-in.')).toBeFocused();
    await expect(card.getByText('10 recovery codes left.', { exact: false })).toBeVisible();

    await card.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await card.getByLabel('Password', { exact: true }).fill(member.password);
    // A recovery code gets a text keyboard here too.
    await card.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect(card.getByLabel('Authentication code')).toHaveAttribute('inputmode', 'text');
    await expect(card.getByLabel('Authentication code')).toBeFocused();
    await card.getByRole('button', { name: 'Use your authenticator app' }).click();
    await expect(card.getByLabel('Authentication code')).toHaveAttribute('inputmode', 'numeric');
    await card.getByLabel('Authentication code').fill(authenticator(secret, step)());
    await card.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'Two-step sign-in is off.' })).toBeFocused();
    await expect(card.getByRole('button', { name: 'Turn on two-step sign-in' })).toBeVisible();
    const signIn = await (await request.post('/api/auth/signin', { data: { email: member.email, password: member.password } })).json();
    expect(Object.keys(signIn).sort()).toEqual(['token', 'user']);
  });
});
