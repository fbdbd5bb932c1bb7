import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, idleWatchListening, newMemberData, pauseClock, registerViaApi, signInViaUi, test } from './support/fixtures';

/** Fills the registration form with `data` and submits it, as a member would. */
async function submitRegistration(page: Page, data: ReturnType<typeof newMemberData>) {
  await page.goto('/register');
  await page.getByLabel('First Name').fill(data.firstName);
  await page.getByLabel('Last Name').fill(data.lastName);
  await page.getByLabel('Email').fill(data.email);
  await page.getByLabel('Employer').fill(data.company);
  await page.getByLabel('Program ID (LHMP ID)').fill(data.lhmpId);
  await page.getByLabel('Password').fill(data.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}
test.describe('registration', () => {
  test('registers, shows the success message and goes to sign-in after 2 seconds', async ({ page }) => {
    const data = newMemberData();
    await page.clock.install();
    await page.goto('/register');
    await page.getByLabel('First Name').fill(data.firstName);
    await page.getByLabel('Last Name').fill(data.lastName);
    await page.getByLabel('Email').fill(data.email);
    await page.getByLabel('Employer').fill(data.company);
    const lhmp = page.getByLabel('Program ID (LHMP ID)');
    await expect(lhmp).toHaveAttribute('maxlength', '7');
    await expect(lhmp).toHaveAttribute('placeholder', 'LQ12345');
    await expect(page.getByText('Must start with "LQ" followed by 5 digits')).toBeVisible();
    await expect(page.getByText('Minimum 8 characters')).toBeVisible();
    await lhmp.fill(data.lhmpId);
    await page.getByLabel('Password').fill(data.password);
    // The 2 s redirect waits on the paused clock, so a slow machine cannot skip the message.
    await pauseClock(page);
    const created = page.getByText('Account created successfully! You can now sign in.');
    const taken = page.getByText('This programme ID is already registered');
    for (let attempt = 1; ; attempt += 1) {
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(created.or(taken)).toBeVisible();
      if (await created.isVisible()) break;
      // A random programme ID can belong to another test's member: take another.
      expect(attempt).toBeLessThan(5);
      await lhmp.fill(newMemberData().lhmpId);
    }
    await expect(page.getByLabel('First Name')).toBeDisabled();
    await page.clock.runFor(1_900);
    await expect(page).toHaveURL(/\/register$/);
    await page.clock.runFor(200);
    await page.waitForURL('**/login');
  });

  test('shows each validation message under its field and clears it on edit', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Email').fill('nope');
    await page.getByLabel('Program ID (LHMP ID)').fill('AB123');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Valid email is required',
      'Company is required',
      'LHMP ID must be exactly 7 characters',
      'Password must be at least 8 characters',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    // Messages are read with their field, not announced all at once; focus goes to the first.
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByLabel('First Name')).toBeFocused();
    await page.getByLabel('First Name').fill('A');
    await expect(page.getByText('First name is required')).toBeHidden();
    await page.getByLabel('Program ID (LHMP ID)').fill('AB12345');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText("LHMP ID must start with 'LQ' followed by 5 digits")).toBeVisible();
  });

  test('shows the server message for a duplicate email', async ({ page, request }) => {
    const existing = await registerViaApi(request);
    const data = newMemberData({ email: existing.email });
    await submitRegistration(page, data);
    // Said once, under the field, which takes focus.
    await expect(page.getByText('An account with this email already exists')).toHaveCount(1);
    await expect(page.getByText('An account with this email already exists')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('shows why the server refused a weak password, on the password field', async ({ page }) => {
    const data = newMemberData({ password: 'Password1!' });
    await submitRegistration(page, data);
    await expect(page.getByText('This password is too easy to guess.')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeFocused();
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('sign-in and session', () => {
  test('signs in, lands on /home, stays signed in across a reload, signs out', async ({ page, member }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    const submit = page.getByRole('button', { name: 'Sign In' });
    await submit.click();
    await page.waitForURL('**/home');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('auth_user')))!)).toMatchObject({ email: member.email });
    await page.reload();
    await expect(page).toHaveURL(/\/home$/);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByText(`${member.firstName} ${member.lastName}`)).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Admin Access' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Sign Out', exact: true }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    await page.goto('/home');
    await page.waitForURL('**/login');
  });

  test('shows the server error for wrong credentials and the spec messages for bad input', async ({ page, member }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Valid email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('sign-in messages sit under their fields, focus the first one and clear when that field is edited', async ({ page, member }) => {
    await page.goto('/login');
    await page.getByLabel('Password', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Valid email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeHidden();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Password', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Email').fill(`  ${member.email.toUpperCase()}  `);
    await expect(page.getByText('Valid email is required')).toBeHidden();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await expect(page.getByText('Password is required')).toBeHidden();
    // The schema trims and lower-cases the email before it is sent.
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
  });

  test('the sign-in button reads Signing In... while busy and ignores double submits', async ({ page, member }) => {
    let signins = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/signin', async (route) => {
      signins += 1;
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Signing In...' })).toBeDisabled();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await page.getByRole('button', { name: 'Signing In...' }).click({ force: true });
    await page.keyboard.press('Enter');
    release();
    await page.waitForURL('**/home');
    expect(signins).toBe(1);
  });

  test('entering /login clears the stored session', async ({ page, member }) => {
    await signInViaUi(page, member);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    await page.goto('/home');
    await page.waitForURL('**/login');
  });

  test('unparseable stored data is removed and the visitor stays signed out', async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem('auth_token', 'x'.repeat(43));
      localStorage.setItem('auth_user', '{not json');
    });
    await page.goto('/home');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_user'))).toBeNull();
  });

  test('a revoked token sends the browser to the root and on to sign-in', async ({ page, member, request }) => {
    await signInViaUi(page, member);
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    await request.post('/api/auth/signout', { headers: { authorization: `Bearer ${token}` } });
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  test('signs the member out after 15 minutes without activity', async ({ page, member }) => {
    await page.clock.install();
    const listening = idleWatchListening(page);
    await signInViaUi(page, member);
    await listening();
    await page.clock.fastForward('14:00');
    await page.mouse.click(5, 400);
    await page.clock.fastForward('14:00');
    await expect(page).toHaveURL(/\/home$/);
    await page.clock.fastForward('01:01');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });
});

test.describe('routing', () => {
  test('guards every member route and redirects / to sign-in', async ({ page }) => {
    for (const path of ['/home', '/start', '/admin', '/admin/employers', '/admin/popups']) {
      await page.goto(path);
      await page.waitForURL('**/login');
    }
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.goto('/admin/login');
    await page.waitForURL('**/login');
  });

  test('/ goes home for a signed-in member; /start leads home', async ({ page, member }) => {
    await signInViaUi(page, member);
    await page.goto('/');
    await page.waitForURL('**/home');
    await page.goto('/start');
    await expect(page.getByText(/HIPAA/)).toBeVisible();
    await page.getByRole('link', { name: 'Start Your Journey' }).click();
    await page.waitForURL('**/home');
  });

  test('the current screen and its address stay while the next screen loads; no skeleton in between', async ({ page, member }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/home-route-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    const homeChunk = page.waitForRequest(/\/assets\/home-route-[^/]+\.js$/);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await homeChunk;
    await expect(page.getByRole('button', { name: 'Signing In...' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
    // Signed in already, but the sign-in screen has no menu.
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);
    release();
    await expect(page.getByRole('heading', { name: `Welcome back, ${member.firstName}` })).toBeVisible();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('a screen whose code cannot be fetched shows the generic error; leaving it recovers', async ({ page }) => {
    await page.route('**/assets/register-page-*.js', (route) => route.abort());
    await page.goto('/login');
    await page.getByRole('link', { name: "Don't have an account? Create one" }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong. Please try again.' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await page.goto('/register');
    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL('**/login');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  });

  test('shows Page Not Found for an unknown path', async ({ page }) => {
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText('/no/such/page')).toBeVisible();
  });
});

test.describe('accessibility', () => {
  test('sign-in, registration and welcome have no serious axe violations', async ({ page, member }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/register');
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await signInViaUi(page, member);
    await page.goto('/start');
    await expect(page.getByRole('link', { name: 'Start Your Journey' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
