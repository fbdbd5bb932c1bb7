import { queryOptions, useQuery } from '@tanstack/react-query';
import { type IdCardsResponse, IdCardsResponseSchema } from '#shared/schemas/cards';
import { ApiError, apiGet } from '../../../lib/api-client';
import { loadCards, loadCardsOwner, saveCards } from '../../../lib/card-store';
import { writeKeepCardsPreference } from '../../../lib/keep-cards';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/me/cards: the signed-in member's cards and the employer's card details. */
export const getCards = async (): Promise<IdCardsResponse> => IdCardsResponseSchema.parse(await apiGet('/api/me/cards'));

/** No answer came at all (no connection, or the device knows it is offline), as opposed to an answer that says no. */
export const isConnectionError = (err: unknown) => (err instanceof ApiError ? err.code === 'offline' : err instanceof TypeError);

/** Cards to show, and when they were saved on this device if they came from there (offline). */
export type CardsResult = { data: IdCardsResponse; savedAt: string | null };

/** The cards saved on this device, for `userId` only when given; null when there are none (or unreadable). */
export async function getSavedCards(userId?: string): Promise<CardsResult | null> {
  if (userId !== undefined && (await loadCardsOwner()) !== userId) return null;
  const saved = await loadCards();
  if (!saved) return null;
  const parsed = IdCardsResponseSchema.safeParse(saved.data);
  return parsed.success ? { data: parsed.data, savedAt: saved.savedAt } : null;
}

/**
 * The cards from the server, saved on the device for the next time there is no connection;
 * when the server cannot be reached, the saved ones. An answer from the server (401, 500)
 * is not a lost connection and is not covered up.
 */
export async function getCardsOrSaved(userId: string): Promise<CardsResult> {
  try {
    const data = await getCards();
    // Another member's kept cards are replaced by this member's, who has not chosen to keep
    // them: the device-wide "keep" choice was the other member's, so it goes off.
    const owner = await loadCardsOwner();
    if (owner !== null && owner !== userId) writeKeepCardsPreference(false);
    await saveCards(userId, data).catch(() => undefined);
    return { data, savedAt: null };
  } catch (err) {
    if (!isConnectionError(err)) throw err;
    const saved = await getSavedCards(userId);
    if (saved) return saved;
    throw err;
  }
}

export const cardsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.cards.mine(userId),
    queryFn: () => getCardsOrSaved(userId),
    // Runs offline too (the saved copy answers), and refreshes on every visit and reconnect.
    networkMode: 'always',
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnReconnect: 'always',
  });

/** The signed-in member's cards (see getCardsOrSaved). */
export function useCards(userId: string) {
  return useQuery(cardsQueryOptions(userId));
}

export const savedCardsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.cards.saved, queryFn: () => getSavedCards(), networkMode: 'always', staleTime: 0, refetchOnMount: 'always' });

/** Signed out: the cards the member kept on this device, or null. */
export function useSavedCards(enabled: boolean) {
  return useQuery({ ...savedCardsQueryOptions(), enabled });
}
