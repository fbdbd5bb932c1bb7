import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { IDBFactory } from 'fake-indexeddb';
import { get, set } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from './auth-storage';
import { closeCardStore, loadCards, saveCards } from './card-store';
import { DEVICE_CLEAR_KEY, markDeviceClearPending, runPendingDeviceClear } from './device-clear';
import { CARDS_CACHE, clearDeviceData, pendingDeviceClear } from './device-data';
import { readKeepCardsPreference, writeKeepCardsPreference } from './keep-cards';
import { createClosableStore } from './idb-closable-store';
import { CARDS_DB, QUERIES_DB } from './idb-store';
import { closeQueryStore, restoreQueries, savedAt, startQueryPersistence, stopQueryPersistence } from './query-persist';
import { queryKeys } from './query-keys';

function fakeLocalStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, String(v)),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

function fakeCaches(names: string[]) {
  const set = new Set(names);
  return {
    keys: async () => [...set],
    delete: async (name: string) => set.delete(name),
    has: async (name: string) => set.has(name),
    names: () => [...set].sort(),
  };
}

async function databaseNames() {
  return (await indexedDB.databases()).map((d) => d.name).sort();
}

const USER = '7b5e0f7e-2a3c-4c1d-9d3e-0a1b2c3d4e5f';

/** A session as the app stores it (USER's by default): answers are kept only while it is stored. */
function storeSession(id = USER) {
  localStorage.setItem(AUTH_TOKEN_KEY, `token-of-${id}`);
  localStorage.setItem(AUTH_USER_KEY, JSON.stringify({ id, firstName: 'Ada', lastName: 'Byron', email: 'ada@example.test', lhmpId: 'LQ00001', company: 'Acme', role: 'member', language: null }));
}

beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  vi.stubGlobal('localStorage', fakeLocalStorage());
});
afterEach(async () => {
  stopQueryPersistence();
  // The stores keep their connection; each test has a fresh IndexedDB.
  await Promise.all([closeCardStore(), closeQueryStore()]);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('keep-cards preference', () => {
  it('is off by default and remembers on and off', () => {
    expect(readKeepCardsPreference()).toBe(false);
    writeKeepCardsPreference(true);
    expect(readKeepCardsPreference()).toBe(true);
    writeKeepCardsPreference(false);
    expect(readKeepCardsPreference()).toBe(false);
  });

  it('reads as off when storage refuses', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => undefined,
    });
    expect(() => writeKeepCardsPreference(true)).not.toThrow();
    expect(readKeepCardsPreference()).toBe(false);
  });
});

describe('card store', () => {
  it('loads nothing before cards are saved, then the last saved cards and when', async () => {
    expect(await loadCards()).toBeNull();
    await saveCards(USER, { cards: [1] });
    await saveCards(USER, { cards: [1, 2] });
    const loaded = await loadCards();
    expect(loaded?.data).toEqual({ cards: [1, 2] });
    expect(Number.isNaN(Date.parse(loaded!.savedAt))).toBe(false);
  });
});

describe('a clearing owed by an ended session', () => {
  it('is marked, and the mark removed only once the clearing has finished', async () => {
    vi.stubGlobal('caches', fakeCaches(['api-answers']));
    await set('cache', { userId: USER }, createClosableStore(QUERIES_DB, 'queries').store);
    markDeviceClearPending();
    expect(pendingDeviceClear()).toEqual({ keepCards: false });

    // The tab closed before it ran: the next start finds the mark and clears.
    await runPendingDeviceClear();

    expect(await databaseNames()).toEqual([]);
    expect(pendingDeviceClear()).toBeNull();
  });

  it('takes "Keep my cards" from when the session ended, and a later mark never keeps less', async () => {
    vi.stubGlobal('caches', fakeCaches([CARDS_CACHE]));
    writeKeepCardsPreference(true);
    await saveCards(USER, { cards: ['kept'] });
    markDeviceClearPending();
    expect(pendingDeviceClear()).toEqual({ keepCards: true });
    markDeviceClearPending(false);
    markDeviceClearPending(true);
    expect(localStorage.getItem(DEVICE_CLEAR_KEY)).toBe('all');

    await runPendingDeviceClear();
    expect(await databaseNames()).toEqual([]);
    expect(pendingDeviceClear()).toBeNull();
  });

  it('a clearing that kept the cards does not settle one owed that removes them', async () => {
    vi.stubGlobal('caches', fakeCaches([]));
    markDeviceClearPending(false);
    await clearDeviceData({ keepCards: true });
    expect(pendingDeviceClear()).toEqual({ keepCards: false });
    await clearDeviceData({ keepCards: false });
    expect(pendingDeviceClear()).toBeNull();
  });

  it('storage refusing the mark still clears now: the caller passes what is owed', async () => {
    vi.stubGlobal('caches', fakeCaches(['api-answers']));
    await set('cache', { userId: USER }, createClosableStore(QUERIES_DB, 'queries').store);
    const refusing = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => undefined };
    vi.stubGlobal('localStorage', refusing);
    const owed = markDeviceClearPending(false);
    expect(owed).toEqual({ keepCards: false });
    await runPendingDeviceClear(owed);
    expect(await databaseNames()).toEqual([]);
  });

  it('nothing owed: nothing is cleared', async () => {
    vi.stubGlobal('caches', fakeCaches(['api-answers']));
    await set('cache', { userId: USER }, createClosableStore(QUERIES_DB, 'queries').store);
    await runPendingDeviceClear();
    expect(await databaseNames()).toEqual([QUERIES_DB]);
  });
});

describe('clearDeviceData', () => {
  it('removes every cache but the app shell and every database', async () => {
    const cacheStorage = fakeCaches(['workbox-precache-v2-https://x/', 'api-answers', CARDS_CACHE]);
    vi.stubGlobal('caches', cacheStorage);
    await saveCards(USER, { cards: [1] });
    const client = new QueryClient();
    client.setQueryData(queryKeys.member.profile, { firstName: 'Ada' });
    await set('cache', { userId: USER }, createClosableStore(QUERIES_DB, 'queries').store);
    const other = createClosableStore('someone-else', 's');
    await set('k', 'v', other.store);
    await other.close();
    expect(await databaseNames()).toEqual([QUERIES_DB, CARDS_DB, 'someone-else'].sort());

    await clearDeviceData({ keepCards: false });

    expect(await databaseNames()).toEqual([]);
    expect(cacheStorage.names()).toEqual(['workbox-precache-v2-https://x/']);
    expect(await loadCards()).toBeNull();
  });

  it('with keepCards keeps the cards and nothing else', async () => {
    const cacheStorage = fakeCaches(['workbox-precache-v2-https://x/', 'api-answers', CARDS_CACHE]);
    vi.stubGlobal('caches', cacheStorage);
    await saveCards(USER, { cards: ['kept'] });
    await set('cache', { userId: USER }, createClosableStore(QUERIES_DB, 'queries').store);

    await clearDeviceData({ keepCards: true });

    expect(await databaseNames()).toEqual([CARDS_DB]);
    expect(cacheStorage.names()).toEqual([CARDS_CACHE, 'workbox-precache-v2-https://x/'].sort());
    expect((await loadCards())?.data).toEqual({ cards: ['kept'] });
  });

  it('does not wait on a database another connection holds open', async () => {
    const open = createClosableStore(CARDS_DB, 'cards');
    await set('x', 1, open.store); // a second connection (as another tab would hold)
    await clearDeviceData({ keepCards: false });
    expect(await databaseNames()).toEqual([]);
  });

  it('works without Cache Storage and never throws', async () => {
    vi.stubGlobal('caches', undefined);
    await expect(clearDeviceData({ keepCards: false })).resolves.toBeUndefined();
  });

  it('stops the query store from coming back after sign-out', async () => {
    vi.stubGlobal('caches', fakeCaches([]));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    storeSession();
    const client = new QueryClient();
    startQueryPersistence(client, USER);
    client.setQueryData(queryKeys.member.profile, { firstName: 'Ada' });
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1)); // restored; a write is pending
    await clearDeviceData({ keepCards: false });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await databaseNames()).toEqual([]);
  });
});

async function persistProfile(client: QueryClient) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  storeSession();
  startQueryPersistence(client, USER);
  client.setQueryData(queryKeys.member.profile, { firstName: 'Ada' });
  client.setQueryData(queryKeys.admin.employerList({}), { items: [] });
  await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
  await vi.advanceTimersByTimeAsync(500);
  await vi.waitFor(async () => expect(await savedAt()).not.toBeNull());
  stopQueryPersistence();
}

describe('query persistence', () => {
  it('keeps member answers, not admin ones, and restores them for the same user only', async () => {
    await persistProfile(new QueryClient());

    const stored = await get<{ state: { queries: { queryKey: unknown[] }[] } }>('cache', createClosableStore(QUERIES_DB, 'queries').store);
    expect(stored?.state.queries.map((q) => q.queryKey)).toEqual([[...queryKeys.member.profile]]);

    const fresh = new QueryClient();
    expect(await restoreQueries(fresh, 'another-user')).toBeNull();
    expect(fresh.getQueryData(queryKeys.member.profile)).toBeUndefined();
    expect(await restoreQueries(fresh, USER)).toEqual(expect.any(Number));
    expect(fresh.getQueryData(queryKeys.member.profile)).toEqual({ firstName: 'Ada' });
  });

  it('keeps nothing once the session is no longer stored (it ended before persistence started)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = new QueryClient();
    startQueryPersistence(client, USER);
    client.setQueryData(queryKeys.member.profile, { firstName: 'Ada' });
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    await vi.advanceTimersByTimeAsync(500);
    expect(await savedAt()).toBeNull();

    // Another user's session stored: not this one's either.
    storeSession('0b8f3c1e-6a52-4d1e-9a57-2f4c8e6d9b10');
    client.setQueryData(queryKeys.member.profile, { firstName: 'Ada', lastName: 'Byron' });
    await vi.advanceTimersByTimeAsync(500);
    expect(await savedAt()).toBeNull();
  });

  it('does not restore answers older than a week', async () => {
    await persistProfile(new QueryClient());
    const fresh = new QueryClient();
    expect(await restoreQueries(fresh, USER, Date.now() + 8 * 24 * 3600 * 1000)).toBeNull();
  });
});
