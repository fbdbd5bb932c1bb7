import { paths } from '#shared/paths';
import { AUTH_TOKEN_KEY } from '../lib/session-keys';

/**
 * Starts fetching the code of the screen the address opens while the app's own code is still
 * on its way (main.tsx runs this before it). Only signed-in Home (or `/`, which leads there),
 * where every signed-in visit lands: any other screen's code starts when the app has read its
 * route table, one round trip later. The app's lazy routes import the same modules, and get
 * them from here.
 */
export function preloadFirstScreen(pathname: string) {
  if (pathname !== paths.home && pathname !== paths.root) return;
  try {
    if (!window.localStorage.getItem(AUTH_TOKEN_KEY)) return;
  } catch {
    return; // storage refused (private mode, policy): the app decides, as for any screen
  }
  void import('../features/members/components/member-layout').catch(() => undefined);
  void import('./home-route').catch(() => undefined);
}
