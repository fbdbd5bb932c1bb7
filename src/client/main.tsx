import './lib/zod-csp';
import { preloadFirstScreen } from './app/first-screen';
import { DEFAULT_LANGUAGE } from '#shared/i18n/languages';
import { language, loadTranslation } from './lib/language';
import { showDrawnBanner } from './lib/drawn-banner';
import { replayPrerenderedTaps } from './lib/prerendered-clicks';
import { watchPrerenderedInput } from './lib/prerendered-input';
import { applyThemeChoice, readThemeChoice } from './lib/theme';
import './styles.css';

/*
 * The page's only script, kept small so that it runs as soon as it arrives: index.html
 * preloads the app chunk in parallel (vite.config.ts), and this starts the first screen's
 * code at the same time, so neither waits for the other. /login's HTML, and a signed-in
 * device's /home, carry their screen instead (docs/decisions/prerendered-sign-in.md and
 * prerendered-home.md): the app comes once that has been shown.
 */
const root = document.getElementById('root')!;
// /login's and /home's HTML carry their screen: what the member types or taps in it before the
// app is here is kept.
watchPrerenderedInput(root);
replayPrerenderedTaps(root);
// A drawn Home's verify banner, for a member who is asked to verify: this script holds Home's
// first paint (scripts/prerender.mjs), so it is there from the start.
showDrawnBanner(root);
applyThemeChoice(readThemeChoice());
document.documentElement.lang = language;
// A translation comes first: every screen's code reads its strings as it loads. A screen the
// HTML carries is shown before any code of it is fetched.
const preloadAtOnce = language === DEFAULT_LANGUAGE && !root.hasChildNodes();
if (preloadAtOnce) preloadFirstScreen(window.location.pathname);
void loadTranslation()
  .then(afterFirstPaint)
  .then(() => {
    if (!preloadAtOnce) preloadFirstScreen(window.location.pathname);
    return import('./app/start');
  });

/** The longest the app waits for the drawn screen to show (a page opened in the background never paints). */
const FIRST_PAINT_WAIT_MS = 300;

/**
 * A page that arrives with its screen drawn (/login, scripts/prerender.mjs) shows it before the
 * app's code runs: the app's start is a long task, and a paint waits for it. The browser says
 * when the screen has been shown (its first contentful paint); the app starts in the next task.
 */
function afterFirstPaint(): Promise<void> {
  if (!root.hasChildNodes()) return Promise.resolve();
  return new Promise((resolve) => {
    const start = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(start, FIRST_PAINT_WAIT_MS);
    // A browser without paint timing ignores the type: the wait is then the timer's.
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length > 0) setTimeout(start);
    });
    observer.observe({ type: 'paint', buffered: true });
  });
}
