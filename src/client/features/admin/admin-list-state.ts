import {
  EMPLOYEE_STATUSES,
  EMPLOYER_SORT_FIELDS,
  type EmployeeListQuery,
  type EmployeeStatus,
  type EmployerListQuery,
  type EmployerSortField,
  SORT_ORDERS,
  type SortOrder,
  ADMIN_MAX_PAGE,
  ADMIN_PAGE_SIZE,
} from '#shared/schemas/admin';
import { t } from '../../lib/i18n';
import { oneOf } from '../../lib/list-state';

/**
 * The admin lists keep search, sort, filter and page in the URL query, so a list can be
 * shared and the back button returns to it. Defaults stay out of the URL; anything the
 * URL holds that is not a valid value falls back to the default.
 */

export interface EmployerListState {
  search: string;
  sortBy: EmployerSortField;
  sortOrder: SortOrder;
}

export interface EmployeeListState {
  search: string;
  status: EmployeeStatus | '';
  page: number;
}

export function readEmployerListState(params: URLSearchParams): EmployerListState {
  return {
    search: params.get('search') ?? '',
    sortBy: oneOf(EMPLOYER_SORT_FIELDS, params.get('sortBy'), 'name'),
    sortOrder: oneOf(SORT_ORDERS, params.get('sortOrder'), 'asc'),
  };
}

export function writeEmployerListState(state: EmployerListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search) params.set('search', state.search);
  if (state.sortBy !== 'name') params.set('sortBy', state.sortBy);
  if (state.sortOrder !== 'asc') params.set('sortOrder', state.sortOrder);
  return params;
}

/** The GET /api/admin/employers query parameters (empty ones are dropped from the URL). */
export function employerListQuery(state: EmployerListState): EmployerListQuery {
  return { search: state.search.trim(), sortBy: state.sortBy, sortOrder: state.sortOrder };
}

export function readEmployeeListState(params: URLSearchParams): EmployeeListState {
  const rawPage = params.get('page') ?? '';
  const page = /^\d{1,6}$/.test(rawPage) ? Number(rawPage) : 1;
  return {
    search: params.get('search') ?? '',
    status: oneOf<EmployeeStatus | ''>(['', ...EMPLOYEE_STATUSES], params.get('status'), ''),
    page: page >= 1 && page <= ADMIN_MAX_PAGE ? page : 1,
  };
}

export function writeEmployeeListState(state: EmployeeListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search) params.set('search', state.search);
  if (state.status) params.set('status', state.status);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** Spec section 4: status, search and page are independent; a new filter starts at page 1 (a new search too: lib/list-state). */
export function withStatus(state: EmployeeListState, status: EmployeeListState['status']): EmployeeListState {
  return state.status === status ? state : { ...state, status, page: 1 };
}

export function employeeListQuery(state: EmployeeListState): EmployeeListQuery {
  return { search: state.search.trim(), status: state.status || undefined, page: state.page, size: ADMIN_PAGE_SIZE };
}

/** 'Showing N employer(s)' plus 'matching "term"' while searching. */
export function employerFooter(count: number, search: string): string {
  const term = search.trim();
  const e = t.admin.employers;
  return term ? `${e.showing(count)} ${e.matching(term)}` : e.showing(count);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A route id that cannot name a record is simply "not found", without asking the server. */
export const isRecordId = (id: string | undefined): id is string => id !== undefined && UUID.test(id);
