import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { MeResponse } from '#shared/schemas/auth';
import { apiGet } from './api-client';
import { storeAccount } from './auth-storage';
import { ME_KEY } from './query-scopes';

/**
 * GET /api/auth/me, the app-wide session read: the session user, the session and the account
 * state. Its account state is kept with the session, so the next first render already knows it.
 */
export const getMe = async (): Promise<MeResponse> => {
  const me = (await apiGet<MeResponse>('/api/auth/me'))!;
  storeAccount(me.account);
  return me;
};

export const meQueryOptions = () => queryOptions({ queryKey: ME_KEY, queryFn: getMe });

/**
 * Reads the session again after the server changed the account (an address verified, two-step
 * sign-in turned on or off). A read still on its way, such as the app's first, may have been
 * answered before the change; landing last, it would stand (answers never go stale), so it is
 * cancelled. The new read goes out now, even with nothing on screen observing it.
 */
export async function refreshMe(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: ME_KEY });
  await queryClient.invalidateQueries({ queryKey: ME_KEY, refetchType: 'all' });
}
