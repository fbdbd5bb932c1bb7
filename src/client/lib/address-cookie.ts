import { LANGUAGE_COOKIE, type Language } from '#shared/i18n/languages';
import { paths } from '#shared/paths';

/**
 * The service worker's own address. A worker reads only the cookies that would be sent with
 * its script (Chromium's Cookie Store refuses any other address from a worker), so each address
 * cookie is written for it too: it answers `/login` and `/home` from its cache as the server
 * would (client/sw.ts). The script is fetched at most once per navigation, so the copy costs a
 * few bytes there and nowhere else.
 */
const SERVICE_WORKER_PATH = '/sw.js';

/**
 * Writes (or, with `null`, removes) a cookie the app keeps for the server's sake on one address
 * alone, and its copy for the service worker: a year long, `SameSite=Lax`, `Secure` on HTTPS.
 * Not `HttpOnly`, since the app writes it; so it holds nothing secret
 * (docs/decisions/prerendered-sign-in.md).
 */
export function writeAddressCookie(name: string, value: string | null, path: string) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const life = value === null ? 'Max-Age=0' : 'Max-Age=31536000';
  for (const address of [path, SERVICE_WORKER_PATH]) document.cookie = `${name}=${value ?? ''}; Path=${address}; ${life}; SameSite=Lax${secure}`;
}

/**
 * The device's choice of language, for /login's HTML (the server's and the service worker's):
 * a cookie for that address alone that holds the language and nothing else
 * (docs/decisions/prerendered-sign-in.md).
 */
export function shareLanguageChoice(choice: Language) {
  writeAddressCookie(LANGUAGE_COOKIE, choice, paths.login);
}
