import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { Drawing } from '../lib/drawing';
import { createQueryClient } from '../lib/query-client';
import { CONFIG_KEY } from '../lib/query-scopes';
import { AppProviders } from './providers';
import { AppRoutes } from './router';

/**
 * A screen as the app's first render in a browser draws it on the device the build describes
 * (scripts/prerender.mjs: signed out for /login; for /home, a session of no one in particular,
 * so Home is nameless, and the verify banner is drawn hidden for the page's script to show
 * where the member's is due: lib/drawn-banner.ts), as HTML, with the configuration on its way (its request
 * starts with that render, so the header's brand is the same placeholder). start.tsx renders the
 * app over it: React replaces it with the member's own screen.
 */
export async function renderScreen(location: string): Promise<string> {
  const queryClient = createQueryClient();
  void queryClient.prefetchQuery({ queryKey: CONFIG_KEY, queryFn: () => new Promise<never>(() => undefined) });
  const { prelude } = await prerender(
    <StrictMode>
      <Drawing value>
        <AppProviders queryClient={queryClient}>
          <StaticRouter location={location}>
            <AppRoutes />
          </StaticRouter>
        </AppProviders>
      </Drawing>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
