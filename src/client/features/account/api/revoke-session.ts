import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const revokeSession = (sessionId: string) => apiSend<null>('DELETE', `/api/me/sessions/${encodeURIComponent(sessionId)}`);

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    // A 404 (signed out meanwhile) leaves the list stale too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.sessions }),
  });
}
