import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';
import { get, set } from 'idb-keyval';
import { readStoredSession } from './auth-storage';
import { createClosableStore } from './idb-closable-store';
import { QUERIES_DB, beforeDeviceDataClear } from './idb-store';
import { isMemberQuery } from './query-scopes';

/**
 * The member's last answers (GET /api/... reads) kept in IndexedDB, so data screens show them
 * offline. The service worker never caches API answers: this store is the only copy, and
 * sign-out deletes it (clearDeviceData). Admin answers are never kept.
 */
const queries = createClosableStore(QUERIES_DB, 'queries');
const KEY = 'cache';
const WRITE_DELAY_MS = 500;
/** Answers older than this are not restored. */
export const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Changes when the shape of what is kept changes, so old copies are dropped. */
export const BUSTER = 'v2';

type Stored = { userId: string; buster: string; savedAt: number; state: DehydratedState };

export function isPersistedQuery(query: Query): boolean {
  return query.state.status === 'success' && query.state.data !== undefined && isMemberQuery(query);
}

let active: { client: QueryClient; userId: string; stop(): void } | null = null;

/**
 * Puts the user's kept answers back into the cache (those the cache does not have yet), marked
 * for a refetch. Returns when they were saved, or null when there were none for this user.
 */
export async function restoreQueries(client: QueryClient, userId: string, now = Date.now()): Promise<number | null> {
  let stored: Stored | undefined;
  try {
    stored = await get<Stored>(KEY, queries.store);
  } catch {
    return null;
  }
  if (!stored || stored.userId !== userId || stored.buster !== BUSTER || now - stored.savedAt > MAX_AGE_MS) return null;
  const missing: DehydratedState = {
    mutations: [],
    queries: stored.state.queries.filter((q) => client.getQueryState(q.queryKey)?.status !== 'success'),
  };
  hydrate(client, missing);
  // Kept answers are shown, not trusted: each is fetched afresh once there is a connection
  // (data never goes stale by itself here, spec section 9). A fetch already under way is left to finish.
  for (const q of missing.queries) void client.invalidateQueries({ queryKey: q.queryKey, exact: true }, { cancelRefetch: false });
  return stored.savedAt;
}

async function write(client: QueryClient, userId: string) {
  // Only while this user's session is stored here: persistence whose code arrived after the
  // session ended (a 401 starting the app over, the device's clearing perhaps already run)
  // writes nothing back.
  if (readStoredSession()?.user.id !== userId) return;
  const state = dehydrate(client, { shouldDehydrateQuery: isPersistedQuery, shouldDehydrateMutation: () => false });
  const entry: Stored = { userId, buster: BUSTER, savedAt: Date.now(), state };
  await set(KEY, entry, queries.store).catch(() => undefined);
}

/**
 * Restores the user's kept answers, then keeps the store in step with the cache (a write at most
 * every half second) until stopQueryPersistence. Starting for another user stops the first.
 */
export function startQueryPersistence(client: QueryClient, userId: string): () => void {
  if (active?.client === client && active.userId === userId) return stopQueryPersistence;
  stopQueryPersistence();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let restored = false;
  const schedule = () => {
    if (stopped || !restored || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped) void write(client, userId);
    }, WRITE_DELAY_MS);
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' || event.type === 'removed') schedule();
  });
  void restoreQueries(client, userId).finally(() => {
    restored = true;
    schedule();
  });
  active = {
    client,
    userId,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      unsubscribe();
    },
  };
  return stopQueryPersistence;
}

/** Stops keeping answers (sign-out): no write is left pending that could bring the store back. */
export function stopQueryPersistence(): void {
  active?.stop();
  active = null;
}

beforeDeviceDataClear(stopQueryPersistence);

/** When the kept answers were saved, or null: the "showing information from <time>" time. */
export async function savedAt(): Promise<number | null> {
  try {
    return (await get<Stored>(KEY, queries.store))?.savedAt ?? null;
  } catch {
    return null;
  }
}

export function closeQueryStore(): Promise<void> {
  return queries.close();
}
