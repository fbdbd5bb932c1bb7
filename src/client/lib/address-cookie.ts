/**
 * Writes (or, with `null`, removes) a cookie the app keeps for the server's sake on one address
 * alone: a year long, `SameSite=Lax`, `Secure` on HTTPS. Not `HttpOnly`, since the app writes it;
 * so it holds nothing secret (docs/decisions/prerendered-sign-in.md).
 */
export function writeAddressCookie(name: string, value: string | null, path: string) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const life = value === null ? 'Max-Age=0' : 'Max-Age=31536000';
  document.cookie = `${name}=${value ?? ''}; Path=${path}; ${life}; SameSite=Lax${secure}`;
}
