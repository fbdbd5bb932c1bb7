import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { preloadMatches } from './lazy-page';

/** A route table whose lazy screens count their loads (no `once` of their own, unlike lazyPage's). */
function table() {
  const layout = vi.fn(async () => undefined);
  const home = vi.fn(async () => undefined);
  const health = vi.fn(async () => undefined);
  const routes: RouteObject[] = [
    {
      handle: { preload: layout },
      children: [
        { path: '/home', handle: { preload: home } },
        { path: '/health', handle: { preload: health } },
      ],
    },
  ];
  return { routes, layout, home, health };
}

describe('preloadMatches', () => {
  it('starts the code of every route the address matches, layout and screen together', async () => {
    const { routes, layout, home, health } = table();
    await preloadMatches(routes, { pathname: '/home' });
    expect(layout).toHaveBeenCalledTimes(1);
    expect(home).toHaveBeenCalledTimes(1);
    expect(health).not.toHaveBeenCalled();
  });

  it('does not match the table again for the address it matched last (every render asks)', async () => {
    const { routes, layout, home, health } = table();
    const first = preloadMatches(routes, { pathname: '/home' });
    expect(preloadMatches(routes, '/home')).toBe(first);
    expect(home).toHaveBeenCalledTimes(1);
    await preloadMatches(routes, { pathname: '/health' });
    expect(health).toHaveBeenCalledTimes(1);
    expect(layout).toHaveBeenCalledTimes(2);
    // Another table is matched on its own, whatever the address.
    const other = table();
    await preloadMatches(other.routes, { pathname: '/health' });
    expect(other.health).toHaveBeenCalledTimes(1);
  });

  it('never rejects: a chunk that cannot be fetched fails again when its screen renders', async () => {
    const { routes, home } = table();
    home.mockRejectedValueOnce(new Error('offline'));
    await expect(preloadMatches(routes, { pathname: '/home' })).resolves.toBeDefined();
  });
});
