import type { UseStore } from 'idb-keyval';

/**
 * The IndexedDB databases this app keeps on the device. Every one of them holds member
 * answers, so sign-out (clearDeviceData) removes them all; only the cards one may be kept.
 */
export const CARDS_DB = 'wellhaven-cards';
export const QUERIES_DB = 'wellhaven-queries';
export const APP_DATABASES = [CARDS_DB, QUERIES_DB] as const;

export type ClosableStore = { store: UseStore; close(): Promise<void> };

/**
 * What clearDeviceData must do first, registered by the modules that are loaded (so it need
 * not import them, and they stay out of the first download): close each open store, stop
 * each writer.
 */
const openStores = new Map<string, Set<ClosableStore>>();
const stopHooks = new Set<() => void>();

/** Runs `stop` before device data is cleared (a writer that must not bring a store back). */
export function beforeDeviceDataClear(stop: () => void): void {
  stopHooks.add(stop);
}

/** Stops every registered writer and closes every open store but those of `keep`. */
export async function stopAndCloseStores(keep: string | null): Promise<void> {
  for (const stop of stopHooks) stop();
  const closing: Promise<void>[] = [];
  for (const [name, stores] of openStores) if (name !== keep) for (const store of stores) closing.push(store.close());
  await Promise.all(closing);
}

/** Registers a store that stopAndCloseStores must close (idb-closable-store.ts, loaded with the code that keeps data). */
export function trackStore(dbName: string, store: ClosableStore): void {
  if (!openStores.has(dbName)) openStores.set(dbName, new Set());
  openStores.get(dbName)!.add(store);
}

/** Deletes a database; resolves when it is gone (or could not be, e.g. private mode). */
export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.deleteDatabase(name);
    } catch {
      resolve();
      return;
    }
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
  });
}
