import { type AdminPopup, type AdminPopupListQuery, POPUP_SORT_FIELDS, type PopupFormInput, type PopupSortField, type SortOrder } from '#shared/schemas/popups';
import { formatDateTime } from '#shared/dates';
import { SORT_ORDERS } from '#shared/schemas/common';
import { t } from '../../lib/i18n';
import { oneOf } from '../../lib/list-state';

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
  return `${formatDateTime(p.startAt)} - ${formatDateTime(p.endAt)}`;
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
  };
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
