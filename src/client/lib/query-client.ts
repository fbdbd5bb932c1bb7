import { QueryClient } from '@tanstack/react-query';
import { ApiError, keyQueryFn } from './api-client';

/** Spec section 9: no refetch interval, no refetch on focus, never stale, no retries. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: keyQueryFn,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
        // An admin read refused with 403 (the session is not stepped up) throws to the admin
        // layout, which offers Admin Access instead of the screen.
        throwOnError: (error, query) => error instanceof ApiError && error.code === 'forbidden' && String(query.queryKey[0]).startsWith('/api/admin/'),
      },
      // 'always': a write offline runs at once and api-client refuses it ("You're offline..."),
      // instead of TanStack's default of pausing it, unseen, until the connection returns.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
