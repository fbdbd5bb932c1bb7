import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordRequest, ChangePasswordResponse } from '#shared/schemas/account';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const changePassword = (input: ChangePasswordRequest) => apiSend<ChangePasswordResponse>('POST', '/api/me/password', input);

/** The other sessions end with the change, so the devices list is refreshed. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.sessions }),
  });
}
