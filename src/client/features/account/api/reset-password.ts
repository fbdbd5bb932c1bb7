import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordRequest } from '#shared/schemas/account';
import { apiSend } from '../../../lib/api-client';

/** The token goes in the body, never in the API URL. */
export const resetPassword = (input: ResetPasswordRequest) => apiSend<{ ok: true }>('POST', '/api/auth/reset-password', input);

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
