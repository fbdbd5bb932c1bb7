import { queryOptions, useQuery } from '@tanstack/react-query';
import { CardKeyResponseSchema } from '#shared/schemas/cards';
import { queryKeys } from '../../../lib/query-keys';

/** The last key fetched, so /verify-card works offline once visited. Not member data. */
export const CARD_KEY_STORAGE = 'wellhaven.cardKey';

function rememberedKey(): string | null {
  try {
    return localStorage.getItem(CARD_KEY_STORAGE);
  } catch {
    return null;
  }
}

function rememberKey(key: string) {
  try {
    localStorage.setItem(CARD_KEY_STORAGE, key);
  } catch {
    // Storage refused: verifying needs a connection next time.
  }
}

/**
 * The programme's public card key (base64url): fresh from the server when it answers, else the
 * one remembered from the last visit; throws when there is neither.
 */
export async function getCardKey(): Promise<string> {
  try {
    const res = await fetch('/.well-known/wellhaven-card-key', { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`card key: ${res.status}`);
    const { publicKey } = CardKeyResponseSchema.parse(await res.json());
    rememberKey(publicKey);
    return publicKey;
  } catch (err) {
    const remembered = rememberedKey();
    if (remembered) return remembered;
    throw err;
  }
}

export const cardKeyQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.cards.publicKey, queryFn: getCardKey, networkMode: 'always', staleTime: 60 * 60 * 1000 });

export function useCardKey() {
  return useQuery(cardKeyQueryOptions());
}
