import './lib/zod-csp';
import { preloadFirstScreen } from './app/first-screen';
import { DEFAULT_LANGUAGE } from '#shared/i18n/languages';
import { language, loadTranslation } from './lib/language';
import { applyThemeChoice, readThemeChoice } from './lib/theme';
import './styles.css';

/*
 * The page's only script, kept small so that it runs as soon as it arrives: index.html
 * preloads the app chunk in parallel (vite.config.ts), and this starts the first screen's
 * code at the same time, so neither waits for the other.
 */
applyThemeChoice(readThemeChoice());
document.documentElement.lang = language;
// A translation comes first: every screen's code reads its strings as it loads.
if (language === DEFAULT_LANGUAGE) preloadFirstScreen(window.location.pathname);
void loadTranslation().then(() => {
  if (language !== DEFAULT_LANGUAGE) preloadFirstScreen(window.location.pathname);
  return import('./app/start');
});
