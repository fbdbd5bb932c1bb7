/**
 * Calendar dates and instants as people read them. Pure functions of their input: the
 * caller passes "now" (the server its injected clock, the browser its own).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** True when `iso` is YYYY-MM-DD and names a day that exists (no 2023-02-30). */
export function isRealIsoDate(iso: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The local calendar date of `now` as YYYY-MM-DD (the browser's "today"). */
export function localIsoDate(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
