import { type ComponentType, lazy, useState } from 'react';
import { type Location, type RouteObject, matchRoutes } from 'react-router';

/** What a lazily loaded route keeps in `handle`: its chunk loader. */
export interface LazyRouteHandle {
  preload(): Promise<unknown>;
}

/**
 * A route whose screen is lazily loaded: each screen is its own chunk (React.lazy; the
 * Suspense boundary is in AppRoutes). `props` are passed to the screen. A screen whose code
 * is already here (preloaded: the first screen, every navigation) renders at once, without
 * suspending to the skeleton for a moment.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'element' | 'handle'>;
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, props: P): Pick<RouteObject, 'element' | 'handle'>;
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, props?: P): Pick<RouteObject, 'element' | 'handle'> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  let loaded: ComponentType<P> | undefined;
  const once = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(once) as ComponentType<P>;
  function Page(pageProps: P) {
    // Chosen once per mount: switching component types later would remount the screen.
    const [Screen] = useState(() => loaded ?? Lazy);
    return <Screen {...pageProps} />;
  }
  const handle: LazyRouteHandle = { preload: once };
  return { element: <Page {...(props as P)} />, handle };
}

/**
 * Loads the chunk of every route matching `location` at once, so that a lazy layout and its
 * lazy page load side by side rather than one after the other (React.lazy alone would start
 * the page only once the layout has rendered its Outlet). Never rejects: a chunk that cannot
 * be fetched fails again when its screen renders, and the error boundary shows it.
 */
export function preloadMatches(routes: RouteObject[], location: Partial<Location> | string): Promise<unknown> {
  // Asked again for the same address (every render of the routes asks): each chunk is loaded
  // once anyway, so the last answer stands, without matching the table again.
  const pathname = typeof location === 'string' ? location : (location.pathname ?? '/');
  if (lastPreload?.routes === routes && lastPreload.pathname === pathname) return lastPreload.done;
  const matches = matchRoutes(routes, location) ?? [];
  const done = Promise.all(matches.map(({ route }) => (route.handle as LazyRouteHandle | undefined)?.preload().catch(() => undefined)));
  lastPreload = { routes, pathname, done };
  return done;
}

/** The last address preloadMatches matched, and its answer. */
let lastPreload: { routes: RouteObject[]; pathname: string; done: Promise<unknown> } | undefined;
