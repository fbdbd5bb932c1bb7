/** A calendar date (YYYY-MM-DD) as the member reads it, e.g. "June 1, 2015"; no time-zone shift. */
import { LANGUAGE_LOCALES } from '#shared/i18n/languages';
import { language } from '../../lib/language';
export function formatDob(iso: string, locale = LANGUAGE_LOCALES[language]): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
