import { loadTranslation } from '../lib/language';

/**
 * A screen as HTML, in the language this process's storage names and as its session stands (the
 * build's scripts/prerender.mjs sets both). As main.tsx does, the translation comes first: every
 * screen's module reads its strings as it loads.
 */
export async function renderFirstScreen(location: string): Promise<string> {
  await loadTranslation();
  const { renderScreen } = await import('./static-screen');
  return renderScreen(location);
}

export { LANGUAGES } from '#shared/i18n/languages';
export { drawnDocument } from '#shared/drawn-screens';
