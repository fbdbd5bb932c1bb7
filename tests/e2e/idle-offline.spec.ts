import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, idleWatchListening, pauseClock, signInViaStorage, test } from './support/fixtures';

const IDLE_WARN = 14 * 60_000;
const warning = (page: Page) => page.getByRole('dialog', { name: /You'll be signed out in/ });

/**
 * Runs the page's clock to 5 s before the warning is due (the last activity lands a moment
 * before the clock is paused), checks there is none yet, then second by second until it shows.
 */
async function runToWarning(page: Page) {
  await page.clock.runFor(IDLE_WARN - 5_000);
  await expect(warning(page)).toHaveCount(0);
  for (let second = 0; second < 10; second += 1) {
    await page.clock.runFor(1_000);
    if (await warning(page).isVisible()) break;
  }
  await expect(warning(page)).toBeVisible();
}

async function fillFamilyForm(page: Page, values: { firstName: string; lastName: string; dob?: string; relationship?: string }) {
  await page.getByLabel('First Name').fill(values.firstName);
  await page.getByLabel('Last Name').fill(values.lastName);
  if (values.dob) await page.getByLabel('Date of Birth').fill(values.dob);
  if (values.relationship) {
    await page.getByRole('combobox', { name: 'Relationship' }).click();
    await page.getByRole('option', { name: values.relationship, exact: true }).click();
  }
}

test.describe('idle warning', () => {
  test('warns at 14 minutes with a countdown said at 60 and 30 seconds; Stay signed in extends here and on the server', async ({ page, request, member }) => {
    await page.clock.install();
    await signInViaStorage(page, request, member);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1, name: /Welcome back/ })).toBeVisible();
    await pauseClock(page);

    await runToWarning(page);
    const dialog = warning(page);
    const title = dialog.getByRole('heading');
    await expect(title).toHaveText(/You'll be signed out in \d+ seconds/);
    // runToWarning may step a few seconds past the warning on a busy machine before it sees the
    // dialog; the polite region's first words say where the countdown started.
    const shown = Number(/(\d+) seconds/.exec((await title.textContent()) ?? '')?.[1]);
    expect(shown).toBeGreaterThanOrEqual(50);
    expect(shown).toBeLessThanOrEqual(60);
    const live = dialog.locator('[aria-live="polite"]');
    await expect(live).toHaveText("You'll be signed out in 60 seconds");
    await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();

    // The title counts every second; the polite region only at 30 (and 10).
    await page.clock.runFor(15_000);
    await expect(title).toHaveText(new RegExp(`You'll be signed out in (${shown - 16}|${shown - 15}|${shown - 14}) seconds`));
    await expect(live).toHaveText("You'll be signed out in 60 seconds");
    await page.clock.runFor(16_000);
    await expect(live).toHaveText("You'll be signed out in 30 seconds");
    // axe waits on timers of its own: the clock runs (the countdown with it) while it looks.
    await page.clock.resume();
    await expectNoSeriousA11yViolations(page);
    await pauseClock(page);

    const touched = page.waitForResponse((res) => res.url().endsWith('/api/auth/me') && res.request().method() === 'GET');
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    expect((await touched).status()).toBe(200);
    await expect(warning(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/home$/);

    // A full 14 minutes again before the next warning.
    await runToWarning(page);
    await expect(page).toHaveURL(/\/home$/);
    await warning(page).getByRole('button', { name: 'Sign out now' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  test('typing in a form counts as activity; an idle sign-out says why and the half-typed form comes back after signing in', async ({ page, request, member }) => {
    await page.clock.install();
    await signInViaStorage(page, request, member);
    const listening = idleWatchListening(page);
    await page.goto('/profile/add-family');
    await expect(page.getByLabel('First Name')).toBeVisible();
    await listening();
    await pauseClock(page);

    // Typing at 10 minutes moves the warning to 24.
    await page.clock.runFor(10 * 60_000);
    await fillFamilyForm(page, { firstName: 'Dana', lastName: 'Okafor' });
    await runToWarning(page);
    await page.clock.runFor(60_000);

    await page.waitForURL('**/login');
    await expect(page.getByText('You were signed out after 15 minutes of inactivity.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    await page.clock.resume();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
    await page.goto('/profile/add-family');
    await expect(page.getByLabel('First Name')).toHaveValue('Dana');
    await expect(page.getByLabel('Last Name')).toHaveValue('Okafor');
    await expect(page.getByText('We restored what you had typed earlier.')).toBeVisible();
  });
});

test.describe('writes without a connection', () => {
  test('an offline save is refused at once and the form kept; a retry after a lost answer creates the family member exactly once', async ({ page, context, request, member }) => {
    const { token } = await signInViaStorage(page, request, member);
    await page.goto('/profile/add-family');
    const values = { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' };
    await fillFamilyForm(page, values);

    const keys: string[] = [];
    let lose = true;
    await page.route('**/api/family-members', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      if (!lose) return route.continue();
      // The server does the work, the answer never arrives (the connection drops on the way back).
      lose = false;
      await route.fetch();
      return route.abort('connectionreset');
    });

    await context.setOffline(true);
    const startedAt = Date.now();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText("You're offline. Your changes were not saved.", { timeout: 2_000 });
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(keys).toHaveLength(0);
    await expect(page.getByLabel('First Name')).toHaveValue('Jamie');
    await expect(page.getByLabel('Last Name')).toHaveValue('Rivera');
    await expect(page.getByLabel('Date of Birth')).toHaveValue('2015-06-01');
    await expect(page.getByRole('combobox', { name: 'Relationship' })).toHaveText('Child');
    await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
    await expect(page).toHaveURL(/\/profile\/add-family$/);
    await expectNoSeriousA11yViolations(page);

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText("You're offline. Your changes were not saved.");
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const list = page.getByRole('list', { name: 'Family Members' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Jamie Rivera');

    // One submission, one key, sent twice: the second got the first answer.
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const res = await request.get('/api/family-members', { headers: { authorization: `Bearer ${token}` } });
    expect((await res.json()).familyMembers).toHaveLength(1);
  });
});
