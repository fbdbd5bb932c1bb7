import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountSession, AccountSessionList } from '#shared/schemas/account';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getSessions = async (): Promise<AccountSession[]> => (await apiGet<AccountSessionList>('/api/me/sessions'))!.sessions;

export const sessionsQueryOptions = () => queryOptions({ queryKey: queryKeys.member.sessions, queryFn: getSessions });

/** Every live session of the signed-in member, this device first. */
export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
