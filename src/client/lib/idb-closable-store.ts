import { promisifyRequest, type UseStore } from 'idb-keyval';
import { type ClosableStore, trackStore } from './idb-store';

// Apart from idb-store.ts, which sign-out imports with the first screen: only the code that
// keeps data on the device (query-persist.ts, card-store.ts, loaded once signed in) needs this.

/**
 * An idb-keyval store whose connection can be closed, so the database can be deleted at once:
 * idb-keyval's own createStore keeps its connection open for the page's life, and a delete
 * waits ("blocked") while any connection is open. The connection also closes itself when
 * another tab deletes or upgrades the database, and the next use opens it afresh.
 */
export function createClosableStore(dbName: string, storeName: string): ClosableStore {
  let dbp: Promise<IDBDatabase> | null = null;
  const open = () => {
    if (!dbp) {
      const request = indexedDB.open(dbName);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(storeName)) request.result.createObjectStore(storeName);
      };
      const opened = promisifyRequest(request).then((db) => {
        const forget = () => {
          if (dbp === opened) dbp = null;
        };
        db.onversionchange = () => {
          db.close();
          forget();
        };
        db.onclose = forget;
        return db;
      });
      opened.catch(() => {
        if (dbp === opened) dbp = null;
      });
      dbp = opened;
    }
    return dbp;
  };
  const store: UseStore = (txMode, callback) => open().then((db) => callback(db.transaction(storeName, txMode).objectStore(storeName)));
  const close = async () => {
    const current = dbp;
    dbp = null;
    if (!current) return;
    const db = await current.catch(() => null);
    db?.close();
  };
  const closable = { store, close };
  trackStore(dbName, closable);
  return closable;
}

