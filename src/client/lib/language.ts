import { DEFAULT_LANGUAGE, isLanguage, type Language, pickLanguage } from '#shared/i18n/languages';
import type { translationsBySource } from '#shared/i18n/by-source';
import { formatterFor } from '#shared/i18n/format';
import type { Messages } from '#shared/messages/index';
import type { Translation } from '#shared/messages/translation';

/**
 * The language the page speaks, settled once as the page loads: the choice saved on this device
 * (the switcher, or the account's choice brought here at sign-in), else the browser's preferred
 * languages, else English. Changing it reloads the page (lib/save-language.ts), so every string,
 * those a module reads once included, is in one language.
 */
export const LANGUAGE_KEY = 'wellhaven.language';

export function readSavedLanguage(): Language | undefined {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

export const language: Language = readSavedLanguage() ?? pickLanguage(navigator.languages ?? []) ?? DEFAULT_LANGUAGE;

/** Numbers, counts, dates and times in the page's language: the one formatting module's formatter. */
export const format = formatterFor(language);

let translation: Translation<Messages> | undefined;
const english: Partial<Messages> = {};
let bySource: Map<string, string> | undefined;
let mapBySource: typeof translationsBySource | undefined;

/**
 * Fetches the page's translation. main.tsx waits for it before any screen's code runs, so
 * every module that reads a string reads it in the page's language. English is in the bundle.
 * If the translation cannot be fetched (offline, before the app was ever saved), the page
 * opens in English rather than not at all.
 */
export async function loadTranslation(): Promise<void> {
  if (language === DEFAULT_LANGUAGE) return;
  try {
    // Its chunk imports only the entry's (the formatter): no screen's code runs before it is here.
    ({ messages: translation, translationsBySource: mapBySource } = await import('#shared/messages/es/index'));
  } catch {
    document.documentElement.lang = DEFAULT_LANGUAGE;
  }
}

/** A catalogue area in the page's language: `pick` reads it from the translation, else English. */
export function inLanguage<T>(pick: (catalogue: Translation<Messages>) => T, english: T): T {
  return translation ? pick(translation) : english;
}

/**
 * An English catalogue sentence in the page's language. The shared zod schemas carry their
 * messages in English (one definition for client and server); a field's message is shown
 * through this. The server translates its own answers (Accept-Language), so those arrive ready.
 */
export function localize(text: string): string {
  if (!translation || !mapBySource) return text;
  bySource ??= mapBySource(english, translation);
  return bySource.get(text) ?? text;
}

/**
 * English catalogue areas, given as the code that shows them loads (lib/i18n.ts gives them all;
 * the sign-in check, which loads before it, gives the sign-in messages): the source side of `localize`.
 */
export function registerEnglish(areas: Partial<Messages>) {
  Object.assign(english, areas);
  bySource = undefined;
}
