import type { APIRequestContext, Page } from '@playwright/test';
import { e2eAdmin } from '../../playwright.config';
import { sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, newMemberData, test } from './support/fixtures';

const NOT_LISTED = "We couldn't match these details to your employer's eligibility list. Check them against your enrolment letter.";
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Opens the app as that administrator, already stepped up. */
async function openAsAdmin(page: Page, admin: { token: string; user: object }) {
  await page.addInitScript(
    ([token, user, email]: [string, string, string]) => {
      if (sessionStorage.getItem('e2e-seeded')) return;
      localStorage.setItem('auth_token', token);
      localStorage.setItem('auth_user', user);
      localStorage.setItem('admin_access', 'true');
      localStorage.setItem('admin_email', email);
      sessionStorage.setItem('e2e-seeded', '1');
    },
    [admin.token, JSON.stringify(admin.user), e2eAdmin.email] as [string, string, string],
  );
}

/** The run's shared elevated administrator (support/admin-mfa.ts). */
function elevatedAdmin() {
  const session = sharedElevatedAdmin();
  return { ...session, headers: { authorization: `Bearer ${session.token}` } };
}

async function newEmployer(request: APIRequestContext, name: string) {
  const res = await request.post('/api/admin/employers', { headers: elevatedAdmin().headers, data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).employer as { id: string; name: string };
}

function rosterFor(listed: { lhmpId: string; firstName: string; lastName: string }[], extra = '') {
  return `programme_id,first_name,last_name,email\n${listed.map((p) => `${p.lhmpId},${p.firstName},${p.lastName},`).join('\n')}\n${extra}`;
}

test('the admin adds an employer, checks a roster file (dry run), then imports it with a progress bar', async ({ page }) => {
  const name = `Roster Dialog ${unique()} Co`;
  const ids = [newMemberData().lhmpId, newMemberData().lhmpId];
  const csv = rosterFor(
    [
      { lhmpId: ids[0]!, firstName: 'Ana', lastName: 'Lima' },
      { lhmpId: ids[1]!, firstName: 'Ben', lastName: 'Okoro' },
    ],
    'LQ1,Bad,Row\n',
  );
  await openAsAdmin(page, elevatedAdmin());
  await page.goto('/admin/employers');
  await expect(page.getByTestId('employer-card').first()).toBeVisible();
  await page.getByRole('button', { name: 'Add employer' }).click();
  const add = page.getByRole('dialog', { name: 'Add employer' });
  await add.getByLabel('Employer name').fill('Аcme Health');
  await add.getByRole('button', { name: 'Add employer' }).click();
  await expect(add.getByText('Employer name must not mix Latin letters with Cyrillic or Greek letters')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await add.getByLabel('Employer name').fill(name);
  await add.getByRole('button', { name: 'Add employer' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/employers\/[0-9a-f-]{36}$/);
  const panel = page.getByRole('region', { name: 'Enrolment' });
  await expect(panel.getByRole('switch', { name: 'Only people on the roster can register' })).not.toBeChecked();
  await panel.getByRole('button', { name: 'Import roster' }).click();

  const dialog = page.getByRole('dialog', { name: 'Import roster' });
  await expect(dialog.getByLabel('Roster file (CSV)')).toBeFocused();
  await dialog.getByRole('button', { name: 'Check file' }).click();
  await expect(dialog.getByText('Choose a CSV file first')).toBeVisible();
  await expect(dialog.getByLabel('Roster file (CSV)')).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  await dialog.getByLabel('Roster file (CSV)').setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check file' }).click();
  const checked = dialog.getByRole('heading', { name: 'Dry run: nothing has changed yet' });
  await expect(checked).toBeFocused();
  await expect(dialog.getByRole('definition').filter({ hasText: /^2$/ }).first()).toBeVisible();
  await expect(dialog.getByText('Line 4: programme_id: LHMP ID must be exactly 7 characters')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Hold the import request back to see the progress bar, then let it go.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/roster?mode=import', async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
  const progress = dialog.getByRole('progressbar', { name: 'Import progress' });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('max', String(Buffer.byteLength(csv)));
  await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
  release();

  await expect(dialog.getByRole('heading', { name: 'Roster imported' })).toBeFocused();
  await expect(dialog.getByText('The employer is now in roster mode: only people on the roster can register.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('switch', { name: 'Only people on the roster can register' })).toBeChecked();
  await expect(panel.getByText('2 people on the roster')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Import roster' })).toBeFocused();
  await expectNoSeriousA11yViolations(page);
});

test('Add employer: a retry after the answer was lost sends the same Idempotency-Key and opens the one employer created', async ({ page }) => {
  const name = `Retry Employer ${unique()} Co`;
  const keys: (string | undefined)[] = [];
  let created: { id: string } | undefined;
  await page.route('**/api/admin/employers', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    keys.push(route.request().headers()['idempotency-key']);
    if (created) return route.continue();
    // The server creates the employer, but its answer never reaches the browser.
    const response = await route.fetch();
    expect(response.status()).toBe(201);
    created = ((await response.json()) as { employer: { id: string } }).employer;
    return route.abort('connectionreset');
  });
  await openAsAdmin(page, elevatedAdmin());
  await page.goto('/admin/employers');
  await page.getByRole('button', { name: 'Add employer' }).click();
  const add = page.getByRole('dialog', { name: 'Add employer' });
  await add.getByLabel('Employer name').fill(name);
  await add.getByRole('button', { name: 'Add employer' }).click();
  await expect(add.getByRole('alert')).toBeVisible();
  await add.getByRole('button', { name: 'Add employer' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  await expect(page).toHaveURL(new RegExp(`/admin/employers/${created!.id}$`));
});

test('on the registration form employers are suggested; a listed person registers, an unlisted one is told why', async ({ page, request }) => {
  const tag = unique();
  const employer = await newEmployer(request, `Harbourview ${tag} Co`);
  const listed = newMemberData({ firstName: 'José', lastName: 'Núñez' });
  const imported = await request.post(`/api/admin/employers/${employer.id}/roster?mode=import`, {
    headers: { ...elevatedAdmin().headers, 'content-type': 'text/csv' },
    data: Buffer.from(rosterFor([listed])),
  });
  expect(imported.status(), await imported.text()).toBe(200);

  await page.goto('/register');
  await page.getByLabel('First Name').fill('jose');
  await page.getByLabel('Last Name').fill('NUNEZ ');
  await page.getByLabel('Email').fill(listed.email);
  const employerField = page.getByRole('combobox', { name: 'Employer' });
  await employerField.pressSequentially(`harbourview ${tag}`.slice(0, 14), { delay: 20 });
  const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
  await expect(options.filter({ hasText: employer.name })).toBeVisible();
  await expect(employerField).toHaveAttribute('aria-expanded', 'true');
  await expectNoSeriousA11yViolations(page);
  await employerField.fill(`harbourview ${tag}`);
  await expect(options).toHaveCount(1);
  await employerField.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await employerField.press('Enter');
  await expect(employerField).toHaveValue(employer.name);
  await expect(employerField).toHaveAttribute('aria-expanded', 'false');

  // Not on the roster: the message under the programme ID.
  const other = newMemberData();
  await page.getByLabel('Program ID (LHMP ID)').fill(other.lhmpId);
  await page.getByLabel('Password', { exact: true }).fill(listed.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText(NOT_LISTED)).toBeVisible();
  await expect(page.getByLabel('Program ID (LHMP ID)')).toBeFocused();

  // The programme ID of the enrolment letter: names match without accents and case.
  await page.getByLabel('Program ID (LHMP ID)').fill(listed.lhmpId);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully! You can now sign in.')).toBeVisible();
});
