import { readKeepCardsPreference } from './keep-cards';

/**
 * Sign-out's promise that member answers leave the device, kept across a closed tab, a
 * reload and a clearing whose code could not be downloaded: the mark is written to
 * localStorage, synchronously, before a session's end starts anything asynchronous, and
 * removed only once device-data.ts has finished (`settleDeviceClear` there). A mark found when the app starts or a
 * member signs in is acted on first. Kept tiny: it is part of /login's first download; the
 * clearing itself is loaded when used.
 */
export const DEVICE_CLEAR_KEY = 'wellhaven.deviceClearPending';

/** The session on this device has ended: its answers must go (the cards too unless kept). */
export function markDeviceClearPending(keepCards: boolean = readKeepCardsPreference()): void {
  try {
    // A clearing already owed that removes the cards stays so.
    if (localStorage.getItem(DEVICE_CLEAR_KEY) === 'all') return;
    localStorage.setItem(DEVICE_CLEAR_KEY, keepCards ? 'keep-cards' : 'all');
  } catch {
    // Storage refused: the clearing still runs now; only its retry is lost.
  }
}

/** The clearing still owed on this device, if any. */
export function pendingDeviceClear(): { keepCards: boolean } | null {
  try {
    const value = localStorage.getItem(DEVICE_CLEAR_KEY);
    return value === null ? null : { keepCards: value === 'keep-cards' };
  } catch {
    return null;
  }
}

/** Runs the clearing owed, if any; rejects when its code cannot be loaded (the mark stays). */
export async function runPendingDeviceClear(): Promise<void> {
  const pending = pendingDeviceClear();
  if (!pending) return;
  const { clearDeviceData } = await import('./device-data');
  await clearDeviceData(pending);
}
