import { type ReactNode, startTransition, useLayoutEffect, useState } from 'react';
import { type Navigator, Router, type To, UNSAFE_createBrowserHistory as createBrowserHistory } from 'react-router';

interface AppRouterProps {
  /** Loads the code of the screens `to` leads to (read once, at mount). */
  preload: (to: To) => Promise<unknown>;
  children: ReactNode;
}

/**
 * React Router's BrowserRouter, except that a push or replace waits until the next screen's
 * code has loaded, as the data router's lazy routes did: the address bar and the screen
 * change together, and of two quick navigations only the last one happens. Back and forward
 * change the address at once (the browser does that); the screen follows in a transition,
 * so the current one stays until the next is ready.
 */
export function AppRouter({ preload, children }: AppRouterProps) {
  const [history] = useState(() => createBrowserHistory({ window, v5Compat: true }));
  const [state, setState] = useState(() => ({ action: history.action, location: history.location }));
  const [nav] = useState(() => {
    let latest = 0;
    const afterPreload = (go: (to: To, state?: unknown) => void) => (to: To, routeState?: unknown) => {
      const id = ++latest;
      void preload(to)
        .catch(() => undefined)
        .then(() => {
          if (id === latest) go(to, routeState);
        });
    };
    const navigator: Navigator = {
      createHref: history.createHref,
      encodeLocation: history.encodeLocation,
      go: (delta) => {
        latest += 1;
        history.go(delta);
      },
      push: afterPreload(history.push),
      replace: afterPreload(history.replace),
    };
    return { navigator, cancelPending: () => void (latest += 1) };
  });

  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        if (action === 'POP') nav.cancelPending();
        startTransition(() => setState({ action, location }));
      }),
    [history, nav],
  );

  return (
    <Router location={state.location} navigationType={state.action} navigator={nav.navigator}>
      {children}
    </Router>
  );
}
