import { readKeepCardsPreference } from './keep-cards';

/**
 * Sign-out's promise that member answers leave the device, kept across a closed tab, a
 * reload and a clearing whose code could not be downloaded: the mark is written to
 * localStorage, synchronously, before a session's end starts anything asynchronous, and
 * removed only once device-data.ts has finished. A mark found when the app starts with nobody
 * signed in, or when a member signs in, is acted on first. Kept tiny: it is part of /login's
 * first download; reading the mark back and the clearing itself are in device-data.ts, loaded
 * when used.
 */
export const DEVICE_CLEAR_KEY = 'wellhaven.deviceClearPending';

/**
 * The session on this device has ended: its answers must go (the cards too unless kept).
 * Returns what is owed, for the caller to clear now even if storage refused the mark.
 */
export function markDeviceClearPending(keepCards: boolean = readKeepCardsPreference()): { keepCards: boolean } {
  try {
    // A clearing already owed that removes the cards stays so.
    if (localStorage.getItem(DEVICE_CLEAR_KEY) === 'all') return { keepCards: false };
    localStorage.setItem(DEVICE_CLEAR_KEY, keepCards ? 'keep-cards' : 'all');
  } catch {
    // Storage refused: the caller clears now all the same; only the retry at the next start is lost.
  }
  return { keepCards };
}

/**
 * Runs the clearing owed (the mark), or `owed` when storage held no mark; with neither, loads
 * nothing. Rejects when the clearing's code cannot be loaded (or storage cannot be read): the
 * mark stays for the next start.
 */
export async function runPendingDeviceClear(owed?: { keepCards: boolean }): Promise<void> {
  // Async: storage that refuses to be read rejects here instead of throwing at the caller.
  if (owed || localStorage.getItem(DEVICE_CLEAR_KEY) !== null) await (await import('./device-data')).clearOwed(owed);
}
