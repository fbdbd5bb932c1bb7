import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordRequest, ForgotPasswordResponse } from '#shared/schemas/account';
import { apiSend } from '../../../lib/api-client';

export const forgotPassword = (input: ForgotPasswordRequest) => apiSend<ForgotPasswordResponse>('POST', '/api/auth/forgot-password', input);

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
