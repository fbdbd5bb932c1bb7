import './lib/zod-csp';
import { preloadFirstScreen } from './app/first-screen';
import { applyThemeChoice, readThemeChoice } from './lib/theme';
import './styles.css';

/*
 * The page's only script, kept small so that it runs as soon as it arrives: index.html
 * preloads the app chunk in parallel (vite.config.ts), and this starts the first screen's
 * code at the same time, so neither waits for the other.
 */
applyThemeChoice(readThemeChoice());
preloadFirstScreen(window.location.pathname);
void import('./app/start');
