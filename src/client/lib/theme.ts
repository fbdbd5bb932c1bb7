/**
 * The colour theme: the system's (prefers-color-scheme, in styles.css) unless the member chose
 * Light or Dark in the menu. The choice belongs to the device, like the cards preference: it is
 * kept in local storage (no personal data) and applied as data-theme on <html> by the page's
 * first script (main.tsx), so a chosen theme holds on every screen, signed in or out. The menu
 * changes it through lib/save-theme.ts, which that first script does not carry.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_KEY = 'wellhaven.theme';

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function applyThemeChoice(choice: ThemeChoice) {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}
