import type { SignInMfaRequest, SignInRequest, SignInResponse, SignInSession } from '#shared/schemas/auth';
import { apiSend } from '../../../lib/api-client';

/** The browser's IANA time zone, sent with sign-in: popup quiet hours and daily caps follow the member's clock. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** POST /api/auth/signin: a session, or the challenge of two-step sign-in. */
export const signInRequest = (input: SignInRequest) => apiSend<SignInResponse>('POST', '/api/auth/signin', { ...input, timeZone: browserTimeZone() });
/** POST /api/auth/signin/mfa: the second step of two-step sign-in, the challenge from the first and the code. */
export const signInMfaRequest = (input: SignInMfaRequest) =>
  apiSend<SignInSession>('POST', '/api/auth/signin/mfa', { ...input, timeZone: browserTimeZone() });
