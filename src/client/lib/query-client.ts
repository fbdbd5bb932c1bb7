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
        throwOnError: (error, query) => error instanceof ApiError && error.status === 403 && String(query.queryKey[0]).startsWith('/api/admin/'),
      },
      mutations: { retry: false },
    },
  });
}
