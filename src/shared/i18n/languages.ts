/** The languages the app speaks. English is the spec's text and the fallback. */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language named in itself, so a reader finds theirs whatever is showing. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', es: 'Español' };

/** The BCP 47 tag for formats and speech: US English and US Spanish. */
export const LANGUAGE_LOCALES: Readonly<Record<Language, string>> = { en: 'en-US', es: 'es-US' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The first of the reader's preferred tags (best first, as `navigator.languages`) that the app speaks. */
export function pickLanguage(preferred: readonly string[]): Language | undefined {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return undefined;
}

/**
 * The device's saved choice, as a cookie sent with `/login` only: the server answers that
 * address with the sign-in screen already drawn in it (docs/decisions/prerendered-sign-in.md).
 */
export const LANGUAGE_COOKIE = 'wellhaven-language';

/**
 * That this device holds a session, and the language its pages are in, as a cookie sent with
 * `/home` only: the server answers that address with Home already drawn in it. It holds the
 * language and nothing else (never the token), and goes when the session leaves the device
 * (docs/decisions/prerendered-home.md).
 */
export const SIGNED_IN_COOKIE = 'wellhaven-signed-in';
