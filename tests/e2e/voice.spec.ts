import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { messages as es } from '../../src/shared/messages/es/index';
import { expect, expectNoSeriousA11yViolations, pauseClock, registerViaApi, signInViaStorage, test } from './support/fixtures';
import { installVoiceFakes, script, type VoiceFakeOptions } from './support/voice-fakes';

const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/**
 * A fresh member, signed in, on Home with the voice fakes and Playwright's fake clock
 * installed before the app loads. The clock runs in real time until a session starts (see
 * startSession).
 */
async function openHome(page: Page, request: APIRequestContext, options: VoiceFakeOptions = {}) {
  await page.clock.install();
  const member = await registerViaApi(request);
  await signInViaStorage(page, request, member);
  await installVoiceFakes(page, options);
  await page.goto('/home');
  const voice = page.getByTestId('voice-search');
  await expect(voice).toBeVisible();
  return voice;
}

const mic = (page: Page) => page.getByRole('button', { name: 'Hold to talk' });

/**
 * Starts a voice session with the clock paused, so its 4 s banner, 4 s messages, 0.5 s
 * navigation delay and 60 s limit move only by runFor: a stalled machine can neither expire
 * what a test is about to look at nor shift the mic while the banner goes away.
 */
async function startSession(page: Page) {
  await pauseClock(page);
  await page.getByRole('button', { name: 'Start Voice Session' }).click();
  await expect(mic(page)).toBeEnabled();
}

/** A match says where it goes; navigation follows 0.5 s later on the (paused) clock. */
async function followMatch(page: Page, voice: Locator, name: string) {
  await expect(message(voice)).toHaveText(`Opening ${name}...`);
  await page.clock.runFor(500);
}

/** Holds the mic with the mouse, checks it is pressed, lets go, checks it is released. */
async function holdAndRelease(page: Page) {
  const button = mic(page);
  await button.hover();
  await page.mouse.down();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await page.mouse.up();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
}

const message = (voice: Locator) => voice.getByTestId('voice-message');

async function openActivity(voice: Locator) {
  const panel = voice.getByTestId('voice-activity');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  return panel;
}

test.describe('voice navigation in Spanish', () => {
  test.use({ locale: 'es-US' });

  test('recognition listens in es-US and "recetas" opens Prescriptions, said in Spanish', async ({ page, request }) => {
    await page.clock.install();
    const member = await registerViaApi(request);
    await signInViaStorage(page, request, member);
    await installVoiceFakes(page);
    await page.goto('/home');
    const voice = page.getByTestId('voice-search');
    await expect(voice).toBeVisible();
    await pauseClock(page);
    await page.getByRole('button', { name: es.voice.startSession }).click();
    const button = page.getByRole('button', { name: es.voice.micLabel });
    await expect(button).toBeEnabled();
    await script(page, { kind: 'result', transcript: 'recetas', confidence: 0.9 });
    await button.hover();
    await page.mouse.down();
    await page.mouse.up();
    await expect(message(voice)).toHaveText(es.voice.matched(es.members.shortcutNames.Prescriptions));
    await page.clock.runFor(500);
    await page.waitForURL('**/health/get-care/prescriptions');
    const starts = await page.evaluate(() => window.__voice.starts);
    expect(starts).toEqual([{ lang: 'es-US', continuous: false, interimResults: false, maxAlternatives: 1 }]);
  });
});

test.describe('voice navigation', () => {
  test('a confident match navigates to the service, through the route table', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await expect(voice.getByTestId('voice-consent')).toBeVisible();
    await script(page, { kind: 'result', transcript: 'Virtual Therapy', confidence: 0.92 });

    const button = mic(page);
    await button.hover();
    await page.mouse.down();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(button).toHaveClass(/bg-danger/);
    await expect(button).toHaveClass(/animate-pulse/);
    await expect(voice.getByRole('status').filter({ hasText: 'Listening... release to stop' })).toBeVisible();
    await page.mouse.up();

    await followMatch(page, voice, 'Virtual Therapy');
    await page.waitForURL('**/health/get-care/virtual-therapy');
    const starts = await page.evaluate(() => window.__voice.starts);
    expect(starts).toEqual([{ lang: 'en-US', continuous: false, interimResults: false, maxAlternatives: 1 }]);
  });

  test('navigation starts 0.5 s after the match, not before', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'prescriptions', confidence: 0.9 });
    await holdAndRelease(page);
    await expect(message(voice)).toHaveText('Opening Prescriptions...');
    await page.clock.runFor(450);
    await expect(page).toHaveURL(/\/home$/);
    await page.clock.runFor(100);
    await page.waitForURL('**/health/get-care/prescriptions');
  });

  test('low confidence is refused with its percentage', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'prescriptions', confidence: 0.7 });
    await holdAndRelease(page);
    await expect(message(voice).getByRole('alert')).toHaveText('Low confidence (70%). Please speak clearly and try again.');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('an empty transcript is refused', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: '  ', confidence: 0.95 });
    await holdAndRelease(page);
    await expect(message(voice).getByRole('alert')).toHaveText('No speech detected. Please speak clearly.');
  });

  test('no match quotes what was heard', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'weather forecast', confidence: 0.95 });
    await holdAndRelease(page);
    await expect(message(voice).getByRole('alert')).toHaveText(
      '"weather forecast" - No matching service found. Try: Virtual Care, Prescriptions, SOAR, etc.',
    );
    await expect(page).toHaveURL(/\/home$/);
  });

  // The whole code -> message table is unit-tested (recognitionErrorMessage in
  // src/client/features/voice/matcher.test.ts); here, the wiring from the recogniser to the
  // alert and the activity log: one code with its own message, one that gets the default.
  const errorCases: [string, string][] = [
    ['network', 'Network error occurred. Please check your internet connection.'],
    ['service-not-allowed', 'Voice recognition failed. Please try again.'],
  ];
  for (const [code, text] of errorCases) {
    test(`recognition error ${code} shows its message`, async ({ page, request }) => {
      const voice = await openHome(page, request);
      await startSession(page);
      await script(page, { kind: 'error', code });
      const button = mic(page);
      await button.hover();
      await page.mouse.down();
      await expect(message(voice).getByRole('alert')).toHaveText(text);
      await expect(button).toHaveAttribute('aria-pressed', 'false');
      await page.mouse.up();
      const panel = await openActivity(voice);
      await expect(panel.getByText(`Recognition error ${code}`)).toBeVisible();
    });
  }

  test('recognition error aborted shows nothing', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'error', code: 'aborted' });
    const button = mic(page);
    await button.hover();
    await page.mouse.down();
    await expect(button).toHaveAttribute('aria-pressed', 'false');
    await page.mouse.up();
    await expect(message(voice)).toBeEmpty();
  });

  test('errors clear after 3 to 5 seconds', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'error', code: 'network' });
    await mic(page).hover();
    await page.mouse.down();
    await page.mouse.up();
    const alert = message(voice).getByRole('alert');
    await expect(alert).toHaveText('Network error occurred. Please check your internet connection.');
    await page.clock.runFor(3_000);
    await expect(alert).toBeVisible();
    await page.clock.runFor(2_000);
    await expect(alert).toBeHidden();
  });

  test('a start failure has its message', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'throw' });
    await mic(page).hover();
    await page.mouse.down();
    await expect(message(voice).getByRole('alert')).toHaveText('Failed to start voice recognition. Please try again.');
    await page.mouse.up();
  });

  test('a recogniser that cannot be created says voice is unavailable', async ({ page, request }) => {
    const voice = await openHome(page, request, { failInit: true });
    await startSession(page);
    await mic(page).hover();
    await page.mouse.down();
    await expect(message(voice).getByRole('alert')).toHaveText('Voice features unavailable on this browser.');
    await page.mouse.up();
  });

  test('the session ends after 60 seconds with reason timeout; the consent banner shows for about 4 seconds', async ({
    page,
    request,
  }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await expect(voice.getByTestId('voice-consent')).toBeVisible();
    await page.clock.runFor(3_000);
    await expect(voice.getByTestId('voice-consent')).toBeVisible();
    await page.clock.runFor(1_500);
    await expect(voice.getByTestId('voice-consent')).toBeHidden();
    await expect(voice.getByTestId('voice-countdown')).toContainText('Session ends in');
    await page.clock.runFor(54_000);
    await expect(mic(page)).toBeVisible();
    await page.clock.runFor(2_000);
    await expect(mic(page)).toBeHidden();
    await expect(voice.getByText('Your voice session ended after 60 seconds.')).toBeVisible();
    await expect(voice.getByRole('switch', { name: 'Voice' })).toHaveAttribute('aria-checked', 'false');
    const panel = await openActivity(voice);
    await expect(panel.getByText('Session ended (timeout)')).toBeVisible();
  });

  test('the kill switch turns voice on and off (reason user_disabled), stopping a live recognition', async ({ page, request }) => {
    const voice = await openHome(page, request);
    const killSwitch = voice.getByRole('switch', { name: 'Voice' });
    await expect(killSwitch).toHaveAttribute('aria-checked', 'false');
    await pauseClock(page);
    await killSwitch.click();
    await expect(killSwitch).toHaveAttribute('aria-checked', 'true');
    await expect(voice.getByTestId('voice-consent')).toBeVisible();
    await script(page, { kind: 'result', transcript: 'soar', confidence: 0.9 });
    // One finger holds the mic while the other hand flips the switch.
    const box = (await mic(page).boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchStart',
      touchPoints: [{ x: box.x + box.width / 2, y: box.y + box.height / 2 }],
    });
    await expect(mic(page)).toHaveAttribute('aria-pressed', 'true');
    await killSwitch.click();
    await expect(killSwitch).toHaveAttribute('aria-checked', 'false');
    await expect(mic(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Start Voice Session' })).toBeVisible();
    expect(await page.evaluate(() => ({ aborts: window.__voice.aborts, stops: window.__voice.stops }))).toEqual({ aborts: 1, stops: 0 });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const panel = await openActivity(voice);
    await expect(panel.getByText('Session ended (turned off)')).toBeVisible();
    await expect(panel.getByText('Matched')).toHaveCount(0);
    await expect(page).toHaveURL(/\/home$/);

    await killSwitch.click();
    await expect(killSwitch).toHaveAttribute('aria-checked', 'true');
    await expect(mic(page)).toBeEnabled();
  });

  test('push-to-talk works with the keyboard (Space or Enter held)', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'weather', confidence: 0.9 }, { kind: 'result', transcript: 'SOAR', confidence: 0.9 });
    const button = mic(page);
    await button.focus();
    await page.keyboard.down('Space');
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.up('Space');
    await expect(message(voice).getByRole('alert')).toContainText('"weather" - No matching service found.');
    await page.keyboard.down('Enter');
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.up('Enter');
    await followMatch(page, voice, 'SOAR');
    await page.waitForURL('**/health/activities/soar');
  });

  test('push-to-talk works with touch', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'care navigator', confidence: 0.9 });
    const box = (await mic(page).boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await expect(mic(page)).toHaveAttribute('aria-pressed', 'true');
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await followMatch(page, voice, 'Care Navigator');
    await page.waitForURL('**/health/get-care/care-navigator');
  });

  test('low battery: warning below 30%, unavailable at 20%, auto-disabled below 20%', async ({ page, request }) => {
    const voice = await openHome(page, request, { battery: 0.3 });
    await expect(voice.getByTestId('voice-low-battery')).toHaveCount(0);
    await page.evaluate(() => window.__voice.setBattery(0.29));
    await expect(voice.getByTestId('voice-low-battery')).toHaveText('Low battery (29%). Voice turns off at 20%.');
    await startSession(page);

    await page.evaluate(() => window.__voice.setBattery(0.2));
    await expect(page.getByRole('button', { name: 'Microphone unavailable' })).toBeDisabled();
    await expect(voice.getByText('Voice is unavailable at 20% battery or below.')).toBeVisible();
    await expect(voice.getByRole('switch', { name: 'Voice' })).toHaveAttribute('aria-checked', 'true');

    await page.evaluate(() => window.__voice.setBattery(0.21));
    await expect(mic(page)).toBeEnabled();

    await page.evaluate(() => window.__voice.setBattery(0.19));
    await expect(voice.getByRole('switch', { name: 'Voice' })).toHaveAttribute('aria-checked', 'false');
    await expect(voice.getByText('Voice is unavailable at 20% battery or below.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start Voice Session' })).toBeDisabled();
    const panel = await openActivity(voice);
    await expect(panel.getByText('Session ended (battery below 20%)')).toBeVisible();
    await expect(panel.getByText('Low battery warning')).toBeVisible();
  });

  test('voice cannot start at 20% battery', async ({ page, request }) => {
    const voice = await openHome(page, request, { battery: 0.2 });
    await expect(page.getByRole('button', { name: 'Start Voice Session' })).toBeDisabled();
    await expect(voice.getByRole('switch', { name: 'Voice' })).toBeDisabled();
  });

  test('a hidden tab during a session stops listening and is logged as auto-sleep', async ({ page, request }) => {
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'soar', confidence: 0.9 });
    await mic(page).hover();
    await page.mouse.down();
    await expect(mic(page)).toHaveAttribute('aria-pressed', 'true');
    await page.evaluate(() => window.__voice.setHidden(true));
    await expect(page.getByRole('button', { name: 'Microphone unavailable' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Microphone unavailable' })).toHaveAttribute('aria-pressed', 'false');
    await page.mouse.up();
    expect(await page.evaluate(() => window.__voice.aborts)).toBe(1);
    await page.evaluate(() => window.__voice.setHidden(false));
    await expect(mic(page)).toBeEnabled();
    const panel = await openActivity(voice);
    await expect(panel.getByText('Auto-sleep (tab hidden)')).toBeVisible();
    await expect(panel.getByText('Tab visible again')).toBeVisible();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the Voice activity panel lists events on the device and nothing is sent to the server', async ({ page, request }) => {
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET') sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`);
    });
    const voice = await openHome(page, request);
    await startSession(page);
    await script(page, { kind: 'result', transcript: 'weather forecast', confidence: 0.95 });
    await holdAndRelease(page);
    const panel = await openActivity(voice);
    await expect(panel.getByText('Voice session started')).toBeVisible();
    await expect(panel.getByText('Listening started')).toBeVisible();
    await expect(panel.getByText('no match: "weather forecast"')).toBeVisible();
    expect(sent.filter((s) => s.includes('weather'))).toEqual([]);
  });

  test('no serious accessibility violations on Home with voice on', async ({ page, request }) => {
    const voice = await openHome(page, request, { battery: 0.25 });
    await startSession(page);
    await expect(voice.getByTestId('voice-consent')).toBeVisible();
    await script(page, { kind: 'result', transcript: 'weather', confidence: 0.9 });
    await holdAndRelease(page);
    await expect(message(voice).getByRole('alert')).toBeVisible();
    await openActivity(voice);
    // axe schedules its work on timers: the clock runs again for the scans.
    await page.clock.resume();
    await expectNoSeriousA11yViolations(page);
    // The mic moves up when the consent banner goes: press it once the layout has settled.
    await expect(voice.getByTestId('voice-consent')).toBeHidden();
    await mic(page).hover();
    await page.mouse.down();
    await expect(mic(page)).toHaveAttribute('aria-pressed', 'true');
    await expectNoSeriousA11yViolations(page);
    await page.mouse.up();
  });
});

test.describe('voice support', () => {
  test('without speech recognition: Voice Not Supported', async ({ page, request }) => {
    const voice = await openHome(page, request, { noRecognition: true });
    await expect(voice.getByRole('heading', { name: 'Voice Not Supported' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start Voice Session' })).toHaveCount(0);
  });

  test.describe('in Safari', () => {
    test.use({ userAgent: SAFARI_IPHONE });

    test('0.65 confidence is accepted (Safari threshold 0.6) after the microphone check', async ({ page, request }) => {
      const voice = await openHome(page, request, { getUserMedia: 'grant' });
      await startSession(page);
      await script(page, { kind: 'result', transcript: 'labs', confidence: 0.65 });
      await holdAndRelease(page);
      await followMatch(page, voice, 'Quest Select Labs');
      await page.waitForURL('**/health/get-care/quest-select-labs');
    });

    test('a refused microphone shows the Safari permission message', async ({ page, request }) => {
      const voice = await openHome(page, request, { getUserMedia: 'deny' });
      await startSession(page);
      await mic(page).hover();
      await page.mouse.down();
      await expect(message(voice).getByRole('alert')).toHaveText('Microphone permission required. Please allow access and try again.');
      await page.mouse.up();
    });

    test('other errors suggest Chrome', async ({ page, request }) => {
      const voice = await openHome(page, request, { getUserMedia: 'grant' });
      await startSession(page);
      await script(page, { kind: 'error', code: 'service-not-allowed' });
      await mic(page).hover();
      await page.mouse.down();
      await expect(message(voice).getByRole('alert')).toHaveText('Voice recognition may work better in Chrome browser.');
      await page.mouse.up();
    });
  });
});
