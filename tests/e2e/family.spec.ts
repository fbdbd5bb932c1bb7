import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signInViaStorage, test } from './support/fixtures';

let token = '';
test.beforeEach(async ({ page, request, member }) => {
  token = (await signInViaStorage(page, request, member)).token;
});

const familyList = (page: Page) => page.getByRole('list', { name: 'Family Members' });

async function addViaApi(request: APIRequestContext, data: { firstName: string; lastName: string; dob: string; relationship: string }) {
  const res = await request.post('/api/family-members', { data, headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(201);
  return res.json() as Promise<{ id: string }>;
}

async function chooseRelationship(page: Page, value: string) {
  await page.getByRole('combobox', { name: 'Relationship' }).click();
  await page.getByRole('option', { name: value, exact: true }).click();
}

async function fillForm(page: Page, values: { firstName: string; lastName: string; dob: string; relationship: string }) {
  await page.getByLabel('First Name').fill(values.firstName);
  await page.getByLabel('Last Name').fill(values.lastName);
  await page.getByLabel('Date of Birth').fill(values.dob);
  await chooseRelationship(page, values.relationship);
}

test('empty state, add with a busy Save, reload, edit prefilled, remove with confirmation', async ({ page }) => {
  await page.goto('/profile');
  await expect(page.getByText('No family members added yet')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Add Your First Family Member' }).click();
  await expect(page).toHaveURL('/profile/add-family');
  await expect(page.getByLabel('Date of Birth')).toHaveAttribute('type', 'date');

  await fillForm(page, { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' });
  // Hold the request to see the busy state: fields and buttons disabled, Save reads 'Saving...'.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/family-members', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expect(page.getByLabel('First Name')).toBeDisabled();
  release();
  await expect(page).toHaveURL('/profile');
  await page.unrouteAll();

  const list = familyList(page);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Jamie Rivera');
  await expect(list).toContainText('Child');
  await expect(list).toContainText('Born June 1, 2015');

  await page.reload();
  await expect(familyList(page)).toContainText('Jamie Rivera');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'Edit Jamie Rivera' }).click();
  await expect(page).toHaveURL(/\/profile\/family\/[0-9a-f-]{36}\/edit$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Family Member');
  await expect(page.getByLabel('First Name')).toHaveValue('Jamie');
  await expect(page.getByLabel('Last Name')).toHaveValue('Rivera');
  await expect(page.getByLabel('Date of Birth')).toHaveValue('2015-06-01');
  await expect(page.getByRole('combobox', { name: 'Relationship' })).toHaveText('Child');
  await page.getByLabel('First Name').fill('Jay');
  await chooseRelationship(page, 'Sibling');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL('/profile');
  await expect(familyList(page)).toContainText('Jay Rivera');
  await expect(familyList(page)).toContainText('Sibling');
  await page.reload();
  await expect(familyList(page)).toContainText('Jay Rivera');

  await page.getByRole('button', { name: 'Remove Jay Rivera' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove family member?' });
  await expect(confirm).toContainText('Remove Jay Rivera from your family members?');
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(familyList(page)).toContainText('Jay Rivera');
  await expect(page.getByRole('button', { name: 'Remove Jay Rivera' })).toBeFocused();

  await page.getByRole('button', { name: 'Remove Jay Rivera' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No family members added yet')).toBeVisible();
  // The Remove button is gone with the member: focus lands on the list's heading.
  await expect(page.getByRole('heading', { name: 'Family Members' })).toBeFocused();
  await page.reload();
  await expect(page.getByText('No family members added yet')).toBeVisible();
});

test('validation: each message under its field, cleared on edit; a future date is refused', async ({ page }) => {
  await page.goto('/profile/add-family');
  await page.getByRole('button', { name: 'Save' }).click();
  const messages = ['First name is required', 'Last name is required', 'Date of birth is required', 'Relationship is required'];
  for (const message of messages) await expect(page.getByText(message)).toBeVisible();
  await expect(page.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('First Name').fill('A');
  await expect(page.getByText('First name is required')).toBeHidden();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await chooseRelationship(page, 'Spouse');
  await expect(page.getByText('Relationship is required')).toBeHidden();

  await page.getByLabel('Last Name').fill('B');
  await page.getByLabel('Date of Birth').fill('2999-01-01');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Date of birth cannot be in the future')).toBeVisible();
  await page.getByLabel('Date of Birth').fill('1899-12-31');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Date of birth cannot be before 1900')).toBeVisible();
  await expect(page).toHaveURL('/profile/add-family');
  await page.getByLabel('First Name').fill('x'.repeat(60));
  await expect(page.getByLabel('First Name')).toHaveValue('x'.repeat(50));
});

test('server field errors land under the field; any other failure shows the general message', async ({ page }) => {
  await page.goto('/profile/add-family');
  await fillForm(page, { firstName: 'Sam', lastName: 'Lee', dob: '1990-01-01', relationship: 'Spouse' });
  await page.route('**/api/family-members', (route) =>
    route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Last name is required', code: 'validation', fields: { lastName: 'Last name is required' } }) }),
  );
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await page.unrouteAll();

  await page.route('**/api/family-members', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error","code":"internal"}' }));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to add family member. Please try again.' })).toBeVisible();
  await expect(page).toHaveURL('/profile/add-family');
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
});

test('Cancel and Go Back return to the profile without saving', async ({ page }) => {
  for (const name of ['Cancel', 'Go Back']) {
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Add family member' }).click();
    await expect(page).toHaveURL('/profile/add-family');
    await page.getByLabel('First Name').fill('Not saved');
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL('/profile');
  }
  await expect(page.getByText('No family members added yet')).toBeVisible();
});

test('members added elsewhere show after a reload, oldest first; at 20 the Add button is disabled', async ({ page, request }) => {
  for (let i = 1; i <= 20; i += 1) {
    await addViaApi(request, { firstName: `Kid${String(i).padStart(2, '0')}`, lastName: 'Many', dob: '2010-01-01', relationship: 'Child' });
  }
  await page.goto('/profile');
  const items = familyList(page).getByRole('listitem');
  await expect(items).toHaveCount(20);
  await expect(items.first()).toContainText('Kid01 Many');
  await expect(items.last()).toContainText('Kid20 Many');
  await expect(page.getByRole('button', { name: 'Add family member' })).toBeDisabled();
  await expect(page.getByText('You have added the most family members allowed (20).')).toBeVisible();

  // Going to the form anyway: the server's limit message shows instead of a vague failure.
  await page.goto('/profile/add-family');
  await fillForm(page, { firstName: 'One', lastName: 'Toomany', dob: '2012-02-02', relationship: 'Child' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You can add at most 20 family members' })).toBeVisible();
});

test('editing a family member that no longer exists says so', async ({ page, request }) => {
  const { id } = await addViaApi(request, { firstName: 'Gone', lastName: 'Soon', dob: '2000-01-01', relationship: 'Other' });
  const res = await request.delete(`/api/family-members/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(204);
  await page.goto(`/profile/family/${id}/edit`);
  await expect(page.getByText('This family member no longer exists.')).toBeVisible();
});
