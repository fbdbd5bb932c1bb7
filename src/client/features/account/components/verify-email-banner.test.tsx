import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AUTH_ACCOUNT_KEY, AUTH_TOKEN_KEY, AUTH_USER_KEY } from '../../../lib/auth-storage';
import { showDrawnBanner } from '../../../lib/drawn-banner';
import { Drawing } from '../../../lib/drawing';
import { json, meAnswer, renderScreen, storeTestSession, stubApi, testUser } from '../../../test/render';
import { VerifyEmailBanner } from './verify-email-banner';

const storeAccount = (account: unknown) => localStorage.setItem(AUTH_ACCOUNT_KEY, typeof account === 'string' ? account : JSON.stringify(account));

/** The banner as the build draws it into /home's HTML (app/static-screen.tsx), as a page root holds it before the app runs. */
async function drawnPage() {
  stubApi(() => new Promise<Response>(() => undefined));
  const { container, unmount } = renderScreen(
    <Drawing value>
      <VerifyEmailBanner />
    </Drawing>,
    { path: '/home' },
  );
  await screen.findByText('Please verify your email address');
  const html = container.innerHTML;
  unmount();
  const root = document.createElement('div');
  root.innerHTML = html;
  return { root, banner: () => root.querySelector('section')! };
}

describe("Home's verify banner drawn into /home's HTML", () => {
  it('is drawn hidden for every member, with an empty slot for the address', async () => {
    // Drawn for a verified account: the drawing does not depend on the session.
    storeTestSession();
    storeAccount({ emailVerified: true, mfaEnabled: false });
    const { banner } = await drawnPage();
    expect(banner().hidden).toBe(true);
    expect(banner().querySelector('[data-drawn-email]')?.textContent).toBe('');
    expect(banner().textContent).not.toContain(testUser.email);
  });

  it("is shown by the page's script, with the member's address, where the account asks to verify: as the app then renders it", async () => {
    storeTestSession();
    storeAccount({ emailVerified: false, mfaEnabled: false });
    const { root, banner } = await drawnPage();
    showDrawnBanner(root);
    expect(banner().hidden).toBe(false);
    const drawnText = banner().querySelector('p')!.textContent;
    expect(drawnText).toBe(`We sent a link to ${testUser.email}. Open it to confirm your account.`);

    // The app's own banner, over it, says the same.
    stubApi(async (call) => {
      if (call.url !== '/api/auth/me') return json(404, { error: 'Not found', code: 'not_found' });
      const me = (await meAnswer().json()) as object;
      return json(200, { ...me, account: { emailVerified: false, mfaEnabled: false } });
    });
    renderScreen(<VerifyEmailBanner />, { path: '/home' });
    expect((await screen.findByText(drawnText!)).tagName).toBe('P');
  });

  it.each([
    ['a verified account', { emailVerified: true, mfaEnabled: false }],
    ['no account state kept', undefined],
    ['a damaged account state', '{"emailVerified":'],
    ['an account state of another shape', [false]],
  ])('stays hidden for %s', async (_, account) => {
    storeTestSession();
    if (account !== undefined) storeAccount(account);
    const { root, banner } = await drawnPage();
    expect(() => showDrawnBanner(root)).not.toThrow();
    expect(banner().hidden).toBe(true);
    expect(banner().textContent).not.toContain(testUser.email);
  });

  it('stays hidden when the kept user has no address to show', async () => {
    storeTestSession();
    storeAccount({ emailVerified: false, mfaEnabled: false });
    const { root, banner } = await drawnPage();
    for (const email of [7, '']) {
      localStorage.setItem(AUTH_USER_KEY, JSON.stringify({ ...testUser, email }));
      showDrawnBanner(root);
      expect(banner().hidden, String(email)).toBe(true);
    }
  });

  it('stays hidden on a device that holds no session any more (an account state left behind)', async () => {
    storeTestSession();
    storeAccount({ emailVerified: false, mfaEnabled: false });
    const { root, banner } = await drawnPage();
    localStorage.removeItem(AUTH_TOKEN_KEY);
    showDrawnBanner(root);
    expect(banner().hidden).toBe(true);
  });

  it('leaves a page without a drawn banner (/login) alone', () => {
    storeTestSession();
    storeAccount({ emailVerified: false, mfaEnabled: false });
    const root = document.createElement('div');
    root.innerHTML = '<main><h1>Sign In</h1></main>';
    showDrawnBanner(root);
    expect(root.innerHTML).toBe('<main><h1>Sign In</h1></main>');
  });
});
