import { queryOptions } from '@tanstack/react-query';
import type { MeResponse } from '#shared/schemas/auth';
import { apiGet } from './api-client';
import { storeAccount } from './auth-storage';

/** GET /api/auth/me: the session user, the session and the account state; the app-wide session read. */
export const meQueryKey = ['/api/auth/me'] as const;

/**
 * The whole GET /api/auth/me answer, cached under its URL as the default query function would.
 * Its account state is kept with the session, so the next first render already knows it.
 */
export const getMe = async (): Promise<MeResponse> => {
  const me = (await apiGet<MeResponse>('/api/auth/me'))!;
  storeAccount(me.account);
  return me;
};

export const meQueryOptions = () => queryOptions({ queryKey: meQueryKey, queryFn: getMe });
