import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signInViaStorage, test } from './support/fixtures';

/** External sites from playwright.config.ts; never loaded for real. */
const VITAL_SCAN_URL = 'https://vitalscan.example.test/start';
const WELLNESS_URL = 'https://wellness.example.test/daily';
const VIDEO_IDS = ['dQw4w9WgXcQ', 'aqz-KE-bpKQ'];

/** Any request to another site answers with a local stub page. */
async function stubExternalSites(context: BrowserContext) {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>stub</title><p>external stub</p>' }),
  );
}

test.beforeEach(async ({ page, context, request, member }) => {
  await stubExternalSites(context);
  await signInViaStorage(page, request, member);
});

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const tabBar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Checks a link opens the given external site in a new tab, then follows it into a (stubbed) popup. */
async function expectNewTab(page: Page, link: ReturnType<Page['getByRole']>, url: string) {
  await expect(link).toHaveAttribute('href', url);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  const popup = page.waitForEvent('popup');
  await link.click();
  const opened = await popup;
  await expect.poll(() => opened.url()).toBe(url);
  await opened.close();
}

const screens: { path: string; heading: string | RegExp; title?: string }[] = [
  { path: '/home', heading: /^Welcome back, / },
  { path: '/health', heading: 'Health Services' },
  { path: '/health/activities', heading: 'Health Activities' },
  { path: '/health/get-care', heading: 'Get Care' },
  { path: '/wealth', heading: 'Wealth Services' },
  { path: '/store', heading: 'Store' },
  { path: '/information', heading: 'Information Center' },
  { path: '/id-card', heading: 'I.D. Card' },
  { path: '/profile', heading: 'Profile' },
  { path: '/profile/add-family', heading: 'Add Family Member' },
];

const placeholders: { path: string; title: string; back: string }[] = [
  { path: '/health/activities/soar', title: 'SOAR', back: '/health/activities' },
  { path: '/health/activities/vital-scan', title: 'Vital Scan', back: '/health/activities' },
  { path: '/health/activities/plan-of-care', title: 'Plan of Care', back: '/health/activities' },
  { path: '/health/get-care/virtual-urgent-care', title: 'Virtual Urgent Care', back: '/health/get-care' },
  { path: '/health/get-care/virtual-primary-care', title: 'Virtual Primary Care', back: '/health/get-care' },
  { path: '/health/get-care/in-person-care', title: 'In Person Care', back: '/health/get-care' },
  { path: '/health/get-care/quest-select-labs', title: 'Quest Select Labs', back: '/health/get-care' },
  { path: '/health/get-care/virtual-therapy', title: 'Virtual Therapy', back: '/health/get-care' },
  { path: '/health/get-care/care-navigator', title: 'Care Navigator', back: '/health/get-care' },
  { path: '/health/get-care/prescriptions', title: 'Prescriptions', back: '/health/get-care' },
  { path: '/wealth/pera-admin-financial-wellness-center', title: 'Financial Wellness Center', back: '/wealth' },
  { path: '/wealth/financial-guidance-system', title: 'Financial Guidance System', back: '/wealth' },
  { path: '/store', title: 'Store', back: '/home' },
  { path: '/information/terms', title: 'Terms of Service', back: '/information' },
  { path: '/information/privacy', title: 'Privacy Policy', back: '/information' },
];


/**
 * Serves /api/config with some fields replaced. The real answer is read once up front: a
 * route.fetch() inside the handler fails with "Response has been disposed" when the app
 * cancels that request (a re-render aborting its query) before the handler reads the body.
 */
async function withConfig(page: Page, overrides: Record<string, unknown>) {
  const config = (await (await page.request.get('/api/config')).json()) as Record<string, unknown>;
  await page.route('**/api/config', (route) => route.fulfill({ json: { ...config, ...overrides } }));
}

test.describe('every member screen', () => {
  for (const screen of screens) {
    test(`${screen.path} renders with the tab bar and no serious axe violations`, async ({ page }) => {
      await page.goto(screen.path);
      await expect(h1(page)).toHaveText(screen.heading);
      await expect(tabBar(page)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  }

  // One template behind all of them (app/member-placeholder.tsx): axe once, then every route's
  // title, text and both ways out, moving inside the app as a member would.
  test('every placeholder: template, Coming Soon, Go Back to its parent, Home', async ({ page }) => {
    // Fifteen screens, four moves each: three times the time of a one-screen test.
    test.slow();
    await page.goto(placeholders[0]!.path);
    await expect(h1(page)).toHaveText(placeholders[0]!.title);
    await expectNoSeriousA11yViolations(page);
    for (const p of placeholders) {
      await page.goto(p.path);
      await expect(h1(page), p.path).toHaveText(p.title);
      await expect(page.getByText('This feature is currently under development and will be available soon.')).toBeVisible();
      if (p.path === '/store') {
        await expect(page.getByText('Coming Soon', { exact: true })).toBeVisible();
      } else if (!p.path.startsWith('/information/')) {
        await expect(page.getByRole('heading', { name: 'Coming Soon' })).toBeVisible();
        expect(await page.getByRole('listitem').count(), p.path).toBeGreaterThan(0);
      }
      await page.getByRole('link', { name: 'Go Back' }).click();
      await expect(page, p.path).toHaveURL(p.back);
      await page.goBack();
      await expect(h1(page), p.path).toHaveText(p.title);
      await page.getByRole('link', { name: 'Home', exact: true }).click();
      await expect(page, p.path).toHaveURL('/home');
    }
  });
});

test.describe('home', () => {
  test('greets the member and shows Quick Access, both cards, the voice block and the hint', async ({ page, member }) => {
    await page.goto('/home');
    await expect(h1(page)).toHaveText(`Welcome back, ${member.firstName}`);
    await expect(page.getByRole('region', { name: 'Quick Access' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Health', exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Wealth', exact: true })).toBeVisible();
    await expect(page.getByTestId('voice-search')).toBeVisible();
    await expect(page.getByText(/^Tip: open Quick Access/)).toBeVisible();
  });

  test('Quick Access Health lists the 10 health shortcuts; Vital Scan is the external site in a new tab', async ({ page }) => {
    await page.goto('/home');
    const health = page.getByRole('button', { name: 'Health', exact: true });
    await health.click();
    await expect(health).toHaveAttribute('aria-expanded', 'true');
    const overlay = page.getByRole('region', { name: 'Health Services' });
    await expect(overlay).toBeVisible();
    const names = [
      'Virtual Urgent Care',
      'Virtual Primary Care',
      'In Person Care',
      'Quest Select Labs',
      'Virtual Therapy',
      'Care Navigator',
      'Prescriptions',
      'SOAR',
      'Vital Scan',
      'Plan of Care',
    ];
    await expect(overlay.getByRole('link')).toHaveCount(10);
    for (const name of names) await expect(overlay.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectNewTab(page, overlay.getByRole('link', { name: /^Vital Scan/ }), VITAL_SCAN_URL);
    // Choosing a shortcut closes the overlay.
    await expect(overlay).toBeHidden();
  });

  const internal: [string, string, string][] = [
    ['Health', 'Virtual Urgent Care', '/health/get-care/virtual-urgent-care'],
    ['Health', 'Virtual Primary Care', '/health/get-care/virtual-primary-care'],
    ['Health', 'In Person Care', '/health/get-care/in-person-care'],
    ['Health', 'Quest Select Labs', '/health/get-care/quest-select-labs'],
    ['Health', 'Virtual Therapy', '/health/get-care/virtual-therapy'],
    ['Health', 'Care Navigator', '/health/get-care/care-navigator'],
    ['Health', 'Prescriptions', '/health/get-care/prescriptions'],
    ['Health', 'SOAR', '/health/activities/soar'],
    ['Health', 'Plan of Care', '/health/activities/plan-of-care'],
    ['Wealth', 'Financial Wellness Center', '/wealth/pera-admin-financial-wellness-center'],
    ['Wealth', 'Financial Guidance System', '/wealth/financial-guidance-system'],
  ];
  test('every in-app shortcut navigates and closes the overlay', async ({ page }) => {
    test.slow(); // eleven screens, each opened from Home
    for (const [group, name, path] of internal) {
      await page.goto('/home');
      await page.getByRole('button', { name: group, exact: true }).click();
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(path);
      await expect(h1(page)).toHaveText(name);
    }
  });

  test('overlays toggle: same button closes, the other switches, Close and Escape close', async ({ page }) => {
    await page.goto('/home');
    const health = page.getByRole('button', { name: 'Health', exact: true });
    const wealth = page.getByRole('button', { name: 'Wealth', exact: true });
    const healthOverlay = page.getByRole('region', { name: 'Health Services' });
    const wealthOverlay = page.getByRole('region', { name: 'Wealth Services' });

    await health.click();
    await expect(healthOverlay).toBeVisible();
    await health.click();
    await expect(healthOverlay).toBeHidden();
    await expect(health).toHaveAttribute('aria-expanded', 'false');

    await health.click();
    await wealth.click();
    await expect(healthOverlay).toBeHidden();
    await expect(wealthOverlay).toBeVisible();
    await expect(wealthOverlay.getByRole('link')).toHaveCount(2);
    await wealthOverlay.getByRole('button', { name: 'Close' }).click();
    await expect(wealthOverlay).toBeHidden();
    await expect(wealth).toBeFocused();

    await wealth.click();
    await page.keyboard.press('Escape');
    await expect(wealthOverlay).toBeHidden();
  });

  test('card buttons and card bodies lead to their screens; the wellness programme opens in a new tab', async ({ page }) => {
    await page.goto('/home');
    const healthCard = page.getByRole('region', { name: 'Health', exact: true });
    const wealthCard = page.getByRole('region', { name: 'Wealth', exact: true });
    await expectNewTab(page, healthCard.getByRole('link', { name: /Daily Wellness Program/ }), WELLNESS_URL);
    await expect(page).toHaveURL('/home');

    await healthCard.getByRole('link', { name: 'Explore Health Services' }).click();
    await expect(page).toHaveURL('/health');
    await page.goto('/home');
    await wealthCard.getByRole('link', { name: 'Explore Wealth Services' }).click();
    await expect(page).toHaveURL('/wealth');
    await page.goto('/home');
    await wealthCard.getByRole('link', { name: 'Your Store' }).click();
    await expect(page).toHaveURL('/store');

    await page.goto('/home');
    await healthCard.getByText('Virtual and in-person care').click();
    await expect(page).toHaveURL('/health');
    await page.goto('/home');
    await wealthCard.getByRole('heading', { name: 'Wealth' }).click();
    await expect(page).toHaveURL('/wealth');
  });
});

test.describe('health, wealth and information screens', () => {
  test('Health: two cards, the HIPAA note, Home and Go Back both home', async ({ page }) => {
    await page.goto('/health');
    await expect(page.getByRole('note')).toContainText('HIPAA');
    await page.getByRole('main').getByRole('link', { name: /^Health Activities/ }).click();
    await expect(page).toHaveURL('/health/activities');
    await page.goto('/health');
    await page.getByRole('main').getByRole('link', { name: /^Get Care/ }).click();
    await expect(page).toHaveURL('/health/get-care');
    for (const name of ['Home', 'Go Back']) {
      await page.goto('/health');
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL('/home');
    }
  });

  test('Health Activities: wellness and Vital Scan open their sites in a new tab; Plan of Care only logs; Go Back to Health', async ({ page }) => {
    await page.goto('/health/activities');
    const main = page.getByRole('main');
    await expectNewTab(page, main.getByRole('link', { name: /^Daily Wellness Program/ }), WELLNESS_URL);
    await expectNewTab(page, main.getByRole('link', { name: /^Vital Scan/ }), VITAL_SCAN_URL);
    const logged = page.waitForEvent('console', (msg) => msg.text() === 'Plan of Care selected');
    await main.getByRole('button', { name: /^Plan of Care/ }).click();
    await logged;
    await expect(page).toHaveURL('/health/activities');
    await page.goto('/health/activities');
    await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveCount(0);
    await page.getByRole('link', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/health');
  });

  test('Get Care: seven buttons to their sub-routes, Home, Go Back to Health', async ({ page }) => {
    const options: [string, string][] = [
      ['Virtual Urgent Care', 'virtual-urgent-care'],
      ['Virtual Primary Care', 'virtual-primary-care'],
      ['In Person Care', 'in-person-care'],
      ['Quest Select Labs', 'quest-select-labs'],
      ['Virtual Therapy', 'virtual-therapy'],
      ['Care Navigator', 'care-navigator'],
      ['Prescriptions', 'prescriptions'],
    ];
    await page.goto('/health/get-care');
    await expect(page.getByRole('main').getByRole('link')).toHaveCount(7);
    for (const [name, slug] of options) {
      await page.goto('/health/get-care');
      await page.getByRole('main').getByRole('link', { name: new RegExp(`^${name}`) }).click();
      await expect(page).toHaveURL(`/health/get-care/${slug}`);
    }
    await page.goto('/health/get-care');
    await page.getByRole('link', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/health');
    await page.goto('/health/get-care');
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL('/home');
  });

  test('Wealth: both cards lead to their screens; Home and Go Back home', async ({ page }) => {
    await page.goto('/wealth');
    await expect(page.getByRole('heading', { name: 'Financial Wellness Center' })).toBeVisible();
    await page.getByRole('link', { name: 'Access Wellness Center' }).click();
    await expect(page).toHaveURL('/wealth/pera-admin-financial-wellness-center');
    await page.goto('/wealth');
    await expect(page.getByRole('heading', { name: 'Financial Guidance System' })).toBeVisible();
    await page.getByRole('link', { name: 'Get Guidance' }).click();
    await expect(page).toHaveURL('/wealth/financial-guidance-system');
    for (const name of ['Home', 'Go Back']) {
      await page.goto('/wealth');
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL('/home');
    }
  });

  test('Information: Terms, Privacy, last updated today, Go Back home', async ({ page }) => {
    await page.goto('/information');
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }));
    await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
    await page.getByRole('link', { name: /^Terms of Service/ }).click();
    await expect(page).toHaveURL('/information/terms');
    await page.goto('/information');
    await page.getByRole('link', { name: /^Privacy Policy/ }).click();
    await expect(page).toHaveURL('/information/privacy');
    await page.goto('/information');
    await page.getByRole('link', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/home');
  });

  test('ID card: the member’s name, company and LHMP ID from the server, and the HIPAA note', async ({ page, member }) => {
    await page.goto('/id-card');
    const card = page.getByRole('region', { name: 'Member ID card' });
    await expect(card).toContainText(`${member.firstName} ${member.lastName}`);
    await expect(card).toContainText(member.company);
    await expect(card).toContainText(member.lhmpId.toUpperCase());
    await expect(page.getByRole('note')).toContainText('protected health information');
  });

  test('Profile: real first name, last name, company and LHMP ID; Go Back home', async ({ page, member }) => {
    await page.goto('/profile');
    const details = page.getByRole('region', { name: 'Your Details' });
    for (const value of [member.firstName, member.lastName, member.company, member.lhmpId.toUpperCase()]) {
      await expect(details.getByText(value, { exact: true })).toBeVisible();
    }
    await page.getByRole('link', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/home');
  });
});

test.describe('bottom tab bar', () => {
  const cases: [string, string | null][] = [
    ['/home', null],
    ['/health', null],
    ['/health/activities', null],
    ['/health/activities/soar', null],
    ['/health/activities/vital-scan', 'Vital Scan'],
    ['/health/get-care', 'Get Care'],
    ['/health/get-care/prescriptions', 'Get Care'],
    ['/health/get-care/care-navigator', 'Get Care'],
    ['/id-card', 'I.D. Card'],
    ['/profile', null],
  ];
  for (const [path, active] of cases) {
    test(`${path}: ${active ?? 'no tab'} active`, async ({ page }) => {
      await page.goto(path);
      const bar = tabBar(page);
      for (const name of ['Vital Scan', 'Get Care', 'I.D. Card']) {
        const tab = bar.getByRole('link', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
        await expect(tab).toHaveAttribute('data-state', name === active ? 'active' : 'inactive');
        if (name === active) await expect(tab).toHaveAttribute('aria-current', /page|true/);
        else await expect(tab).not.toHaveAttribute('aria-current', /.+/);
      }
    });
  }

  test('Vital Scan opens the external site in a new window; Get Care and I.D. Card navigate', async ({ page }) => {
    await page.goto('/home');
    const bar = tabBar(page);
    await expectNewTab(page, bar.getByRole('link', { name: /^Vital Scan/ }), VITAL_SCAN_URL);
    await bar.getByRole('link', { name: 'Get Care' }).click();
    await expect(page).toHaveURL('/health/get-care');
    await bar.getByRole('link', { name: 'I.D. Card' }).click();
    await expect(page).toHaveURL('/id-card');
  });
});

test.describe('header dialogs', () => {
  test('Help lists the three videos; each opens a placeholder video dialog that Close (or the X) closes; focus returns to the menu button', async ({ page }) => {
    await page.goto('/home');
    const videos = ['Getting Started', 'Health Activities: SOAR, Vital Scan and Plan of Care', 'Wealth Center'];
    for (const [i, title] of videos.entries()) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('menuitem', { name: 'Help' }).click();
      const help = page.getByRole('dialog', { name: 'Help' });
      await expect(help).toBeVisible();
      for (const name of videos) await expect(help.getByRole('button', { name })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await help.getByRole('button', { name: title }).click();
      const video = page.getByRole('dialog', { name: title });
      await expect(video).toBeVisible();
      await expect(video.getByText('This video will be available soon.')).toBeVisible();
      // The corner X and the Close button, as on the programme video player.
      await expect(video.getByRole('button', { name: 'Close' })).toHaveCount(2);
      await video.getByRole('button', { name: 'Close' }).nth(i % 2 === 0 ? 1 : 0).click();
      await expect(video).toBeHidden();
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    }
  });

  test('the second header variant embeds the two programme videos (privacy-friendly player)', async ({ page }) => {
    await page.goto('/home');
    const titles = ['Welcome to Your Program', 'Making the Most of Your Benefits'];
    for (const [i, title] of titles.entries()) {
      await page.getByRole('button', { name: 'Program videos' }).click();
      const list = page.getByRole('dialog', { name: 'Program Resources' });
      await expect(list.getByRole('button')).toHaveCount(3); // two videos and the corner close
      await list.getByRole('button', { name: title }).click();
      const player = page.getByRole('dialog', { name: title });
      const frame = player.locator('iframe');
      await expect(frame).toHaveAttribute('src', `https://www.youtube-nocookie.com/embed/${VIDEO_IDS[i]}?rel=0`);
      await expect(frame).toHaveAttribute('title', `Video player: ${title}`);
      await expect(page.frameLocator(`iframe[title="Video player: ${title}"]`).getByText('external stub')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await player.getByRole('button', { name: 'Close' }).last().click();
      await expect(player).toBeHidden();
      await expect(page.getByRole('button', { name: 'Program videos' })).toBeFocused();
    }
  });

  test('without configured programme videos the control says there are none', async ({ page }) => {
    await withConfig(page, { helpVideoIds: [] });
    await page.goto('/home');
    await page.getByRole('button', { name: 'Program videos' }).click();
    const list = page.getByRole('dialog', { name: 'Program Resources' });
    await expect(list.getByText('No programme videos are available right now.')).toBeVisible();
    await expect(list.getByText('Two short videos about your programme.')).toHaveCount(0);
    await expect(list.getByRole('button')).toHaveCount(1); // only the corner close
    await expectNoSeriousA11yViolations(page);
  });

  test('an external link whose address is not configured looks and acts disabled', async ({ page }) => {
    await withConfig(page, { vitalScanUrl: '' });
    await page.goto('/home');
    const tab = page.getByRole('navigation').getByRole('link', { name: /Vital Scan/ });
    await expect(tab).toHaveAttribute('aria-disabled', 'true');
    await expect(tab).not.toHaveAttribute('href');
    await expect(tab).toHaveCSS('opacity', '0.6');
  });

  test('Admin Access opened from the menu: Cancel returns focus to the menu button; labels stay on one line', async ({ page }) => {
    await page.goto('/home');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin Access' });
    await expect(dialog).toBeVisible();
    for (const button of await dialog.getByRole('button').all()) {
      const { height, lineHeight } = await button.evaluate((el) => ({ height: el.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(el).lineHeight) }));
      expect(height).toBeLessThan(48 + lineHeight / 2);
    }
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });

  test('the menu leads to Profile and Information', async ({ page }) => {
    await page.goto('/home');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL('/profile');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Information' }).click();
    await expect(page).toHaveURL('/information');
  });
});

test.describe('focus stays in view (WCAG 2.4.11)', () => {
  /** The focused element is clear of the sticky header above and the actions and tab bar below. */
  async function expectClearOfStickyBars(page: Page) {
    const box = await page.evaluate(() => {
      const el = document.activeElement!.getBoundingClientRect();
      const header = document.querySelector('header')!.getBoundingClientRect();
      const below = [...document.querySelectorAll('[data-page-actions], nav[data-tab-bar]')].map((e) => e.getBoundingClientRect().top);
      return { top: el.top, bottom: el.bottom, headerBottom: header.bottom, barsTop: Math.min(...below) };
    });
    expect(box.top).toBeGreaterThanOrEqual(box.headerBottom);
    expect(box.bottom).toBeLessThanOrEqual(box.barsTop);
  }

  test('tabbing through Get Care and Home never leaves the focused item under a sticky bar', async ({ page }) => {
    await page.goto('/health/get-care');
    await expect(h1(page)).toHaveText('Get Care');
    for (const name of ['Care Navigator', 'Prescriptions']) {
      const link = page.getByRole('main').getByRole('link', { name: new RegExp(`^${name}`) });
      for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
      await expect(link).toBeFocused();
      await expectClearOfStickyBars(page);
    }
    // Backwards from the bottom: the first tile stops below the header.
    const first = page.getByRole('main').getByRole('link', { name: /^Virtual Urgent Care/ });
    for (let i = 0; i < 30 && !(await first.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Shift+Tab');
    await expect(first).toBeFocused();
    await expectClearOfStickyBars(page);

    await page.goto('/home');
    const store = page.getByRole('link', { name: 'Your Store' });
    await expect(store).toBeVisible();
    for (let i = 0; i < 40 && !(await store.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
    await expect(store).toBeFocused();
    await expectClearOfStickyBars(page);
  });
});

test.describe('desktop width', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test('keeps the single narrow column', async ({ page }) => {
    for (const path of ['/home', '/profile', '/health/get-care']) {
      await page.goto(path);
      await expect(h1(page)).toBeVisible();
      const box = await page.getByRole('main').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(448);
      expect(box!.x).toBeGreaterThan(300);
    }
  });
});
