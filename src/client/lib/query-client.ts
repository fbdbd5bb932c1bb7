import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { isAdminQuery } from './query-scopes';

/**
 * Spec section 9: no refetch interval, no refetch on focus, never stale, no retries. No default
 * query function: every query names its fetcher (lib/query-keys has the keys).
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
        // An admin read refused with 403 (the session is not stepped up) throws to the admin
        // layout, which offers Admin Access instead of the screen.
        throwOnError: (error, query) => error instanceof ApiError && error.code === 'forbidden' && isAdminQuery(query),
      },
      // 'always': a write offline runs at once and api-client refuses it ("You're offline..."),
      // instead of TanStack's default of pausing it, unseen, until the connection returns.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
