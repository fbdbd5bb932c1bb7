import { Suspense, lazy, useEffect, useState } from 'react';
import { whenIdle } from '../../lib/when-idle';

// The card itself loads only when there is an update to announce: not part of /login's first download.
const UpdateCard = lazy(() => import('./update-card'));

/** The worker vite-plugin-pwa builds (generateSW: its default file name, for the whole origin). */
const SW_URL = '/sw.js';

/** Runs `run` once the page has loaded (at once if it has), so the worker's precache does not compete with the first screen. */
function afterLoad(run: () => void): () => void {
  if (document.readyState === 'complete') {
    run();
    return () => undefined;
  }
  window.addEventListener('load', run, { once: true });
  return () => window.removeEventListener('load', run);
}

/**
 * Calls `onWaiting` when a new version has installed and waits behind a page the worker already
 * controls: found waiting at start (installed by an earlier visit or another tab), or installed
 * while this page is open. The first install (no controller yet) is no update.
 */
function watchForUpdates(registration: ServiceWorkerRegistration, onWaiting: () => void) {
  const check = () => {
    if (registration.waiting && navigator.serviceWorker.controller) onWaiting();
  };
  check();
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') check();
    });
  });
}

/**
 * Registers the service worker (at an idle moment after the page has loaded: Workbox advises
 * waiting for the load) and, when a new version has installed, says so with a Reload button.
 * The new version waits until the member chooses to reload (Workbox's SKIP_WAITING message,
 * then a reload when it has taken over), so
 * nothing swaps the app under a half-typed form.
 *
 * Registered by hand rather than with workbox-window (vite-plugin-pwa's `useRegisterSW`): the
 * same steps for this one worker in 1 KiB with the app, instead of two more scripts (3.5 KiB
 * with their headers) on every first visit (docs/decisions/initial-js-budget.md).
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState<ServiceWorkerRegistration | null>(null);
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return undefined;
    let cancelled = false;
    let cancelRegister: (() => void) | undefined;
    // At an idle moment after the load: registering is a task of its own, not part of the one
    // that commits the first screen.
    const stopWaitingForLoad = afterLoad(() => {
      cancelRegister = whenIdle(() => {
        navigator.serviceWorker
          .register(SW_URL, { scope: '/' })
          .then((registration) => {
            if (!cancelled) watchForUpdates(registration, () => setWaiting(registration));
          })
          .catch(() => undefined); // no worker (private mode, policy): the app works online as before
      });
    });
    return () => {
      cancelled = true;
      stopWaitingForLoad();
      cancelRegister?.();
    };
  }, []);

  if (!waiting) return null;
  return (
    <Suspense fallback={null}>
      <UpdateCard registration={waiting} onLater={() => setWaiting(null)} />
    </Suspense>
  );
}
