import { paths } from '#shared/paths';
import { loadTranslation } from '../lib/language';

/**
 * The sign-in screen as HTML, in the language this process's storage names (the build's
 * scripts/prerender.mjs sets it). As main.tsx does, the translation comes first: every screen's
 * module reads its strings as it loads.
 */
export async function renderSignInScreen(): Promise<string> {
  await loadTranslation();
  const { renderScreen } = await import('./static-screen');
  return renderScreen(paths.login);
}

export { LANGUAGES } from '#shared/i18n/languages';
