import {
  type AdminPopup,
  type AdminPopupListQuery,
  DEFAULT_ACTION_LABEL,
  type MemberPopup,
  POPUP_INTERNAL_TARGETS,
  POPUP_SORT_FIELDS,
  type PopupAudience,
  type PopupFormInput,
  type PopupSortField,
  type PopupTheme,
  type SortOrder,
} from '#shared/schemas/popups';
import { SORT_ORDERS } from '#shared/schemas/common';
import { t } from '../../lib/i18n';
import { oneOf } from '../../lib/list-state';
import { format } from '../../lib/language';
import { LANGUAGE_LOCALES } from '#shared/i18n/languages';
import { language } from '../../lib/language';

const a = t.popups.admin;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's time zone, trimmed to minutes. */
export function toLocalInputValue(iso: string): string {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an ISO instant; '' when empty or invalid. */
export function fromLocalInputValue(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export function formatActivePeriod(p: Pick<AdminPopup, 'startAt' | 'endAt'>): string {
  return `${format.dateTime(p.startAt)} - ${format.dateTime(p.endAt)}`;
}

/** The create form's starting values (spec section 5 defaults). */
export function emptyPopupForm(): PopupFormInput {
  return {
    title: '',
    message: '',
    target: 'home',
    startAt: '',
    endAt: '',
    recurrence: 'NONE',
    interval: 1,
    timezone: 'UTC',
    theme: 'purple',
    maxSnoozes: 2,
    priority: 5,
    isActive: false,
    actionLabel: DEFAULT_ACTION_LABEL,
    // Absent: the server's vital-scan URL.
    actionTarget: undefined,
    audience: { companyIds: [], enrolledOnly: false, withFamilyOnly: false },
    dailyCap: null,
    quietHours: null,
  };
}

/** The edit form, prefilled from a popup. */
export function popupToForm(p: AdminPopup): PopupFormInput {
  return {
    title: p.title,
    message: p.message,
    target: p.target,
    startAt: p.startAt,
    endAt: p.endAt,
    recurrence: p.recurrence,
    interval: p.interval,
    timezone: p.timezone,
    theme: p.theme,
    maxSnoozes: p.maxSnoozes,
    priority: p.priority,
    isActive: p.isActive,
    actionLabel: p.actionLabel,
    actionTarget: p.actionTarget,
    audience: { companyIds: [...p.audience.companyIds], enrolledOnly: p.audience.enrolledOnly, withFamilyOnly: p.audience.withFamilyOnly },
    dailyCap: p.dailyCap,
    quietHours: p.quietHours ? { start: p.quietHours.start, end: p.quietHours.end } : null,
  };
}

/** The optional daily limit: empty is null (the programme's setting); anything else an integer or NaN (refused). */
export function parseOptionalIntegerInput(value: unknown): number | null {
  if (value === null || value === undefined || String(value).trim() === '') return null;
  return parseIntegerInput(value);
}

/** Quiet hours from the two time inputs: both empty is null (the programme's setting). */
export function quietHoursFromInputs(start: string, end: string): { start: string; end: string } | null {
  return start === '' && end === '' ? null : { start, end };
}

/** A readable name for an app screen a popup can lead to; the path itself for any other. */
export function destinationName(path: string): string {
  return a.destinations[path] ?? path;
}

export interface DestinationOptions {
  screens: { value: string; label: string }[];
  sites: { value: string; label: string }[];
}

/**
 * The destination select's choices: the app's member screens, then the allow-listed websites
 * (the vital-scan one marked as the default). A popup saved with an address since removed
 * from the list keeps it as a choice, so editing it does not silently change where it goes.
 */
export function destinationOptions(allowedUrls: readonly string[], vitalScanUrl: string, current: string | undefined): DestinationOptions {
  const screens = POPUP_INTERNAL_TARGETS.map((value) => ({ value, label: destinationName(value) }));
  const urls = [...new Set([...(vitalScanUrl ? [vitalScanUrl] : []), ...allowedUrls])];
  if (current && !urls.includes(current) && !(POPUP_INTERNAL_TARGETS as readonly string[]).includes(current)) urls.push(current);
  const sites = urls.map((value) => ({ value, label: value === vitalScanUrl ? a.form.actionTargetDefault(value) : value }));
  return { screens, sites };
}

/** Where the preview says the button goes. */
export function destinationSentence(target: string): string {
  if ((POPUP_INTERNAL_TARGETS as readonly string[]).includes(target) || target.startsWith('/')) return a.form.previewOpensScreen(destinationName(target));
  try {
    return a.form.previewOpensSite(new URL(target).host);
  } catch {
    return '';
  }
}

/** The card's one-line audience: all employers or how many, and the narrowing. */
export function audienceSummary(audience: PopupAudience): string {
  const parts: string[] = [audience.companyIds.length === 0 ? a.audienceAll : a.audienceEmployers(audience.companyIds.length)];
  if (audience.enrolledOnly) parts.push(a.audienceEnrolledOnly);
  if (audience.withFamilyOnly) parts.push(a.audienceWithFamilyOnly);
  return parts.join(', ');
}

/** "Reaches about N members". */
export const reachText = (n: number) => (n === 1 ? a.form.reachOne : a.form.reach(n));

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant as a wall-clock time in the popup's own time zone, with the zone's short name
 * (Jan 15, 2031, 9:45 AM PST), since that is where its schedule is set. An unknown zone falls
 * back to UTC rather than failing the list.
 */
export function formatInZone(iso: string, timeZone: string): string {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
    try {
      format = new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], { ...options, timeZone });
    } catch {
      format = new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], { ...options, timeZone: 'UTC' });
    }
    zoneFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** The status line under the badge: which occurrence, and when in the popup's zone; null when none is left. */
export function occurrenceLine(p: Pick<AdminPopup, 'status' | 'nextOccurrenceAt' | 'timezone'>): { label: string; value: string } | null {
  if (!p.nextOccurrenceAt) return p.status === 'ended' ? null : { label: a.nextOccurrence, value: a.noOccurrence };
  return { label: p.status === 'live' ? a.currentOccurrence : a.nextOccurrence, value: formatInZone(p.nextOccurrenceAt, p.timezone) };
}

/** Number inputs are parsed as integers; an empty or non-numeric input is NaN (refused by the schema). */
export function parseIntegerInput(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : Number.NaN;
  const s = String(value ?? '').trim();
  return /^-?\d+$/.test(s) ? Number.parseInt(s, 10) : Number.NaN;
}

export interface PopupListState {
  search: string;
  status: '' | 'active' | 'inactive';
  sortBy: PopupSortField;
  sortOrder: SortOrder;
}

export const initialListState: PopupListState = { search: '', status: '', sortBy: 'priority', sortOrder: 'desc' };

/**
 * The console keeps search, status and sort in the URL query (as the employer lists do), so
 * back, reload and a shared link return to the same list. Defaults stay out of the URL; an
 * invalid value falls back to the default.
 */
export function readPopupListState(params: URLSearchParams): PopupListState {
  return {
    search: params.get('search') ?? '',
    status: oneOf<PopupListState['status']>(['', 'active', 'inactive'], params.get('status'), ''),
    sortBy: oneOf(POPUP_SORT_FIELDS, params.get('sortBy'), initialListState.sortBy),
    sortOrder: oneOf(SORT_ORDERS, params.get('sortOrder'), initialListState.sortOrder),
  };
}

export function writePopupListState(s: PopupListState): URLSearchParams {
  const params = new URLSearchParams();
  if (s.search) params.set('search', s.search);
  if (s.status) params.set('status', s.status);
  if (s.sortBy !== initialListState.sortBy) params.set('sortBy', s.sortBy);
  if (s.sortOrder !== initialListState.sortOrder) params.set('sortOrder', s.sortOrder);
  return params;
}

/** Query parameters, added only when a filter or a non-default sort is set (spec section 7). */
export function listQuery(s: PopupListState): AdminPopupListQuery {
  const q: AdminPopupListQuery = {};
  const search = s.search.trim();
  if (search) q.search = search;
  if (s.status) q.status = s.status;
  if (s.sortBy !== initialListState.sortBy || s.sortOrder !== initialListState.sortOrder) {
    q.sortBy = s.sortBy;
    q.sortOrder = s.sortOrder;
  }
  return q;
}

/** 'Showing N popup(s)', with the search text and the status filter appended. */
export function footerText(count: number, s: Pick<PopupListState, 'search' | 'status'>): string {
  const parts = [a.showing(count)];
  const search = s.search.trim();
  if (search) parts.push(a.showingMatching(search));
  if (s.status) parts.push(a.showingStatus(s.status === 'active' ? a.statusActive : a.statusInactive));
  return parts.join(' ');
}

/**
 * The popup a member would get at a first show, from what the form holds now: the preview.
 * Empty texts show placeholders; a limit of 0 snoozes is the last reminder at once.
 */
export function previewPopup(values: {
  title?: string | undefined;
  message?: string | undefined;
  actionLabel?: string | undefined;
  actionTarget?: string | undefined;
  maxSnoozes?: number | undefined;
  theme: PopupTheme;
}): MemberPopup {
  const maxSnoozes = typeof values.maxSnoozes === 'number' && Number.isFinite(values.maxSnoozes) ? Math.max(0, values.maxSnoozes) : 0;
  return {
    id: '00000000-0000-4000-8000-000000000000',
    title: values.title?.trim() || a.form.previewTitlePlaceholder,
    message: values.message?.trim() || a.form.previewMessagePlaceholder,
    theme: values.theme,
    canSnooze: maxSnoozes > 0,
    snoozeCount: 0,
    maxSnoozes,
    isLastReminder: maxSnoozes === 0,
    actionLabel: values.actionLabel?.trim() || DEFAULT_ACTION_LABEL,
    actionTarget: values.actionTarget ?? '',
  };
}
