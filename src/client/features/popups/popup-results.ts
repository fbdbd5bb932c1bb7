import type { PopupResultsResponse } from '#shared/schemas/popups';
import { LANGUAGE_LOCALES } from '#shared/i18n/languages';
import { language } from '../../lib/language';

export type ResultDay = PopupResultsResponse['days'][number];

export interface ResultTotals {
  shows: number;
  snoozes: number;
  completions: number;
}

export function totals(days: readonly ResultDay[]): ResultTotals {
  return days.reduce((sum, d) => ({ shows: sum.shows + d.shows, snoozes: sum.snoozes + d.snoozes, completions: sum.completions + d.completions }), {
    shows: 0,
    snoozes: 0,
    completions: 0,
  });
}

/** Completions per show, 0 to 1; null when nothing was shown (no rate to speak of). */
export function completionRate(completions: number, shows: number): number | null {
  return shows > 0 ? completions / shows : null;
}

const percent = new Intl.NumberFormat(LANGUAGE_LOCALES[language], { style: 'percent', maximumFractionDigits: 1 });

/** 0.4 -> "40%", 1/3 -> "33.3%"; null -> the given text. */
export function formatRate(rate: number | null, none: string): string {
  return rate === null ? none : percent.format(rate);
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. A
 * text that a spreadsheet would read as a formula (=, +, -, @, tab, CR first) gets a leading
 * apostrophe (OWASP's CSV injection advice); numbers are written as they are.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The daily figures as CSV: a header row, then one row a day, CRLF line ends. */
export function resultsCsv(days: readonly ResultDay[]): string {
  const rows = [['date', 'shows', 'snoozes', 'completions'], ...days.map((d) => [d.date, d.shows, d.snoozes, d.completions])];
  return `${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** A file name from the popup's title: lower-case words and hyphens, never empty. */
export function resultsFileName(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `popup-results-${slug || 'popup'}.csv`;
}

/** "2026-03-01" as "Mar 1, 2026" (a calendar day, so read in UTC: no shift by the browser's zone). */
const dayFormat = new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const formatDay = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
export const formatShortDay = (date: string) => shortDayFormat.format(new Date(`${date}T00:00:00Z`));
