/**
 * Whether "Keep my cards on this device" is on, for the route guard: the same stored flag as
 * lib/device-data's readKeepCardsPreference, read without importing that module, which brings
 * the IndexedDB and cache code into the first download of every screen (/login included).
 * keep-cards-flag.test.ts holds the two to the same key.
 */
export const KEEP_CARDS_FLAG_KEY = 'wellhaven.keepCards';

export function keepCardsOn(): boolean {
  try {
    return localStorage.getItem(KEEP_CARDS_FLAG_KEY) === 'true';
  } catch {
    return false;
  }
}
