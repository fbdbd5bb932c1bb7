import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResendVerificationResponse } from '#shared/schemas/account';
import { apiSend } from '../../../lib/api-client';
import { refreshMe } from '../../../lib/me-query';

export const resendVerification = () => apiSend<ResendVerificationResponse>('POST', '/api/auth/verify-email/resend');

export function useResendVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: (result) => {
      if (result.status === 'already_verified') void refreshMe(queryClient);
    },
  });
}
