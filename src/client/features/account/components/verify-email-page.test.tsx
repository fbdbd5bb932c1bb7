import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, meAnswer, renderScreen, storeTestSession, stubApi } from '../../../test/render';
import { VerifyEmailBanner } from './verify-email-banner';
import { VerifyEmailPage } from './verify-email-page';

const unverified = async () => {
  const me = (await meAnswer().json()) as { account: object };
  return json(200, { ...me, account: { emailVerified: false, mfaEnabled: false } });
};

describe('the emailed verification link, signed in', () => {
  it("leaves Home without the banner even when the app's first session read answers after the link (read before it)", async () => {
    storeTestSession();
    // The app's first GET /api/auth/me was read by the server before the link was used, and
    // its answer arrives after the link's: the session read must not keep the old state.
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let meReads = 0;
    let verified = false;
    const calls = stubApi(async (call) => {
      if (call.url === '/api/auth/verify-email') {
        verified = true;
        return json(200, { emailVerified: true });
      }
      if (call.url === '/api/auth/me') {
        meReads += 1;
        if (meReads === 1) {
          const answer = await unverified();
          await firstHeld;
          return answer;
        }
        return verified ? meAnswer() : unverified();
      }
      return json(404, { error: 'Not found', code: 'not_found' });
    });
    const { user } = renderScreen(<VerifyEmailPage />, {
      path: '/verify-email',
      url: '/verify-email?token=abcDEF123_-',
      others: { '/home': <VerifyEmailBanner /> },
    });
    expect(await screen.findByRole('heading', { name: 'Your email address is verified' })).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/auth/verify-email')?.body).toEqual({ token: 'abcDEF123_-' });
    releaseFirst();
    await user.click(screen.getByRole('link', { name: 'Continue to Home' }));
    // The state is read again after the link was used.
    await waitFor(() => expect(meReads).toBe(2));
    await waitFor(() => expect(screen.queryByText('Please verify your email address')).toBeNull());
  });

  it('shows the banner on Home while the address is still unverified (the read the test above relies on)', async () => {
    storeTestSession();
    stubApi(async (call) => (call.url === '/api/auth/me' ? unverified() : json(404, { error: 'Not found', code: 'not_found' })));
    renderScreen(<VerifyEmailBanner />, { path: '/home' });
    expect(await screen.findByText('Please verify your email address')).toBeTruthy();
  });
});
