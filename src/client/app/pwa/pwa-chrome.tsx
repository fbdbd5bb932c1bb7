import { onlineManager } from '@tanstack/react-query';
import { OfflineBanner } from './offline-banner';
import { QueryPersistence } from './query-persistence';
import { UpdatePrompt } from './update-prompt';

// TanStack Query assumes a connection until an `offline` event says otherwise; a page opened
// (or reloaded) offline starts offline, so its queries wait instead of failing to the error state.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

/**
 * Everything the installable, offline app adds to every screen: about 1 KiB with the app, less
 * than a lazy chunk of its own would cost in headers (docs/decisions/initial-js-budget.md).
 * What is large loads later: the kept answers' store once someone is signed in, and the
 * service worker (with its precache) once the page has loaded.
 */
export function PwaChrome() {
  return (
    <>
      <OfflineBanner />
      <QueryPersistence />
      {import.meta.env.PROD && <UpdatePrompt />}
    </>
  );
}
