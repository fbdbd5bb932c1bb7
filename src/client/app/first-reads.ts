import type { QueryClient } from '@tanstack/react-query';
import { configQueryOptions } from '../features/config/use-config';

/**
 * Asks for the brand configuration, which every first screen reads, before the first render.
 * ConfigProvider's read then finds it on its way (or answered) instead of starting it: the
 * request leaves a render earlier, and its cost (TanStack's fetch, `fetch` itself) is not part
 * of React's first effects, which run in one task (docs/performance-log.md, stop 41). A read
 * that has already failed when the provider mounts is asked for once more, as it is whenever a
 * screen mounts over a failed read.
 *
 * The session user is not asked for here but by AuthProvider, after the first render: a 401
 * for it ends the session and starts the app over (`sessionEnded`), and arriving before the
 * first render it would have the app render signed out and send the member to sign-in on its
 * own, while the page reloads.
 */
export function startFirstReads(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(configQueryOptions);
}
