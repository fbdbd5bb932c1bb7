import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { messages as en } from '../../src/shared/messages/index';
import { messages as es } from '../../src/shared/messages/es/index';
import { sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, registerViaApi, seedSession, signInViaStorage, test } from './support/fixtures';

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

test.describe('a browser that prefers Spanish', () => {
  test.use({ locale: 'es-US' });

  test('sign-in and registration are in Spanish, field messages included, and the switcher goes back to English', async ({ page }) => {
    await page.goto('/login');
    await expect(h1(page)).toHaveText(es.auth.signIn.title);
    expect(await htmlLang(page)).toBe('es');
    await page.getByRole('button', { name: es.auth.signIn.submit }).click();
    // The shared schema's message, shown in the page's language.
    await expect(page.getByText(es.auth.validation.emailInvalid)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: es.auth.signIn.toRegister }).click();
    await expect(h1(page)).toHaveText(es.auth.register.title);
    await expectNoSeriousA11yViolations(page);

    const switcher = page.getByRole('group', { name: es.common.menu.language });
    await expect(switcher.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
    await switcher.getByRole('button', { name: 'English' }).click();
    await expect(h1(page)).toHaveText(en.auth.register.title);
    expect(await htmlLang(page)).toBe('en');
    // The choice stays on the device.
    await page.reload();
    await expect(h1(page)).toHaveText(en.auth.register.title);
  });

  test('a signed-in member reads every member screen in Spanish, axe clean', async ({ page, request, member }) => {
    test.slow();
    await signInViaStorage(page, request, member);
    // Each screen's heading is the Spanish one (Home greets the member by name).
    const screens: [string, string, string][] = [
      ['/home', es.members.home.greetingNamed(member.firstName), en.members.home.greetingNamed(member.firstName)],
      ['/health', es.members.health.heading, en.members.health.heading],
      ['/health/activities', es.members.activities.title, en.members.activities.title],
      ['/health/get-care', es.members.getCare.title, en.members.getCare.title],
      ['/wealth', es.members.wealth.heading, en.members.wealth.heading],
      ['/information', es.members.information.heading, en.members.information.heading],
      ['/id-card', es.members.idCard.title, en.members.idCard.title],
      ['/profile', es.members.profile.title, en.members.profile.title],
      ['/profile/add-family', es.members.familyForm.addTitle, en.members.familyForm.addTitle],
    ];
    for (const [path, spanish, english] of screens) {
      await page.goto(path);
      await expect(h1(page), path).toBeVisible();
      expect(await htmlLang(page)).toBe('es');
      const heading = (await h1(page).textContent())?.trim();
      expect([spanish, english], path).toContain(heading);
      expect(heading, path).toBe(spanish);
      await expectNoSeriousA11yViolations(page);
    }
  });
});

test.describe('an administrator who prefers Spanish', () => {
  test.use({ locale: 'es-US' });

  test('the employer list, an employer, an employee and the popup console are in Spanish, axe clean', async ({ page, request }) => {
    test.slow();
    const employee = await registerViaApi(request, { company: `Empresa E2E ${Date.now().toString(36)}` });
    await seedSession(page, sharedElevatedAdmin());
    await page.addInitScript(() => localStorage.setItem('admin_access', 'true'));
    await page.goto('/admin/employers');
    await expect(h1(page)).toHaveText(es.admin.employers.title);
    expect(await htmlLang(page)).toBe('es');
    const card = page.getByTestId('employer-card').first();
    await expect(card).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await card.click();
    await expect(page).toHaveURL(/\/admin\/employers\/[0-9a-f-]+$/);
    await expect(h1(page)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // One employee's record, then their employer's roster dialog with a file checked (dry run).
    await page.goto(`/admin/employees/${employee.id}`);
    await expect(page.getByRole('heading', { name: es.admin.employee.accountInformation })).toBeVisible();
    await expect(page.getByText(es.admin.employee.notEnrolled)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: es.admin.employee.backToEmployer }).first().click();
    await expect(h1(page)).toHaveText(employee.company);
    const d = es.enrolment.importDialog;
    await page.getByRole('region', { name: es.enrolment.panel.title }).getByRole('button', { name: es.enrolment.panel.importRoster }).click();
    const dialog = page.getByRole('dialog', { name: d.title });
    await dialog.getByRole('button', { name: d.check }).click();
    await expect(dialog.getByText(d.fileRequired)).toBeVisible();
    const csv = `programme_id,first_name,last_name,email\n${employee.lhmpId},${employee.firstName},${employee.lastName},\nLQ1,Mala,Fila,\n`;
    await dialog.getByLabel(d.fileLabel).setInputFiles({ name: 'lista.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: d.check }).click();
    await expect(dialog.getByRole('heading', { name: d.checkedTitle })).toBeFocused();
    await expect(dialog.getByText(new RegExp(`^${d.line(3)}: `))).toBeVisible();
    await expect(dialog.getByRole('button', { name: d.import(1) })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: es.common.close }).click();
    await expect(dialog).toHaveCount(0);

    await page.goto('/admin/popups');
    await expect(h1(page)).toHaveText(es.popups.admin.title);
    await page.getByRole('button', { name: es.popups.admin.create }).first().click();
    await expect(page.getByRole('dialog', { name: es.popups.admin.createTitle })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test('the menu switches a signed-in member to Spanish, saved on the account for their other devices', async ({ page, request, member }) => {
  await signInViaStorage(page, request, member);
  await page.goto('/home');
  await expect(h1(page)).toHaveText(en.members.home.greetingNamed(member.firstName));
  await page.getByRole('button', { name: en.common.openMenu }).click();
  const saved = page.waitForResponse((res) => res.url().endsWith('/api/me/preferences') && res.request().method() === 'PATCH');
  await page.getByRole('menuitemradio', { name: 'Español' }).click();
  expect((await saved).status()).toBe(200);
  await expect(h1(page)).toHaveText(es.members.home.greetingNamed(member.firstName));
  expect(await htmlLang(page)).toBe('es');

  // Another device, English by default: the account's choice arrives with the sign-in.
  const other = await page.context().browser()!.newPage({ locale: 'en-US' });
  await other.goto('/login');
  await expect(h1(other)).toHaveText(en.auth.signIn.title);
  await other.getByLabel(en.auth.signIn.email).fill(member.email);
  await other.getByLabel(en.auth.signIn.password, { exact: true }).fill(member.password);
  await other.getByRole('button', { name: en.auth.signIn.submit }).click();
  await expect(h1(other)).toHaveText(es.members.home.greetingNamed(member.firstName));
  expect(await htmlLang(other)).toBe('es');
  await other.close();
});

/**
 * WCAG 1.4.10 reflow: 320 CSS px is a 1280 px screen at 400%; 195 CSS px is this 390 px phone
 * at 200% (1.4.4, text resized to 200% loses nothing). In Spanish, the longer language, with a
 * family member so the list rows are there too.
 */
for (const width of [320, 195]) {
  test.describe(`reflow at ${width} CSS px, in the longer language`, () => {
    test.use({ locale: 'es-US', viewport: { width, height: 640 } });

    test('no screen scrolls sideways: text wraps and nothing is cut off', async ({ page, request, member }) => {
      test.slow();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      for (const path of ['/login', '/register']) {
        await page.goto(path);
        await expect(h1(page), path).toBeVisible();
        expect(await overflow(), path).toBeLessThanOrEqual(0);
      }
      const { token } = await signInViaStorage(page, request, member);
      const child = { firstName: 'Guadalupe', lastName: member.lastName, dob: '2015-06-01', relationship: 'Child' };
      const added = await request.post('/api/family-members', { data: child, headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() } });
      expect(added.status()).toBe(201);
      for (const path of ['/home', '/health', '/health/get-care', '/wealth', '/information', '/id-card', '/profile', '/profile/add-family', '/profile/security']) {
        await page.goto(path);
        await expect(h1(page), path).toBeVisible();
        // The family member's rows, once loaded, are the widest part of these screens.
        if (path === '/profile' || path === '/id-card') await expect(page.getByText(`${child.firstName} ${child.lastName}`).first()).toBeVisible();
        expect(await overflow(), path).toBeLessThanOrEqual(0);
      }
    });

    test('no admin screen scrolls sideways either: lists, records, the roster dialog and the popup console', async ({ page, request }) => {
      test.slow();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const employee = await registerViaApi(request, { company: `Empresa con un nombre bastante largo ${Date.now().toString(36)}` });
      await seedSession(page, sharedElevatedAdmin());
      await page.addInitScript(() => localStorage.setItem('admin_access', 'true'));
      await page.goto('/admin/employers');
      await expect(page.getByTestId('employer-card').first()).toBeVisible();
      expect(await overflow(), '/admin/employers').toBeLessThanOrEqual(0);
      await page.goto(`/admin/employees/${employee.id}`);
      await expect(page.getByRole('heading', { name: es.admin.employee.accountInformation })).toBeVisible();
      expect(await overflow(), 'employee').toBeLessThanOrEqual(0);
      await page.getByRole('link', { name: es.admin.employee.backToEmployer }).first().click();
      await expect(h1(page)).toHaveText(employee.company);
      await expect(page.getByText(employee.email).first()).toBeVisible();
      expect(await overflow(), 'employer').toBeLessThanOrEqual(0);
      await page.getByRole('region', { name: es.enrolment.panel.title }).getByRole('button', { name: es.enrolment.panel.importRoster }).click();
      const dialog = page.getByRole('dialog', { name: es.enrolment.importDialog.title });
      await expect(dialog).toBeVisible();
      const dialogOverflow = await dialog.evaluate((el) => el.getBoundingClientRect().right - document.documentElement.clientWidth);
      expect(dialogOverflow, 'roster dialog').toBeLessThanOrEqual(0);
      await dialog.getByRole('button', { name: es.common.close }).click();
      await page.goto('/admin/popups');
      await expect(h1(page)).toHaveText(es.popups.admin.title);
      expect(await overflow(), '/admin/popups').toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: es.popups.admin.create }).first().click();
      const form = page.getByRole('dialog', { name: es.popups.admin.createTitle });
      await expect(form).toBeVisible();
      const formOverflow = await form.evaluate((el) => el.getBoundingClientRect().right - document.documentElement.clientWidth);
      expect(formOverflow, 'popup form').toBeLessThanOrEqual(0);
    });
  });
}
