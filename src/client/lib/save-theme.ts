import { THEME_KEY, type ThemeChoice, applyThemeChoice } from './theme';

/** The member's choice in the menu: kept on this device and applied at once. */
export function saveThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  applyThemeChoice(choice);
}
