import { AUTH_ACCOUNT_KEY, AUTH_TOKEN_KEY, AUTH_USER_KEY } from './session-keys';

/** The verify banner as /home's HTML carries it: hidden, with an empty slot for the address. */
export const DRAWN_BANNER_ATTRIBUTE = 'data-drawn-banner';
export const DRAWN_EMAIL_ATTRIBUTE = 'data-drawn-email';

/**
 * /home's HTML is drawn for every member (scripts/prerender.mjs), with the verify-email banner
 * hidden in it. For a member whose address the session's last account state says is not
 * verified, the page's script shows it, with their address, before the first paint: the
 * banner is then part of Home from the start, rather than arriving with the app (a second
 * later on a slow phone, as the page's largest text). The app renders the same banner over it.
 * Kept small, as it is part of every page's first script.
 */
export function showDrawnBanner(root: ParentNode) {
  const banner = root.querySelector<HTMLElement>(`[${DRAWN_BANNER_ATTRIBUTE}]`);
  if (!banner || !localStorage.getItem(AUTH_TOKEN_KEY)) return;
  try {
    const { emailVerified } = JSON.parse(localStorage.getItem(AUTH_ACCOUNT_KEY)!) as { emailVerified: unknown };
    const { email } = JSON.parse(localStorage.getItem(AUTH_USER_KEY)!) as { email: unknown };
    if (emailVerified === false && typeof email === 'string' && email) {
      banner.querySelector(`[${DRAWN_EMAIL_ATTRIBUTE}]`)!.textContent = email;
      banner.hidden = false;
    }
  } catch {
    // No account state or user kept (JSON.parse(null) is null), or not in that shape: the app
    // shows the banner once it knows.
  }
}
