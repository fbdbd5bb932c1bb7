import type { APIRequestContext, Page } from '@playwright/test';
import { e2eAdmin } from '../../playwright.config';
import { claimAdminCode, claimPlainAdminSession, sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, type Member, registerViaApi, seedSession, signInViaStorage, test } from './support/fixtures';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface Roster {
  company: string;
  members: Member[];
  enrolled: Member[];
  withFamily: Member;
}

/**
 * One employer of 30 people (two pages of 25). The first six sign in (enrolled); the first of
 * them adds two family members.
 */
async function makeRoster(request: APIRequestContext): Promise<Roster> {
  const company = `E2E Admin Corp ${unique()}`;
  const members = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      registerViaApi(request, { company, firstName: `Ada${String(i + 1).padStart(2, '0')}`, lastName: `Roster${String(i + 1).padStart(2, '0')}` }),
    ),
  );
  const enrolled = members.slice(0, 6);
  const tokens = await Promise.all(
    enrolled.map(async (m) => {
      const res = await request.post('/api/auth/signin', { data: { email: m.email, password: m.password } });
      expect(res.status()).toBe(200);
      return (await res.json()).token as string;
    }),
  );
  for (const [firstName, relationship] of [
    ['Kim', 'Spouse'],
    ['Leo', 'Child'],
  ]) {
    const res = await request.post('/api/family-members', {
      headers: { authorization: `Bearer ${tokens[0]}` },
      data: { firstName, lastName: 'Roster01', dob: '2014-06-01', relationship },
    });
    expect(res.status()).toBe(201);
  }
  return { company, members, enrolled, withFamily: enrolled[0]! };
}

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const rows = (page: Page) => page.getByTestId('employee-row');

test.describe('Admin area', () => {
  test('a member is refused: no list, the Admin Access dialog denies them, and the API answers 403', async ({ page, request, member }) => {
    const { token } = await signInViaStorage(page, request, member);
    const api = await request.get('/api/admin/employers', { headers: { authorization: `Bearer ${token}` } });
    expect(api.status()).toBe(403);

    await page.goto('/admin/employers');
    await expect(page.getByRole('heading', { name: 'Employer Management', level: 1 })).toBeVisible();
    await expect(page.getByText('Admin access is required to view this page.')).toBeVisible();
    await expect(page.getByTestId('employer-card')).toHaveCount(0);
    await expect(page.getByRole('searchbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Sort order/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('main').getByRole('button', { name: 'Admin Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Access' });
    await dialog.getByLabel('Admin Email').fill(member.email);
    await dialog.getByLabel('Admin Password', { exact: true }).fill(member.password);
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    await expect(page.getByText('Admin Login Failed', { exact: true })).toBeVisible();
    await expect(page.getByText('Access denied - invalid admin credentials', { exact: true })).toBeVisible();
    await expect(page.getByTestId('employer-card')).toHaveCount(0);

    await page.goto('/admin/employees/00000000-0000-4000-8000-000000000000');
    await expect(page.getByText('Admin access is required to view this page.')).toBeVisible();
  });

  test('the admin elevates, searches an employer, opens it, filters, pages, and opens an employee with family', async ({ page, request }) => {
    test.setTimeout(120_000);
    const roster = await makeRoster(request);
    // A signed-in administrator who has not stepped up (a spare session: see support/admin-mfa.ts).
    await seedSession(page, claimPlainAdminSession());

    // Not yet stepped up: the screen offers the dialog, which elevates the session on the server.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/employers$/);
    await page.getByRole('main').getByRole('button', { name: 'Admin Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Access' });
    await dialog.getByLabel('Admin Email').fill(e2eAdmin.email);
    await dialog.getByLabel('Admin Password', { exact: true }).fill(e2eAdmin.password);
    await dialog.getByRole('button', { name: 'Access Dashboard' }).click();
    // Then the second factor (set up once for the run in admin-mfa.setup.ts): a code no other test uses.
    await dialog.getByLabel('Authentication code').fill(claimAdminCode().code);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Admin Access Granted', { exact: true })).toBeVisible();
    await expect(page.getByTestId('employer-card').first()).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Admin navigation' });
    await expect(nav.getByText('Current:')).toBeVisible();
    await expect(nav.getByRole('link', { name: /Employers/ })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: /Employers/ })).toContainText('Active');
    await expectNoSeriousA11yViolations(page);

    // Search lives in the URL.
    await page.getByRole('searchbox', { name: 'Search employers' }).fill(roster.company.toLowerCase());
    await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(roster.company.toLowerCase()).replace(/%20/g, '(\\+|%20)')}`));
    const card = page.getByTestId('employer-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(roster.company);
    await expect(card).toContainText('30 Employees');
    await expect(card).toContainText('6 Participants');
    await expect(card).toContainText('2 Family');
    await expect(page.getByText(`Showing 1 employer matching "${roster.company.toLowerCase()}"`)).toBeVisible();

    // The employer: stats, two pages of 25, page in the URL and the back button.
    await card.click();
    await expect(page.getByRole('heading', { name: roster.company, level: 1 })).toBeVisible();
    const stats = page.locator('dl').first();
    await expect(stats).toContainText('Employees30');
    await expect(stats).toContainText('Participants6');
    await expect(stats).toContainText('Family Members2');
    await expect(rows(page)).toHaveCount(25);
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect(page.getByText('(30 total)')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect(rows(page)).toHaveCount(5);
    await expect(rows(page).first()).toContainText('Ada26 Roster26');
    await page.goBack();
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect(rows(page).first()).toContainText('Ada01 Roster01');

    // Filter: Enrolled only fits on one page, so the pager disappears.
    await chooseOption(page, 'Status', 'Enrolled');
    await expect(page).toHaveURL(/status=enrolled/);
    await expect(rows(page)).toHaveCount(6);
    await expect(page.getByText(/Page \d+ of/)).toHaveCount(0);
    for (const row of await rows(page).all()) await expect(row.getByText('Enrolled', { exact: true })).toBeVisible();
    await expect(rows(page).first()).toContainText('Unverified');
    await expect(rows(page).first()).toContainText('2 Family');
    await chooseOption(page, 'Status', 'Verified');
    await expect(page.getByText('No employees found')).toBeVisible();
    await chooseOption(page, 'Status', 'All Status');
    await expect(rows(page)).toHaveCount(25);

    // Search an employee, then open them.
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('roster01');
    await expect(rows(page)).toHaveCount(1);
    await expect(page).toHaveURL(/search=roster01/);
    await rows(page).click();
    await expect(page).toHaveURL(new RegExp(`/admin/employees/${roster.withFamily.id}$`));
    await expect(page.getByRole('heading', { name: 'Ada01 Roster01', level: 1 })).toBeVisible();
    const account = page.getByRole('region', { name: 'Account Information' });
    await expect(account).toContainText(roster.withFamily.email);
    await expect(account).toContainText(roster.withFamily.lhmpId);
    await expect(account).toContainText(roster.company);
    await expect(account).toContainText('Unverified');
    await expect(account).toContainText('Enrolled');
    await expect(page.getByRole('region', { name: 'Activity' })).toContainText('Last Login');
    const family = page.getByRole('region', { name: 'Family Members' });
    await expect(family.getByTestId('family-member')).toHaveCount(2);
    await expect(family).toContainText('Kim Roster01');
    await expect(family).toContainText('Spouse');
    await expect(family).toContainText('Leo Roster01');
    await expect(family).toContainText('Child');
    await expectNoSeriousA11yViolations(page);

    // Back to the employer page keeps the search that led here.
    await page.goBack();
    await expect(page).toHaveURL(/search=roster01/);
    await expect(rows(page)).toHaveCount(1);

    // Someone who never signed in: not enrolled, no family.
    const newcomer = roster.members[29]!;
    await page.goto(`/admin/employees/${newcomer.id}`);
    await expect(page.getByRole('region', { name: 'Account Information' })).toContainText('Not Enrolled');
    await expect(page.getByText('No family members added')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Activity' })).toContainText('Never');
    await page.getByRole('link', { name: 'Back to Employer' }).first().click();
    await expect(page.getByRole('heading', { name: roster.company, level: 1 })).toBeVisible();
  });

  test('unknown records and an empty search show their states', async ({ page }) => {
    await seedSession(page, sharedElevatedAdmin());

    await page.goto('/admin/employers/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Employer not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Employers' })).toHaveCount(1);
    await page.goto('/admin/employees/not-an-id');
    await expect(page.getByRole('heading', { name: 'Employee not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Employers' })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('main').getByRole('link', { name: 'Back to Employers' }).click();
    await expect(page).toHaveURL(/\/admin\/employers$/);

    await page.goto(`/admin/employers?search=${encodeURIComponent(`no such employer ${unique()}`)}`);
    await expect(page.getByText('No employers found')).toBeVisible();
    await expect(page.getByText('Try adjusting your search terms')).toBeVisible();
    await expect(page.getByText(/^Showing 0 employers matching "no such employer/)).toBeVisible();

    // Sorting: changing the field resets the direction, the toggle flips it; both live in the URL.
    await page.goto('/admin/employers');
    await page.getByRole('button', { name: 'Sort order: ascending' }).click();
    await expect(page).toHaveURL(/sortOrder=desc/);
    await chooseOption(page, 'Sort by', 'Last Activity');
    await expect(page).toHaveURL(/sortBy=lastActivity/);
    await expect(page).not.toHaveURL(/sortOrder=desc/);
    await expect(page.getByRole('button', { name: 'Sort order: ascending' })).toBeVisible();
  });
});
