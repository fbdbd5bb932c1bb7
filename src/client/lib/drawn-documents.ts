import { drawnDocument } from '#shared/drawn-screens';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, SIGNED_IN_COOKIE, isLanguage, pickLanguage } from '#shared/i18n/languages';
import { paths } from '#shared/paths';

export interface NavigationContext {
  /** A cookie the app keeps for these addresses (lib/address-cookie.ts): null when it is not set, undefined where cookies cannot be read. */
  cookie(name: string): Promise<string | null | undefined>;
  /** The reader's languages, best first (`navigator.languages`). */
  preferred: readonly string[];
}

/**
 * The drawn document (its path in the built client) a page navigation is answered with, as
 * the server chooses it (src/server/plugins/client.ts): `/login` in the device's saved
 * language, else the reader's preferred one; `/home` only on a device that says it holds a
 * session, in its pages' language. Undefined: the app shell, which is also the answer where the
 * cookies cannot be read (a drawn screen in one language and the app in another would switch
 * under the reader's eyes).
 */
export async function drawnDocumentFor(pathname: string, context: NavigationContext): Promise<string | undefined> {
  if (pathname === paths.login) {
    const saved = await context.cookie(LANGUAGE_COOKIE);
    if (saved === undefined) return undefined;
    return `/${drawnDocument('login', isLanguage(saved) ? saved : (pickLanguage(context.preferred) ?? DEFAULT_LANGUAGE))}`;
  }
  if (pathname === paths.home) {
    const language = await context.cookie(SIGNED_IN_COOKIE);
    return isLanguage(language) ? `/${drawnDocument('home', language)}` : undefined;
  }
  return undefined;
}
