import { useCallback, useLayoutEffect, useRef } from 'react';
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

/**
 * Paging a list: the page would stay scrolled down at the pager, past the new page's first
 * rows. `toListTop` gives the list's heading (the ref's element, with tabIndex -1) focus and
 * scrolls it to the top of the screen, under the sticky header (styles.css: scroll-padding); it
 * does so again after each render until the new page shows (`shown`: not the previous
 * page kept on screen while the next one loads), as a shorter page could not scroll that far.
 */
export function useListTop<T extends HTMLElement = HTMLHeadingElement>(shown: boolean) {
  const heading = useRef<T>(null);
  const pending = useRef(false);
  useLayoutEffect(() => {
    if (!pending.current) return;
    heading.current?.scrollIntoView({ block: 'start' });
    if (shown) pending.current = false;
  });
  const toListTop = useCallback(() => {
    const el = heading.current;
    if (!el) return;
    pending.current = true;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'start' });
  }, []);
  return { heading, toListTop };
}
