/*
 * The service worker (Workbox, built by vite-plugin-pwa; docs/decisions/pwa-offline.md). It
 * precaches the app shell, every member and sign-in screen's chunks and the screens the build
 * draws into their HTML, and answers page navigations from that precache: a device without a
 * signal opens every page. It caches no API answer (member data is kept by the app in
 * IndexedDB only, which sign-out deletes). A new version waits for the member's Reload.
 *
 * `/login` and a signed-in device's `/home` are answered with their drawn documents, as the
 * server answers them (src/server/plugins/client.ts), so a returning member sees the screen
 * before any code has run, not a blank page until it has (docs/decisions/prerendered-home.md).
 */
import { clientsClaim } from 'workbox-core';
import { type PrecacheEntry, cleanupOutdatedCaches, createHandlerBoundToURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { drawnDocumentFor } from './lib/drawn-documents';

declare const self: {
  /** The precache list, written in at build by scripts/service-worker.mjs. */
  __WB_MANIFEST: Array<PrecacheEntry | string>;
  /** The Cookie Store API: Chromium's workers and Safari 18.4's have it; elsewhere `/login` and `/home` get the shell from here. */
  cookieStore?: Pick<CookieStore, 'get'>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install controls the page already open (the same build), so a first visit works offline.
clientsClaim();

// The update card's Reload (app/pwa/update-card.tsx): only then does a waiting version take over.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/**
 * A cookie's value as the app wrote it for this worker (lib/address-cookie.ts: a worker reads
 * only the cookies of its own script's address); null when it is not set, undefined where this
 * worker cannot read cookies.
 */
async function cookie(name: string): Promise<string | null | undefined> {
  if (!self.cookieStore) return undefined;
  try {
    return (await self.cookieStore.get({ name, url: location.href }))?.value ?? null;
  } catch {
    return undefined;
  }
}

const appShell = createHandlerBoundToURL('/index.html');

registerRoute(
  new NavigationRoute(
    async (options) => {
      const drawn = await drawnDocumentFor(options.url.pathname, { cookie, preferred: navigator.languages });
      return (drawn ? await matchPrecache(drawn) : undefined) ?? appShell(options);
    },
    { denylist: [/^\/api(\/|$)/, /^\/\.well-known\//, /^\/(healthz|readyz|metrics)$/, /^\/manifest\.webmanifest$/] },
  ),
);
