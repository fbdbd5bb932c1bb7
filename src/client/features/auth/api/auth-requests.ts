import type { MeResponse, RegisterRequest, RegisterResponse, SessionUser, SignInMfaRequest, SignInRequest, SignInResponse, SignInSession } from '#shared/schemas/auth';
import { ApiError, apiGet, apiSend } from '../../../lib/api-client';

/** The browser's IANA time zone, sent with sign-in: popup quiet hours and daily caps follow the member's clock. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const signInRequest = (input: SignInRequest) => apiSend<SignInResponse>('POST', '/api/auth/signin', { ...input, timeZone: browserTimeZone() });
/** The second step of two-step sign-in: the challenge from the first and the code. */
export const signInMfaRequest = (input: SignInMfaRequest) =>
  apiSend<SignInSession>('POST', '/api/auth/signin/mfa', { ...input, timeZone: browserTimeZone() });
export const registerRequest = (input: RegisterRequest) => apiSend<RegisterResponse>('POST', '/api/auth/register', input);
export const signOutRequest = () => apiSend('POST', '/api/auth/signout');

/** The popup to show after sign-in; null when there is none (204) or the call fails. */
export async function fetchLoginPopup(): Promise<unknown> {
  try {
    return await apiGet('/api/popups/next?context=login&route=home');
  } catch (err) {
    const code = err instanceof ApiError ? err.code : undefined;
    if (code === 'unauthenticated' || code === 'forbidden') console.warn('Login popup: authentication failed', code);
    else console.warn('Login popup unavailable', err);
    return null;
  }
}

/** The signed-in user as the server sees them now. */
export const fetchSessionUser = async (): Promise<SessionUser | undefined> =>
  (await apiGet<MeResponse>('/api/auth/me'))?.user;
