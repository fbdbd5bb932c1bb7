/**
 * "Keep my cards on this device": a preference of the device, apart from the clearing in
 * device-data.ts, which only sign-out (loaded when used) needs.
 */
export const KEEP_CARDS_KEY = 'wellhaven.keepCards';

/** "Keep my cards on this device": off unless the member turned it on. */
export function readKeepCardsPreference(): boolean {
  try {
    return localStorage.getItem(KEEP_CARDS_KEY) === 'true';
  } catch {
    return false;
  }
}

export function writeKeepCardsPreference(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEEP_CARDS_KEY, 'true');
    else localStorage.removeItem(KEEP_CARDS_KEY);
  } catch {
    // Storage refused: the preference stays off, the safe side.
  }
}
