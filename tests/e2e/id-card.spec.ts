import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { employerIdByName, sharedElevatedAdmin } from './support/admin-mfa';
import { type Member, expect, expectNoSeriousA11yViolations, registerViaApi, signInViaStorage, test } from './support/fixtures';

/** The ID card screens at phone size (issue 11): cards, turning, phones, PDF, keeping them, /verify-card. */
test.use({ viewport: { width: 390, height: 844 } });

const admin = () => ({ authorization: `Bearer ${sharedElevatedAdmin().token}` });

const DETAILS = {
  planName: 'Gold PPO',
  groupNumber: 'GRP-1042',
  rxBin: '610014',
  rxPcn: 'MEDDPRIME',
  rxGroup: 'RXWH01',
  memberServicesPhone: '+1 (800) 555-0100',
  nurseLinePhone: '800-555-0199',
  payerId: '87726',
  backNote: 'Show this card at every visit. Claims: PO Box 1000, Springfield.',
};

/** A member of an employer of their own, with card details set by the admin and one child. */
async function memberWithFamily(request: APIRequestContext) {
  const company = `Card Employer ${randomUUID().slice(0, 8)}`;
  const member = await registerViaApi(request, { company });
  const put = await request.put(`/api/admin/employers/${await employerIdByName(request, company)}/card`, { headers: admin(), data: DETAILS });
  expect(put.status(), await put.text()).toBe(200);
  const signin = await request.post('/api/auth/signin', { data: { email: member.email, password: member.password } });
  const { token } = (await signin.json()) as { token: string };
  const child = { firstName: 'Sam', lastName: member.lastName, dob: '2015-06-01', relationship: 'Child' };
  const added = await request.post('/api/family-members', { data: child, headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() } });
  expect(added.status()).toBe(201);
  return { member, child: { ...child, name: `${child.firstName} ${child.lastName}` } };
}

const memberCard = (page: Page) => page.getByRole('region', { name: 'Member ID card' });
const childCard = (page: Page, name: string) => page.getByRole('region', { name: `ID card for ${name}` });
const fullName = (m: Member) => `${m.firstName} ${m.lastName}`;

async function tokenOf(page: Page, name: string) {
  const token = await page.locator(`[data-card-token][aria-label*="${name}"]`).first().getAttribute('data-card-token');
  expect(token).toMatch(/^WHC1\./);
  return token!;
}

test('the member and a family member each have a card, front and back, with tappable phones', async ({ page, request }) => {
  const { member, child } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('I.D. Card');

  const mine = memberCard(page);
  for (const text of [fullName(member), member.lhmpId.toUpperCase(), member.company, 'Gold PPO', 'GRP-1042', '610014', 'MEDDPRIME', 'RXWH01']) {
    await expect(mine.locator('[data-face="front"]')).toContainText(text);
  }
  await expect(mine.getByRole('img', { name: /QR code/ })).toBeVisible();

  const theirs = childCard(page, child.name);
  await expect(theirs.locator('[data-face="front"]')).toContainText('Child');
  await expect(theirs.locator('[data-face="front"]')).toContainText('Jun 1, 2015');
  await expect(theirs.locator('[data-face="front"]')).toContainText(fullName(member));
  await expect(theirs.locator('[data-face="front"]')).toContainText('Gold PPO');

  // The back is turned away: its links are not reachable until the card is turned.
  await expect(mine.getByRole('link', { name: '+1 (800) 555-0100' })).toHaveCount(0);
  await mine.getByRole('button', { name: 'Show back' }).click();
  await expect(mine.getByText('Showing the back of the card for')).toHaveCount(1);
  const services = mine.getByRole('link', { name: '+1 (800) 555-0100' });
  await expect(services).toBeVisible();
  await expect(services).toHaveAttribute('href', 'tel:+18005550100');
  await expect(mine.getByRole('link', { name: '800-555-0199' })).toHaveAttribute('href', 'tel:8005550199');
  await expect(mine.locator('[data-face="back"]')).toContainText('87726');
  await expect(mine.locator('[data-face="back"]')).toContainText('Show this card at every visit.');
  await expect(mine.locator('[data-face="back"]')).toContainText('HIPAA');
  await expect(mine.getByRole('img', { name: /QR code/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await mine.getByRole('button', { name: 'Show front' }).click();
  await expect(mine.getByText(`Showing the front of the card for ${fullName(member)}`)).toHaveCount(1);
  await expect(mine.getByRole('img', { name: /QR code/ })).toBeVisible();
  // The family member's card turns on its own.
  await theirs.getByRole('button', { name: 'Show back' }).click();
  await expect(theirs.getByRole('link', { name: '+1 (800) 555-0100' })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Show back' })).toBeVisible();
});

test('Download gives a two-page wallet-size PDF', async ({ page, request }) => {
  const { member } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  const downloaded = page.waitForEvent('download');
  await memberCard(page).getByRole('button', { name: /^Download/ }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^id-card-.+\.pdf$/);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = pdf.toString('latin1');
  expect(text.match(/\/Type \/Page\b(?!s)/g)).toHaveLength(2);
  // 3.375 x 2.125 in = 243 x 153 pt.
  expect(text.match(/\/MediaBox \[0 0 243\.?0* 153\.?0*\]/g)).toHaveLength(2);
  expect(text).toContain('tel:+18005550100');
});

test('/verify-card, signed out, accepts the card’s QR payload and refuses a changed one', async ({ page, request, browser }) => {
  const { member, child } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  const token = await tokenOf(page, fullName(member));
  const childToken = await tokenOf(page, child.name);

  const desk = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const front = await desk.newPage();
  await front.goto('/verify-card');
  await expect(front.getByRole('heading', { level: 1 })).toHaveText('Check an ID card');
  await expectNoSeriousA11yViolations(front);
  const field = front.getByLabel('Card code');
  const result = front.getByRole('status').filter({ hasText: /valid/i });

  await field.fill(token);
  await front.getByRole('button', { name: 'Check card' }).click();
  const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  await expect(result).toContainText(`Valid card for ${fullName(member)}, ${member.company}, issued ${today}`);

  await field.fill(childToken);
  await front.getByRole('button', { name: 'Check card' }).click();
  await expect(result).toContainText(`Valid card for ${child.name}, ${member.company}`);
  await expect(result).toContainText('Relationship: Child');

  // Another name in the claims, the original signature: the signature no longer matches.
  const [prefix, claims, signature] = token.split('.') as [string, string, string];
  const json = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, string>;
  const forged = `${prefix}.${Buffer.from(JSON.stringify({ ...json, n: 'Mallory Impostor' })).toString('base64url')}.${signature}`;
  await field.fill(forged);
  await front.getByRole('button', { name: 'Check card' }).click();
  await expect(result).toContainText('Not valid');
  await expect(result).toContainText('changed after it was issued');

  await field.fill('not a card');
  await front.getByRole('button', { name: 'Check card' }).click();
  await expect(result).toContainText('Not valid');
  await expect(result).toContainText('not a programme ID card code');
  await expectNoSeriousA11yViolations(front);

  // Once visited, the key is remembered: checking works with the network cut.
  await desk.setOffline(true);
  await field.fill(token);
  await front.getByRole('button', { name: 'Check card' }).click();
  await expect(result).toContainText(`Valid card for ${fullName(member)}`);
  await desk.close();
});

test('Share hands the share sheet a PNG of the card where the browser can share files', async ({ page, request }) => {
  // Chromium on Linux has no share sheet: a stand-in records what the app hands it.
  await page.addInitScript(() => {
    const w = window as unknown as { shared: unknown[] };
    w.shared = [];
    Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value: (data?: ShareData) => Boolean(data?.files?.length) && data!.files!.every((f) => f.type === 'image/png') });
    Object.defineProperty(Navigator.prototype, 'share', {
      configurable: true,
      value: async (data: ShareData) => {
        const files = await Promise.all(
          (data.files ?? []).map(async (f) => ({ name: f.name, type: f.type, size: f.size, head: [...new Uint8Array(await f.slice(0, 8).arrayBuffer())] })),
        );
        w.shared.push({ title: data.title, files });
        // The second share is closed by the member without choosing: not an error.
        if (w.shared.length === 2) throw new DOMException('Share canceled', 'AbortError');
      },
    });
  });
  const { member } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  const share = memberCard(page).getByRole('button', { name: `Share the card for ${fullName(member)}` });
  await share.click();
  const shared = () => page.evaluate(() => (window as unknown as { shared: { title: string; files: { name: string; type: string; size: number; head: number[] }[] }[] }).shared);
  await expect.poll(async () => (await shared()).length).toBe(1);
  const [first] = await shared();
  expect(first!.title).toBe(`ID card for ${fullName(member)}`);
  expect(first!.files).toHaveLength(1);
  expect(first!.files[0]).toMatchObject({ type: 'image/png', name: expect.stringMatching(/\.png$/) });
  expect(first!.files[0]!.head).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(first!.files[0]!.size).toBeGreaterThan(5_000);

  await expect(share).toBeEnabled();
  await share.click();
  await expect.poll(async () => (await shared()).length).toBe(2);
  await expect(share).toBeEnabled();
  await expect(page.getByText('The card could not be shared. Try Download instead.')).toHaveCount(0);
});

test('/verify-card scans the QR code with the camera where the browser has BarcodeDetector, then stops the camera', async ({ page, request, browser }) => {
  const { member } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  const token = await tokenOf(page, fullName(member));

  // Chromium on Linux has neither a camera nor BarcodeDetector: a canvas stands in for the back
  // camera (real frames) and the detector reads the planted code once frames arrive.
  const desk = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await desk.addInitScript(() => {
    const w = window as unknown as { qr?: string; formats?: string[]; constraints?: MediaStreamConstraints; stream?: MediaStream };
    class FakeBarcodeDetector {
      constructor(options: { formats: string[] }) {
        w.formats = options.formats;
      }
      async detect(source: HTMLVideoElement) {
        return source.videoWidth > 0 && w.qr ? [{ rawValue: w.qr, format: 'qr_code' }] : [];
      }
    }
    Object.defineProperty(window, 'BarcodeDetector', { configurable: true, value: FakeBarcodeDetector });
    Object.defineProperty(MediaDevices.prototype, 'getUserMedia', {
      configurable: true,
      value: async (constraints: MediaStreamConstraints) => {
        w.constraints = constraints;
        const canvas = document.createElement('canvas');
        canvas.width = 64;
        canvas.height = 64;
        const context = canvas.getContext('2d')!;
        let shade = 0;
        setInterval(() => {
          shade = (shade + 40) % 256;
          context.fillStyle = `rgb(${shade}, ${shade}, ${shade})`;
          context.fillRect(0, 0, 64, 64);
        }, 50);
        w.stream = canvas.captureStream(10);
        return w.stream;
      },
    });
  });
  const front = await desk.newPage();
  await front.goto('/verify-card');
  await front.getByRole('button', { name: 'Scan with camera' }).click();
  await expect(front.getByLabel('Camera view')).toBeVisible();
  await expect(front.getByText('Point the camera at the QR code on the card.')).toBeVisible();
  await expectNoSeriousA11yViolations(front);
  expect(await front.evaluate(() => (window as unknown as { formats: string[] }).formats)).toEqual(['qr_code']);
  expect(await front.evaluate(() => (window as unknown as { constraints: MediaStreamConstraints }).constraints)).toEqual({ video: { facingMode: 'environment' }, audio: false });

  await front.evaluate((code) => {
    (window as unknown as { qr: string }).qr = code;
  }, token);
  await expect(front.getByRole('status').filter({ hasText: /valid/i })).toContainText(`Valid card for ${fullName(member)}, ${member.company}`);
  await expect(front.getByLabel('Card code')).toHaveValue(token);
  // Found: the camera view closes and the camera is released.
  await expect(front.getByLabel('Camera view')).toHaveCount(0);
  expect(await front.evaluate(() => (window as unknown as { stream: MediaStream }).stream.getTracks().map((track) => track.readyState))).toEqual(['ended']);
  await desk.close();
});

test('"Keep my cards on this device": off by default; on, the cards open signed out', async ({ page, request }) => {
  const { member, child } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  await expect(memberCard(page)).toContainText(fullName(member));
  const keep = page.getByRole('switch', { name: 'Keep my cards on this device' });
  await expect(keep).toHaveAttribute('aria-checked', 'false');
  await keep.click();
  await expect(keep).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('Your cards are saved on this device.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Signed out (the session gone from this browser), the kept cards still open at /id-card.
  await page.evaluate(() => ['auth_token', 'auth_user', 'auth_account'].forEach((k) => localStorage.removeItem(k)));
  await page.goto('/id-card');
  await expect(page).toHaveURL('/id-card');
  await expect(page.getByText(/^Saved on this device on /)).toBeVisible();
  await expect(memberCard(page)).toContainText(fullName(member));
  await expect(childCard(page, child.name)).toContainText('Child');
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Turned off, they are gone from the device, and /id-card asks to sign in again.
  await page.getByRole('switch', { name: 'Keep my cards on this device' }).click();
  await expect(page.getByText('No cards are saved on this device.')).toBeVisible();
  await page.goto('/id-card');
  await expect(page).toHaveURL('/login');
});

test('signed in and offline, the cards from the last visit show, marked offline', async ({ page, request }) => {
  const { member } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  // Both screens' code is loaded while online; the network is cut only for the data.
  await page.goto('/health/get-care');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'I.D. Card' }).click();
  await expect(memberCard(page)).toContainText(fullName(member));
  await page.context().setOffline(true);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get Care' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'I.D. Card' }).click();
  await expect(page.getByText(/^Offline — showing information from /)).toBeVisible();
  await expect(memberCard(page)).toContainText(fullName(member));
  await expect(memberCard(page)).toContainText('Gold PPO');
});

test('turning respects reduced motion: a flip normally, an instant change under prefers-reduced-motion', async ({ page, request }) => {
  const { member } = await memberWithFamily(request);
  await signInViaStorage(page, request, member);
  await page.goto('/id-card');
  const turner = memberCard(page).locator('[data-face="front"]').locator('..');
  const duration = () => turner.evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
  await expect.poll(duration).toBe(0.5);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect.poll(duration).toBeLessThan(0.001);
  await memberCard(page).getByRole('button', { name: 'Show back' }).click();
  await expect(memberCard(page).getByRole('link', { name: '+1 (800) 555-0100' })).toBeVisible();
});

test.describe('offline, with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('with the network cut, a reload of /id-card still shows every card (service worker and saved cards)', async ({ page, request }) => {
    const { member, child } = await memberWithFamily(request);
    await signInViaStorage(page, request, member);
    await page.goto('/id-card');
    await expect(memberCard(page)).toContainText(fullName(member));
    // Installed (precache complete) and in control of the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.context().setOffline(true);
    await page.reload();
    await expect(page.getByText(/^Offline — showing information from /)).toBeVisible();
    await expect(memberCard(page)).toContainText(fullName(member));
    await expect(childCard(page, child.name)).toContainText('Child');
  });

  test('kept cards open at /id-card signed out and offline, like a wallet pass', async ({ page, request }) => {
    const { member, child } = await memberWithFamily(request);
    await signInViaStorage(page, request, member);
    await page.goto('/id-card');
    await page.getByRole('switch', { name: 'Keep my cards on this device' }).click();
    await expect(page.getByText('Your cards are saved on this device.')).toBeVisible();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.evaluate(() => ['auth_token', 'auth_user', 'auth_account'].forEach((k) => localStorage.removeItem(k)));
    await page.context().setOffline(true);
    await page.reload();
    await expect(page).toHaveURL('/id-card');
    await expect(page.getByText(/^Saved on this device on /)).toBeVisible();
    await expect(memberCard(page)).toContainText(fullName(member));
    await expect(childCard(page, child.name)).toContainText('Child');
  });
});
