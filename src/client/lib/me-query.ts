import { queryOptions } from '@tanstack/react-query';
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
