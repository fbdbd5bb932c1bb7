import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app-router';
import { shareLanguageChoice } from '../lib/address-cookie';
import { cn } from '../lib/cn';
import { readSavedLanguage } from '../lib/language';
import { createQueryClient } from '../lib/query-client';
import { startFirstReads } from './first-reads';
import { AppProviders } from './providers';
import { AppRoutes, preloadRoute } from './router';

// The device's language choice, shared again at each start: a choice made before the service
// worker read its own copy of the cookie (lib/address-cookie.ts) gets that copy, and the worker
// can draw /login in it.
const savedLanguage = readSavedLanguage();
if (savedLanguage) shareLanguageChoice(savedLanguage);

/** How long the first render waits for its screen's code before showing the loading skeleton. */
const FIRST_SCREEN_WAIT_MS = 500;

/**
 * The app: React, the router, the providers and the sign-in screen, loaded by main.tsx.
 *
 * The first render waits (briefly) until the code of the screen the address asks for is here,
 * usually at once (main.tsx started it alongside this chunk): React then renders that screen
 * straight away, rather than the skeleton first and the screen 300 ms later at the earliest
 * (React holds back revealing content that replaces a fallback just shown). It renders in a
 * transition, so React yields to the browser every few milliseconds instead of blocking it
 * for the whole first render.
 */
const rootElement = document.getElementById('root')!;
/** A screen the HTML carries (/login, a signed-in device's /home) shows until the app's own replaces it. */
const drawn = rootElement.hasChildNodes();
const queryClient = createQueryClient();
// The root, with the listener React sets on it for every event type, is made in the render's
// task rather than during this chunk's evaluation, the longest task of the app's start.
const render = () => {
  const root = createRoot(rootElement);
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <AppRouter preload={preloadRoute}>
            <AppRoutes />
          </AppRouter>
        </AppProviders>
      </StrictMode>,
    ),
  );
};
let rendered = false;
const renderOnce = () => {
  if (rendered) return;
  rendered = true;
  clearTimeout(timer);
  // tailwind-merge's tables (on first use, inside one component's render, they would make that
  // slice of the render a long task), then the first render, each in a task of its own after
  // this chunk's evaluation: the page stays responsive while the app starts.
  setTimeout(() => {
    cn();
    setTimeout(render);
  });
};
// Over a drawn screen there is nothing to hurry for: the skeleton would only replace it, and
// take the taps prerendered-clicks.ts keeps for the app's screen with it.
const timer = drawn ? undefined : setTimeout(renderOnce, FIRST_SCREEN_WAIT_MS);
// The first screen's reads leave first, in a task of their own (first-reads.ts).
setTimeout(() => startFirstReads(queryClient));
// Matching the address in a task of its own too: the first match compiles React Router's
// matcher, which would lengthen this chunk's evaluation by as much again as React DOM's.
setTimeout(() => void preloadRoute(window.location).then(renderOnce));
