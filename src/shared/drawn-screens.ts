import type { Language } from './i18n/languages';

/** The screens the build draws into their HTML (scripts/prerender.mjs). */
export type DrawnScreen = 'login' | 'home';

/**
 * The document a screen is drawn into for a language, at the root of the built client: what
 * the build writes, the server sends (plugins/client.ts) and the service worker answers from
 * its precache (client/sw.ts).
 */
export const drawnDocument = (screen: DrawnScreen, language: Language) => `${screen}.${language}.html`;
