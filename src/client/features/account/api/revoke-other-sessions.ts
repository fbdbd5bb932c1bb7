import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RevokeOtherSessionsResponse } from '#shared/schemas/account';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const revokeOtherSessions = () => apiSend<RevokeOtherSessionsResponse>('POST', '/api/me/sessions/revoke-others');

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.sessions }),
  });
}
