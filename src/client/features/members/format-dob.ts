/** A calendar date (YYYY-MM-DD) as the member reads it, e.g. "June 1, 2015"; no time-zone shift. */
export function formatDob(iso: string, locale = 'en-US'): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
