import { DEVICE_CLEAR_KEY } from './device-clear';
import { APP_DATABASES, CARDS_DB, deleteDatabase, stopAndCloseStores } from './idb-store';

/** The one Cache Storage cache that may hold cards (kept with "Keep my cards on this device"). */
export const CARDS_CACHE = 'wellhaven-cards';
/**
 * Workbox's precache holds only the built app (scripts, styles, icons), never member answers,
 * and without it the app no longer opens offline, so sign-out leaves it.
 */
const isAppShellCache = (name: string) => name.startsWith('workbox-precache');

async function clearCaches(keepCards: boolean) {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys().catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => !isAppShellCache(name) && !(keepCards && name === CARDS_CACHE))
      .map((name) => caches.delete(name).catch(() => false)),
  );
}

async function clearDatabases(keepCards: boolean) {
  if (typeof indexedDB === 'undefined') return;
  const names = new Set<string>(APP_DATABASES);
  // Every other database this origin holds too (none of the app's own should be missed).
  if (typeof indexedDB.databases === 'function') {
    const listed = await indexedDB.databases().catch(() => []);
    for (const db of listed) if (db.name) names.add(db.name);
  }
  if (keepCards) names.delete(CARDS_DB);
  await Promise.all([...names].map((name) => deleteDatabase(name)));
}

/** The clearing still owed on this device (device-clear.ts), if any. */
export function pendingDeviceClear(): { keepCards: boolean } | null {
  try {
    const value = localStorage.getItem(DEVICE_CLEAR_KEY);
    return value === null ? null : { keepCards: value === 'keep-cards' };
  } catch {
    return null;
  }
}

/** A clearing has finished: the mark that it was owed goes, unless it asked for more (the cards too) than was done. */
function settleDeviceClear(done: { keepCards: boolean }): void {
  const pending = pendingDeviceClear();
  try {
    if (pending && (!done.keepCards || pending.keepCards)) localStorage.removeItem(DEVICE_CLEAR_KEY);
  } catch {
    // Storage refused: the next start clears again, which changes nothing.
  }
}

/**
 * Removes every member answer and card from this device: every Cache Storage cache but the
 * app shell's, and every IndexedDB database. With keepCards, the cards (their database and
 * cache) stay and nothing else does. Never throws: sign-out goes on whatever storage says.
 * Then the mark that a clearing is owed (device-clear.ts) is settled.
 */
export async function clearDeviceData(options: { keepCards: boolean }): Promise<void> {
  const { keepCards } = options;
  await stopAndCloseStores(keepCards ? CARDS_DB : null);
  await Promise.all([clearCaches(keepCards).catch(() => undefined), clearDatabases(keepCards).catch(() => undefined)]);
  settleDeviceClear({ keepCards });
}

/** Runs the clearing owed (the mark), or `owed` when storage held no mark. */
export async function clearOwed(owed?: { keepCards: boolean }): Promise<void> {
  const clearing = pendingDeviceClear() ?? owed;
  if (clearing) await clearDeviceData(clearing);
}
