import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { SortOrder } from '#shared/schemas/common';

/**
 * The admin lists (employers, an employer's employees, popups) keep their search, filters,
 * sort and page in the URL query, so a list can be shared and the back button returns to
 * it. Each list supplies how its state is read from and written to the query; these are the
 * rules they share.
 */

/** `value` when it is one of `allowed`, else `fallback` (an invalid URL value is ignored). */
export const oneOf = <T extends string>(allowed: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** Spec section 4: choosing another sort field sorts ascending; the current one changes nothing. */
export function chooseSortField<S extends { sortBy: string; sortOrder: SortOrder }>(state: S, sortBy: S['sortBy']): S {
  return state.sortBy === sortBy ? state : { ...state, sortBy, sortOrder: 'asc' };
}

/** The direction toggle flips the order of the current field. */
export function toggleSortOrder<S extends { sortOrder: SortOrder }>(state: S): S {
  return { ...state, sortOrder: state.sortOrder === 'asc' ? 'desc' : 'asc' };
}

/** A new search term; a paged list starts again at page 1 (spec section 4). */
export function withSearch<S extends { search: string }>(state: S, search: string): S {
  return state.search === search ? state : { ...state, search, ...('page' in state ? { page: 1 } : {}) };
}

/**
 * A list's state from the URL, a setter that writes it back (`replace` for steps that should
 * not add a history entry), and `commitSearch` for the debounced search box, which reads the
 * current URL so a late keystroke cannot undo a filter chosen meanwhile.
 */
export function useUrlListState<S extends { search: string }>(read: (params: URLSearchParams) => S, write: (state: S) => URLSearchParams) {
  const [params, setParams] = useSearchParams();
  const state = read(params);
  const setState = (next: S, replace = false) => setParams(write(next), { replace });
  const commitSearch = useCallback(
    (search: string) => setParams((current) => write(withSearch(read(current), search)), { replace: true }),
    [setParams, read, write],
  );
  return { state, setState, commitSearch };
}
