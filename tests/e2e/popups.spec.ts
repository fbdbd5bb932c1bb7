import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { e2eAdmin } from '../../playwright.config';
import { claimPlainAdminSession, elevatedAdminSession, privateAdminCode } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, registerViaApi, seedSession, signInViaUi, test } from './support/fixtures';

const VITAL_SCAN_URL = 'https://vitalscan.example.test/start';
const pad = (n: number) => String(n).padStart(2, '0');
/** A `datetime-local` value in the browser's (and this process's) time zone. */
const localInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
const unique = (what: string) => `${what} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/**
 * An elevated admin session in the browser without the UI round trip: the run's shared one, or
 * on a private server (`baseURL`) its own, second factor and all (support/admin-mfa.ts); returns its token.
 */
async function adminViaStorage(page: Page, request: APIRequestContext, baseURL?: string) {
  const session = await elevatedAdminSession(request, baseURL);
  await seedSession(page, session);
  return session.token;
}

async function createViaApi(request: APIRequestContext, token: string, overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  const res = await request.post('/api/admin/popups', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      title: unique('Reminder'),
      message: 'A message for the card.',
      target: 'home',
      startAt: new Date(now + 86_400_000).toISOString(),
      endAt: new Date(now + 3 * 86_400_000).toISOString(),
      ...overrides,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; title: string };
}

const card = (page: Page, title: string) => page.getByTestId('popup-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** Picks an option of one of the form's Radix selects by its label. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * An active home popup is shown to everyone who signs in, so the member flows run against a
 * private server of their own: they never put a modal in front of other specs' members.
 */
const privateTest = test.extend<object, { privateServer: string }>({
  privateServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const out = process.env.BUILD_OUT ?? 'dist';
      const dataDir = path.resolve(`.tmp/e2e-data-popups-${process.pid}-${workerInfo.workerIndex}`);
      const child: ChildProcess = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          BUILD_OUT: out,
          CLIENT_DIR: `${out}/client`,
          DATA_DIR: dataDir,
          DEMO_DATA: '0',
          ADMIN_EMAIL: e2eAdmin.email,
          ADMIN_PASSWORD: e2eAdmin.password,
          AUTH_RATE_LIMIT_PER_IP: '100000',
          LOG_LEVEL: 'warn',
          VITAL_SCAN_URL,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        const timer = setTimeout(() => reject(new Error(`private server did not start:\n${seen}`)), 60_000);
        const onData = (chunk: Buffer) => {
          seen += chunk.toString();
          const match = /running at (http:\/\/\S+)/.exec(seen);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!.replace('localhost', '127.0.0.1'));
          }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`private server exited with ${code}:\n${seen}`)));
      });
      await use(url);
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ privateServer }, use) => {
    await use(privateServer);
  },
});

privateTest.describe('member reminder popup, end to end (private server)', () => {
  privateTest.describe.configure({ mode: 'serial' });

  privateTest('admin creates a popup; a member sees, snoozes, gets the last reminder, completes; the admin sees the counts, deactivates and deletes', async ({ browser, baseURL, context, page }) => {
    privateTest.setTimeout(90_000);
    const adminContext = await browser.newContext({ baseURL: baseURL!, viewport: { width: 390, height: 844 } });
    const admin = await adminContext.newPage();
    await adminViaStorage(admin, adminContext.request, baseURL!);
    await admin.goto('/admin/popups');
    await expect(admin.getByRole('heading', { name: 'Popup Management' })).toBeVisible();
    await expect(admin.getByText('No popups found')).toBeVisible();

    // The admin creates an active popup for Home.
    const title = unique('Vital Scan due');
    await admin.getByRole('button', { name: 'Create Popup' }).click();
    const form = admin.getByRole('dialog', { name: 'Create New Popup' });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Message').fill('Your 30-second scan keeps your care team up to date.');
    await form.getByLabel('Start Date & Time').fill(localInput(new Date(Date.now() - 5 * 60_000)));
    await form.getByLabel('End Date & Time').fill(localInput(new Date(Date.now() + 86_400_000)));
    await choose(admin, 'Theme', 'Green');
    await form.getByLabel('Max Snoozes').fill('1');
    await form.getByLabel('Priority').fill('9');
    await expect(form.getByText('New popups are created inactive: members see nothing until you activate it.')).toBeVisible();
    await form.getByRole('checkbox', { name: 'Activate now' }).check();
    await form.getByRole('button', { name: 'Create Popup' }).click();
    await expect(admin.getByText('Popup created successfully', { exact: true })).toBeVisible();
    await expect(form).toBeHidden();
    await expect(card(admin, title).getByText('Active', { exact: true })).toBeVisible();

    // The admin previews it by signing in elsewhere: shown (the first show), closed with X.
    const previewContext = await browser.newContext({ baseURL: baseURL!, viewport: { width: 390, height: 844 } });
    const preview = await previewContext.newPage();
    await signInViaUi(preview, e2eAdmin, { code: privateAdminCode(baseURL!) });
    await expect(preview.getByRole('dialog', { name: title })).toBeVisible();
    await preview.getByRole('dialog', { name: title }).getByRole('button', { name: 'Close' }).click();
    await expect(preview.getByRole('dialog')).toHaveCount(0);
    await previewContext.close();

    // A member signs in and sees it: an accessible dialog with the page behind hidden from assistive tech.
    await context.route('https://vitalscan.example.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Vital Scan</title>' }));
    const member = await registerViaApi(page.request);
    await signInViaUi(page, member);
    const popup = page.getByRole('dialog', { name: title });
    await expect(popup).toBeVisible();
    await expect(popup).toHaveAttribute('data-theme', 'green');
    await expect(popup.getByText('Your 30-second scan keeps your care team up to date.')).toBeVisible();
    await expect(page.locator('[role="dialog"] :focus, [role="dialog"]:focus')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toHaveCount(0);
    await expect(popup.getByText(/Snoozed \d+ times?/)).toHaveCount(0);
    await expect(popup.getByText('Last Reminder')).toHaveCount(0);

    // Snooze: closes, toast.
    await popup.getByRole('button', { name: 'Snooze' }).click();
    await expect(popup).toBeHidden();
    await expect(page.getByText('Popup Snoozed', { exact: true })).toBeVisible();
    await expect(page.getByText("You'll see this reminder again later.", { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();

    // Signs in again: the last reminder, no Snooze, no Escape or outside-click dismissal.
    await signInViaUi(page, member);
    const last = page.getByRole('dialog', { name: new RegExp(title) });
    await expect(last.getByText('Last Reminder')).toBeVisible();
    await expect(last.getByText('This is your final reminder. Please take action now.')).toBeVisible();
    await expect(last.getByText('Snoozed 1 time')).toBeVisible();
    await expect(last.getByRole('button', { name: 'Snooze' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await page.mouse.click(8, 830);
    await expect(last).toBeVisible();

    // Take Vital Scan: closes, opens the vital-scan site in a new tab, completes in the background.
    const [tab] = await Promise.all([context.waitForEvent('page'), last.getByRole('button', { name: 'Take Vital Scan' }).click()]);
    // The toast lives 5 s: look at it before waiting on the new tab's renderer.
    await expect(last).toBeHidden();
    await expect(page.getByText('Action Completed', { exact: true })).toBeVisible();
    await expect(page.getByText('Thank you for your engagement!', { exact: true })).toBeVisible();
    await tab.waitForLoadState();
    expect(tab.url()).toBe(VITAL_SCAN_URL);
    await tab.close();

    // Signs in again: nothing to show.
    const next = page.waitForResponse((r) => r.url().includes('/api/popups/next'));
    await signInViaUi(page, member);
    expect((await next).status()).toBe(204);
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The admin list counts 3 shows (the preview and the member's two), 1 snooze, 1 completion.
    await admin.reload();
    const item = card(admin, title);
    await expect(item.getByText('3 Shows')).toBeVisible();
    await expect(item.getByText('1 Snooze', { exact: true })).toBeVisible();
    await expect(item.getByText('1 Completed')).toBeVisible();

    // Deactivate, then delete, confirmed in the app's own dialog with the spec's sentence.
    await item.getByRole('button', { name: `Deactivate ${title}` }).click();
    await expect(admin.getByText('Popup status updated successfully', { exact: true })).toBeVisible();
    await expect(item.getByText('Inactive', { exact: true })).toBeVisible();
    await expect(item.getByRole('button', { name: `Activate ${title}` })).toBeEnabled();
    await item.getByRole('button', { name: `Delete ${title}` }).click();
    const confirm = admin.getByRole('dialog', { name: 'Delete popup?' });
    await expect(confirm).toHaveAccessibleDescription(`Are you sure you want to delete "${title}"? This action cannot be undone.`);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(admin.getByText('Popup deleted successfully', { exact: true })).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(admin.getByRole('heading', { name: 'Popup Management' })).toBeFocused();
    await expect(item).toHaveCount(0);
    await expect(admin.getByText('No popups found')).toBeVisible();
    await adminContext.close();
  });

  privateTest('X and an outside click close the popup without a call; a vanished popup gives the section 8 toast', async ({ page, request, baseURL }) => {
    const adminToken = (await elevatedAdminSession(request, baseURL!)).token;
    const now = Date.now();
    const p = await createViaApi(request, adminToken, {
      title: unique('Enrol in care'),
      startAt: new Date(now - 60_000).toISOString(),
      endAt: new Date(now + 86_400_000).toISOString(),
      isActive: true,
      theme: 'white',
      maxSnoozes: 3,
    });
    const calls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/popups\/[^/]+\/(snooze|complete)$/.test(r.url())) calls.push(r.url());
    });
    const member = await registerViaApi(request);

    await signInViaUi(page, member);
    const popup = page.getByRole('dialog', { name: p.title });
    await expect(popup).toHaveAttribute('data-theme', 'white');
    await expectNoSeriousA11yViolations(page);
    await popup.getByRole('button', { name: 'Close' }).click();
    await expect(popup).toBeHidden();

    // Radix attaches its outside-pointer listener a task after the dialog mounts, so a click
    // that lands in the same instant is not yet seen; retry the gesture until it has effect.
    const dismissBy = async (gesture: () => Promise<void>) => {
      await expect(async () => {
        await gesture();
        await expect(popup).toBeHidden({ timeout: 1_000 });
      }).toPass();
    };

    await signInViaUi(page, member);
    await expect(popup).toBeVisible();
    await dismissBy(() => page.mouse.click(8, 830));

    await signInViaUi(page, member);
    await expect(popup).toBeVisible();
    await dismissBy(() => page.keyboard.press('Escape'));
    expect(calls).toEqual([]);

    // The popup is deleted while the member looks at it: Snooze gives 'Popup no longer available.'
    await signInViaUi(page, member);
    await expect(popup).toBeVisible();
    expect((await request.delete(`/api/admin/popups/${p.id}`, { headers: { authorization: `Bearer ${adminToken}` } })).status()).toBe(200);
    await popup.getByRole('button', { name: 'Snooze' }).click();
    await expect(popup).toBeHidden();
    await expect(page.getByText('Popup no longer available.', { exact: true })).toBeVisible();
  });
});

test.describe('admin popup console', () => {
  test('search, status filter, sort, empty state and footer', async ({ page, request }) => {
    const token = await adminViaStorage(page, request);
    const tag = unique('zq').replace(' ', '');
    const a = await createViaApi(request, token, { title: `${tag} Alpha`, priority: 2, isActive: true });
    const b = await createViaApi(request, token, { title: `${tag} Bravo`, priority: 8, message: 'Second message, a long one that goes on. '.repeat(8) });
    await page.goto('/admin/popups');
    await expect(page.getByText('Manage scheduled user engagement popups')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Popups/ })).toHaveAttribute('aria-current', 'page');
    await page.getByRole('searchbox', { name: 'Search popups' }).fill(tag);
    await expect(page.getByText(`Showing 2 popups matching "${tag}"`)).toBeVisible();
    // Default sort: priority, descending.
    await expect(page.getByTestId('popup-card').getByRole('heading')).toHaveText([b.title, a.title]);
    await page.getByRole('button', { name: 'Sort order: descending' }).click();
    await expect(page.getByTestId('popup-card').getByRole('heading')).toHaveText([a.title, b.title]);
    // Another field sorts ascending.
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Title' }).click();
    await expect(page.getByRole('button', { name: 'Sort order: ascending' })).toBeVisible();
    await expect(page.getByTestId('popup-card').getByRole('heading')).toHaveText([a.title, b.title]);
    // Status filter.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await expect(page.getByText(`Showing 1 popup matching "${tag}" (Inactive)`)).toBeVisible();
    await expect(card(page, b.title).getByText('Inactive', { exact: true })).toBeVisible();
    await expect(card(page, b.title).getByText('0 Shows')).toBeVisible();
    await expect(card(page, b.title).getByText('Purple')).toBeVisible();
    // Search, status and sort live in the URL: a reload (or back) returns to the same list.
    await expect(page).toHaveURL(/status=inactive/);
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search popups' })).toHaveValue(tag);
    await expect(page.getByText(`Showing 1 popup matching "${tag}" (Inactive)`)).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveText('Title');
    // The actions say what they do in words; their names add the popup's title.
    const actions = card(page, b.title).getByRole('group', { name: `Actions for ${b.title}` });
    await expect(actions.getByRole('button', { name: `Edit ${b.title}` })).toHaveText('Edit');
    await expect(actions.getByRole('button', { name: `Activate ${b.title}` })).toHaveText('Activate');
    await expect(actions.getByRole('button', { name: `Delete ${b.title}` })).toHaveText('Delete');
    await expect(actions.getByRole('link', { name: `Results for ${b.title}` })).toHaveText('Results');
    // An inactive popup says so once, with its next occurrence in its own time zone.
    await expect(card(page, b.title).getByTestId('popup-status')).toHaveCount(0);
    await expect(card(page, b.title).getByTestId('popup-occurrence')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M UTC$/);
    // Nothing found, with the hint because a search is entered.
    await page.getByRole('searchbox', { name: 'Search popups' }).fill(`${tag} nothing`);
    await expect(page.getByText('No popups found')).toBeVisible();
    await expect(page.getByText('Try adjusting your search terms')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('the form shows every field message, the end-after-start and timezone rules, and Escape hands focus back', async ({ page, request }) => {
    await adminViaStorage(page, request);
    await page.goto('/admin/popups');
    const createButton = page.getByRole('button', { name: 'Create Popup' });
    await createButton.click();
    const form = page.getByRole('dialog', { name: 'Create New Popup' });
    await expect(form.getByLabel('Timezone')).toHaveValue('UTC');
    await expect(form.getByLabel('Priority')).toHaveValue('5');
    await expect(form.getByLabel('Max Snoozes')).toHaveValue('2');
    await expect(form.getByLabel('Interval')).toHaveValue('1');
    await expect(form.getByRole('checkbox', { name: 'Activate now' })).not.toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Activate now' })).toHaveAccessibleDescription(
      'New popups are created inactive: members see nothing until you activate it.',
    );
    await form.getByRole('button', { name: 'Create Popup' }).click();
    for (const text of ['Title is required', 'Message is required', 'Start date is required', 'End date is required']) {
      await expect(form.getByText(text)).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);
    await form.getByLabel('Title').fill('x'.repeat(101));
    await form.getByLabel('Message').fill('Hello');
    await form.getByLabel('Start Date & Time').fill('2030-05-02T10:00');
    await form.getByLabel('End Date & Time').fill('2030-05-01T10:00');
    await form.getByLabel('Timezone').fill('Mars/Olympus_Mons');
    await form.getByLabel('Priority').fill('11');
    await form.getByLabel('Max Snoozes').fill('');
    await form.getByLabel('Interval').fill('0');
    await form.getByRole('button', { name: 'Create Popup' }).click();
    for (const text of [
      'Title must be 100 characters or less',
      'End date must be after start date',
      'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)',
      'Priority must be a whole number from 1 to 10',
      'Max snoozes must be a whole number from 0 to 10',
      'Interval must be a whole number from 1 to 24',
    ]) {
      await expect(form.getByText(text)).toBeVisible();
    }
    // Editing a field clears its message.
    await form.getByLabel('Priority').fill('3');
    await expect(form.getByText('Priority must be a whole number from 1 to 10')).toBeHidden();
    // Escape closes and focus returns to the button that opened the dialog.
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    await expect(createButton).toBeFocused();
  });

  test('edit prefills local date-times trimmed to minutes and saves; a cancelled confirmation deletes nothing', async ({ page, request }) => {
    const token = await adminViaStorage(page, request);
    const start = new Date(Date.UTC(2031, 0, 15, 17, 45, 30));
    const p = await createViaApi(request, token, { startAt: start.toISOString(), endAt: new Date(start.getTime() + 7 * 86_400_000).toISOString() });
    await page.goto('/admin/popups');
    await page.getByRole('searchbox', { name: 'Search popups' }).fill(p.title);
    const item = card(page, p.title);
    await item.getByRole('button', { name: `Edit ${p.title}` }).click();
    const form = page.getByRole('dialog', { name: 'Edit Popup' });
    await expect(form.getByLabel('Title')).toHaveValue(p.title);
    const expectedLocal = await page.evaluate((iso) => {
      const d = new Date(iso);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
    }, start.toISOString());
    await expect(form.getByLabel('Start Date & Time')).toHaveValue(expectedLocal);
    const renamed = `${p.title} edited`;
    await form.getByLabel('Title').fill(renamed);
    await form.getByRole('button', { name: 'Update Popup' }).click();
    await expect(page.getByText('Popup updated successfully', { exact: true })).toBeVisible();
    await expect(form).toBeHidden();
    const edited = card(page, renamed);
    await expect(edited).toBeVisible();
    // Focus returns to the Edit button that opened the dialog.
    await expect(edited.getByRole('button', { name: `Edit ${renamed}` })).toBeFocused();
    await edited.getByRole('button', { name: `Delete ${renamed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete popup?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    // Focus goes back to the Delete button that asked.
    await expect(edited.getByRole('button', { name: `Delete ${renamed}` })).toBeFocused();
    await expect(page.getByText('Popup deleted successfully', { exact: true })).toHaveCount(0);
    await page.reload();
    await page.getByRole('searchbox', { name: 'Search popups' }).fill(renamed);
    await expect(card(page, renamed)).toBeVisible();
  });

  test('a signed-in admin without Admin Access is offered the dialog instead of the list', async ({ page }) => {
    await seedSession(page, claimPlainAdminSession());
    await page.goto('/admin/popups');
    await expect(page.getByText('Admin access is required to manage popups.')).toBeVisible();
    // Nothing but the way in: no search, filters, sort or Create Popup.
    await expect(page.getByRole('searchbox')).toHaveCount(0);
    await expect(page.getByRole('combobox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Create Popup/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Admin Access' }).click();
    await expect(page.getByRole('dialog', { name: 'Admin Access' })).toBeVisible();
  });
});
