/**
 * Issue 12: popups an admin can aim and measure. Every popup here is aimed at an employer made
 * for the test alone, so it runs on the shared server without putting a modal in front of
 * other specs' members (whose employers are others): that is the audience rule at work.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { employerIdByName, sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, registerViaApi, seedSession, signInViaUi, test } from './support/fixtures';

const pad = (n: number) => String(n).padStart(2, '0');
/** A `datetime-local` value in the browser's (and this process's) time zone. */
const localInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const auth = () => ({ authorization: `Bearer ${sharedElevatedAdmin().token}` });

async function adminPage(browser: Browser, width = 390, height = 844) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await seedSession(page, sharedElevatedAdmin());
  return { context, page };
}

function popupBody(overrides: Record<string, unknown>) {
  const now = Date.now();
  return {
    title: `Reminder ${unique()}`,
    message: 'A message for the card.',
    target: 'home',
    startAt: new Date(now - 5 * 60_000).toISOString(),
    endAt: new Date(now + 86_400_000).toISOString(),
    isActive: true,
    ...overrides,
  };
}

async function createViaApi(request: APIRequestContext, overrides: Record<string, unknown>) {
  const res = await request.post('/api/admin/popups', { headers: auth(), data: popupBody(overrides) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; title: string } & Record<string, unknown>;
}

/** Signs in and answers what GET /api/popups/next said (204: nothing to show). */
async function signInAndWatchNext(page: Page, member: { email: string; password: string }) {
  const next = page.waitForResponse((r) => r.url().includes('/api/popups/next'));
  await signInViaUi(page, member);
  return (await next).status();
}

test.describe('popup campaigns', () => {
  test('an admin aims a popup with its own button at one employer, watching the preview; only that employer\'s member gets it, and the button opens the app screen', async ({
    browser,
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const tag = unique();
    const acmeName = `Acme ${tag}`;
    const acme = await registerViaApi(request, { company: acmeName });
    const other = await registerViaApi(request, { company: `Globex ${tag}` });
    const { context: adminContext, page: admin } = await adminPage(browser);
    await admin.goto('/admin/popups');
    await admin.getByRole('button', { name: 'Create Popup' }).click();
    const form = admin.getByRole('dialog', { name: 'Create New Popup' });
    const preview = form.getByTestId('popup-preview');

    // The preview starts from the defaults and follows the typing.
    await expect(preview).toContainText('Your title');
    await expect(preview).toContainText('Take Vital Scan');
    const title = `Prescriptions due ${tag}`;
    await form.getByLabel('Title').fill(title);
    await expect(preview).toContainText(title);
    await form.getByLabel('Message').fill('Your refill is ready to order.');
    await expect(preview).toContainText('Your refill is ready to order.');
    await form.getByLabel('Button label').fill('Refill your prescriptions');
    await expect(preview).toContainText('Refill your prescriptions');
    await expect(preview).not.toContainText('Take Vital Scan');

    // The destination: an app screen, by its name.
    await form.getByLabel('Destination', { exact: true }).click();
    await admin.getByRole('option', { name: 'Get Care: Prescriptions' }).click();
    await expect(form.getByText('The button opens Get Care: Prescriptions in the app.')).toBeVisible();

    // Each theme can be looked at; choosing one in the form shows that one.
    await expect(preview).toHaveAttribute('data-theme', 'purple');
    await form.getByRole('radio', { name: 'White' }).check();
    await expect(preview).toHaveAttribute('data-theme', 'white');
    await form.getByLabel('Theme', { exact: true }).click();
    await admin.getByRole('option', { name: 'Green', exact: true }).click();
    await expect(preview).toHaveAttribute('data-theme', 'green');
    // The phone is drawn at 390 px and scaled to the dialog.
    expect(await preview.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(402);

    await form.getByLabel('Start Date & Time').fill(localInput(new Date(Date.now() - 5 * 60_000)));
    await form.getByLabel('End Date & Time').fill(localInput(new Date(Date.now() + 86_400_000)));

    // The audience: one employer, found by typing and chosen with the keyboard.
    await expect(form.getByTestId('popup-reach')).toHaveText(/^Reaches about [\d,]+ members?$/);
    await form.getByRole('radio', { name: 'Chosen employers' }).check();
    await expect(form.getByText('Choose at least one employer, or choose All employers')).toBeVisible();
    const employers = form.getByRole('combobox', { name: 'Employers' });
    await employers.fill(acmeName);
    const option = form.getByRole('option', { name: acmeName });
    await expect(option).toBeVisible();
    await expect(employers).toHaveAttribute('aria-expanded', 'true');
    await employers.press('ArrowDown');
    await expect(employers).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
    await employers.press('Enter');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(form.getByRole('list', { name: 'Chosen employers' }).getByRole('button', { name: `Remove ${acmeName}` })).toBeVisible();
    // Escape closes the list, not the dialog; Enter did not submit the form.
    await employers.press('Escape');
    await expect(employers).toHaveAttribute('aria-expanded', 'false');
    await expect(form).toBeVisible();
    await expect(form.getByTestId('popup-reach')).toHaveText('Reaches about 1 member');
    // A second Escape clears the search; Backspace in the empty box removes the last chip;
    // choosing again brings it back.
    await employers.press('Escape');
    await expect(employers).toHaveValue('');
    await expect(form).toBeVisible();
    await employers.press('Backspace');
    await expect(form.getByRole('button', { name: `Remove ${acmeName}` })).toHaveCount(0);
    await employers.fill(acmeName);
    await form.getByRole('option', { name: acmeName }).click();
    await expect(form.getByRole('button', { name: `Remove ${acmeName}` })).toBeVisible();
    await expect(employers).toBeFocused();
    await employers.press('Escape');
    await expect(form.getByTestId('popup-reach')).toHaveText('Reaches about 1 member');

    // Limits left to the programme; the new popup would be inactive unless activated now.
    await expect(form.getByLabel('Daily limit')).toHaveAttribute('placeholder', 'Use programme setting');
    await expect(form.getByText('New popups are created inactive: members see nothing until you activate it.')).toBeVisible();
    await expectNoSeriousA11yViolations(admin);
    await form.getByRole('checkbox', { name: 'Activate now' }).check();
    await form.getByRole('button', { name: 'Create Popup' }).click();
    await expect(admin.getByText('Popup created successfully', { exact: true })).toBeVisible();
    await expect(form).toBeHidden();

    await admin.getByRole('searchbox', { name: 'Search popups' }).fill(title);
    const card = admin.getByTestId('popup-card').filter({ has: admin.getByRole('heading', { name: title, exact: true }) });
    await expect(card.getByTestId('popup-status')).toHaveText('Live');
    await expect(card.getByText('Refill your prescriptions')).toBeVisible();
    await expect(card.getByText('Get Care: Prescriptions')).toBeVisible();
    await expect(card.getByText('1 employer', { exact: true })).toBeVisible();
    await expect(card.getByText('0 Completed')).toHaveCSS('white-space', 'nowrap');
    await expectNoSeriousA11yViolations(admin);

    // The Acme member gets it, with its own button, which opens the app screen.
    expect(await signInAndWatchNext(page, acme)).toBe(200);
    const popup = page.getByRole('dialog', { name: title });
    await expect(popup).toHaveAttribute('data-theme', 'green');
    await popup.getByRole('button', { name: 'Refill your prescriptions' }).click();
    await expect(popup).toBeHidden();
    await expect(page).toHaveURL(/\/health\/get-care\/prescriptions$/);
    await expect(page.getByText('Action Completed', { exact: true })).toBeVisible();

    // A member of another employer does not.
    const otherContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const otherPage = await otherContext.newPage();
    expect(await signInAndWatchNext(otherPage, other)).toBe(204);
    await expect(otherPage.getByRole('dialog')).toHaveCount(0);
    await otherContext.close();

    // The results: one show, one completion, 100 %, an audience of one; table, chart and CSV.
    await card.getByRole('link', { name: `Results for ${title}` }).click();
    await expect(admin).toHaveURL(/\/admin\/popups\/[0-9a-f-]{36}$/);
    await expect(admin.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(admin.getByTestId('results-shows')).toHaveText('1');
    await expect(admin.getByTestId('results-snoozes')).toHaveText('0');
    await expect(admin.getByTestId('results-completions')).toHaveText('1');
    await expect(admin.getByTestId('results-rate')).toHaveText('100%');
    await expect(admin.getByTestId('results-audience')).toHaveText('1');
    const table = admin.getByRole('table', { name: 'Shows, snoozes and completions per day' });
    await expect(table.locator('tfoot').getByRole('cell')).toHaveText(['1', '0', '1']);
    // One row a day in the popup's zone (two if the test straddles midnight there).
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('time')?.getAttribute('datetime'), ...[...tr.querySelectorAll('td')].map((td) => td.textContent)].join(',')),
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) expect(row).toMatch(/^\d{4}-\d{2}-\d{2},\d+,\d+,\d+$/);
    await expect(admin.getByRole('img', { name: /Chart of shows, snoozes and completions per day/ }).locator('svg').first()).toBeVisible();
    const downloading = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`popup-results-prescriptions-due-${tag}.csv`);
    expect(readFileSync(await download.path(), 'utf8')).toBe(`date,shows,snoozes,completions\r\n${rows.map((r) => `${r}\r\n`).join('')}`);
    await expectNoSeriousA11yViolations(admin);

    // And back to the list.
    await admin.getByRole('link', { name: 'Back to Popups' }).click();
    await expect(admin).toHaveURL(/\/admin\/popups$/);
    await adminContext.close();
  });

  test('capping: with a daily limit of 1 and two live popups, the member sees only one that day', async ({ page, request }) => {
    const tag = unique();
    const employer = `Initech ${tag}`;
    const member = await registerViaApi(request, { company: employer });
    const audience = { companyIds: [await employerIdByName(request, employer)], enrolledOnly: false, withFamilyOnly: false };
    const first = await createViaApi(request, { title: `First ${tag}`, priority: 9, dailyCap: 1, audience, actionLabel: 'Open Health', actionTarget: '/health' });
    const second = await createViaApi(request, { title: `Second ${tag}`, priority: 5, dailyCap: 1, audience });

    // The better one first; its button leads into the app and completes it.
    expect(await signInAndWatchNext(page, member)).toBe(200);
    const popup = page.getByRole('dialog', { name: first.title });
    await popup.getByRole('button', { name: 'Open Health' }).click();
    await expect(page).toHaveURL(/\/health$/);
    await expect(page.getByText('Action Completed', { exact: true })).toBeVisible();

    // The second is live and for this member, but the day's one popup is used.
    expect(await signInAndWatchNext(page, member)).toBe(204);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Without its limit (the programme sets none here) the second shows: the cap was the reason.
    const { title, message, target, startAt, endAt } = second as unknown as Record<string, string>;
    const put = await request.put(`/api/admin/popups/${second.id}`, {
      headers: auth(),
      data: { title, message, target, startAt, endAt, isActive: true, priority: 5, audience, dailyCap: null },
    });
    expect(put.status(), await put.text()).toBe(200);
    expect(await signInAndWatchNext(page, member)).toBe(200);
    await expect(page.getByRole('dialog', { name: second.title })).toBeVisible();
  });

  test('the edit dialog prefills the action, audience and limits; the results page has its not-found and empty states', async ({ browser, request }) => {
    test.setTimeout(90_000);
    const tag = unique();
    const employer = `Hooli ${tag}`;
    await registerViaApi(request, { company: employer });
    const audience = { companyIds: [await employerIdByName(request, employer)], enrolledOnly: true, withFamilyOnly: false };
    const p = await createViaApi(request, {
      title: `Wellness ${tag}`,
      isActive: false,
      actionLabel: 'Start today',
      actionTarget: 'https://wellness.example.test/daily',
      audience,
      dailyCap: 2,
      quietHours: { start: '21:00', end: '07:00' },
    });
    const { context, page } = await adminPage(browser, 1280, 900);
    await page.goto('/admin/popups');
    await page.getByRole('searchbox', { name: 'Search popups' }).fill(p.title);
    const card = page.getByTestId('popup-card').filter({ has: page.getByRole('heading', { name: p.title, exact: true }) });
    await expect(card.getByText('wellness.example.test/daily')).toBeVisible();
    await card.getByRole('button', { name: `Edit ${p.title}` }).click();
    const form = page.getByRole('dialog', { name: 'Edit Popup' });
    await expect(form.getByLabel('Button label')).toHaveValue('Start today');
    await expect(form.getByLabel('Destination', { exact: true })).toHaveText('https://wellness.example.test/daily');
    await expect(form.getByRole('radio', { name: 'Chosen employers' })).toBeChecked();
    await expect(form.getByRole('button', { name: `Remove ${employer}` })).toBeVisible();
    await expect(form.getByRole('checkbox', { name: 'Only enrolled members' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Only members with family members' })).not.toBeChecked();
    // Nobody of that employer has signed in: nobody enrolled.
    await expect(form.getByTestId('popup-reach')).toHaveText('Reaches about 0 members');
    await expect(form.getByLabel('Daily limit')).toHaveValue('2');
    await expect(form.getByLabel('Quiet from')).toHaveValue('21:00');
    await expect(form.getByLabel('Quiet until')).toHaveValue('07:00');
    await expect(form.getByTestId('popup-preview')).toContainText('Start today');
    // Side by side on a wide screen: the preview sits to the right of the fields.
    const [fieldsBox, previewBox] = await Promise.all([form.getByLabel('Title').boundingBox(), form.getByTestId('popup-preview').boundingBox()]);
    expect(previewBox!.x).toBeGreaterThan(fieldsBox!.x + fieldsBox!.width);
    // A half-filled quiet hours is an error on the field, and the daily limit is checked too.
    await form.getByLabel('Quiet until').fill('');
    await form.getByLabel('Daily limit').fill('21');
    await form.getByRole('button', { name: 'Update Popup' }).click();
    await expect(form.getByText('Quiet hours must be times like 21:00')).toBeVisible();
    await expect(form.getByText('Daily limit must be a whole number from 1 to 20')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();

    // Results before anyone saw it: nothing recorded, no rate to speak of.
    await page.goto(`/admin/popups/${p.id}`);
    await expect(page.getByText('Nothing recorded yet. Figures appear here once members see this popup.')).toBeVisible();
    await expect(page.getByTestId('results-rate')).toHaveText('—');
    await expect(page.getByText('No shows yet')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A popup that does not exist, and an address that is not a popup id.
    await page.goto('/admin/popups/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Popup not found' })).toBeVisible();
    await page.goto('/admin/popups/not-a-popup');
    await expect(page.getByRole('heading', { name: 'Popup not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Popups' }).click();
    await expect(page).toHaveURL(/\/admin\/popups$/);
    await context.close();
  });
});
