import type { QueryClient } from '@tanstack/react-query';
import { configQueryOptions } from '../features/config/use-config';
import { readStoredSession } from '../lib/auth-storage';
import { meQueryOptions } from '../lib/me-query';

/**
 * Asks for what every first screen reads before it renders: the brand configuration and, on a
 * device holding a session, the session user (which AuthProvider confirms the stored session
 * with). The providers' own reads then find them on their way (or answered) instead of
 * starting them: the requests leave a render earlier, and their cost (TanStack's fetch, `fetch`
 * itself) is not part of React's first effects, which run in one task
 * (docs/performance-log.md, stop 41). A read that has already failed when the providers mount
 * is asked for once more, as it is whenever a screen mounts over a failed read.
 *
 * A 401 for the session user can now come back before the first render: the api client
 * clears the stored session and starts the app over (`sessionEnded`) as before, and the
 * answers' store writes nothing for a session no longer stored (lib/query-persist.ts).
 */
export function startFirstReads(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(configQueryOptions);
  if (readStoredSession()) void queryClient.prefetchQuery(meQueryOptions());
}
