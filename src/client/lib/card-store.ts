import { del, get, set } from 'idb-keyval';
import { createClosableStore } from './idb-closable-store';
import { CARDS_DB } from './idb-store';

/** The member's ID cards, kept on the device for offline use (issue 11). */
const cards = createClosableStore(CARDS_DB, 'cards');
const KEY = 'cards';

export type StoredCards = { userId: string; data: unknown; savedAt: string };

export async function saveCards(userId: string, data: unknown): Promise<void> {
  const entry: StoredCards = { userId, data, savedAt: new Date().toISOString() };
  await set(KEY, entry, cards.store);
}

/** The last saved cards and when they were saved, or null when there are none. */
export async function loadCards(): Promise<{ data: unknown; savedAt: string } | null> {
  try {
    const entry = await get<StoredCards>(KEY, cards.store);
    if (!entry || typeof entry !== 'object' || typeof entry.savedAt !== 'string') return null;
    return { data: entry.data, savedAt: entry.savedAt };
  } catch {
    return null;
  }
}

/** The user the saved cards belong to, or null. */
export async function loadCardsOwner(): Promise<string | null> {
  try {
    const entry = await get<StoredCards>(KEY, cards.store);
    return entry && typeof entry.userId === 'string' ? entry.userId : null;
  } catch {
    return null;
  }
}

export async function removeCards(): Promise<void> {
  await del(KEY, cards.store).catch(() => undefined);
}

/** Closes this page's connection so the database can be deleted without waiting. */
export function closeCardStore(): Promise<void> {
  return cards.close();
}
