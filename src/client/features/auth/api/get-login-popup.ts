import { ApiError, apiGet } from '../../../lib/api-client';

/** GET /api/popups/next?context=login&route=home: the popup to show after sign-in; null when there is none (204) or the call fails. */
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
