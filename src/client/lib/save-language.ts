import type { Language } from '#shared/i18n/languages';
import { paths } from '#shared/paths';
import { shareLanguageChoice } from './address-cookie';
import { shareSignedInLanguage, storedToken } from './auth-storage';
import { LANGUAGE_KEY, language, readSavedLanguage } from './language';

/** Tells the server the device's choice, so that /login's HTML (and, signed in, /home's) comes in it. */
function shareSavedLanguage(choice: Language) {
  shareLanguageChoice(choice);
  if (storedToken()) shareSignedInLanguage(choice);
}

/**
 * The member's choice of language: kept on this device (and, signed in, on the account through
 * `saveOnAccount`), then the page reloads in it, so no string read before the switch stays behind.
 */
export async function saveLanguage(choice: Language, saveOnAccount?: (choice: Language) => Promise<unknown>, reopenAt?: string) {
  try {
    localStorage.setItem(LANGUAGE_KEY, choice);
    shareSavedLanguage(choice);
  } catch {
    // Storage refused (private mode): the account's choice, if saved, still follows the member.
  }
  // Offline or refused: the device keeps the choice; the account catches up at the next sign-in.
  await saveOnAccount?.(choice).catch(() => undefined);
  if (choice === language) return;
  if (reopenAt) window.location.replace(reopenAt);
  else window.location.reload();
}

/**
 * At sign-in: a choice made on this device goes to the account; a device with no choice of its
 * own takes the account's (and reloads in it when it differs from the page's).
 */
export function adoptAccountLanguage(accountLanguage: Language | null, saveOnAccount: (choice: Language) => Promise<unknown>) {
  const device = readSavedLanguage();
  if (device) {
    // A choice saved before the cookie existed reaches it here.
    shareSavedLanguage(device);
    if (device !== accountLanguage) void saveOnAccount(device).catch(() => undefined);
  } else if (accountLanguage && accountLanguage !== language) {
    // Signing in moves on to Home: the page opens there, in the account's language.
    void saveLanguage(accountLanguage, undefined, paths.home);
  }
}
