import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MfaConfirmRequest,
  MfaConfirmResponse,
  MfaDisableRequest,
  MfaDisableResponse,
  MfaSetupRequest,
  MfaSetupResponse,
  MfaStatusResponse,
} from '#shared/schemas/mfa';
import { apiGet, apiSend } from '../../../lib/api-client';
import { refreshMe } from '../../../lib/me-query';
import { queryKeys } from '../../../lib/query-keys';

/** Two-step sign-in of the signed-in member (GET /api/me/mfa). */

export const getTwoStepStatus = async (): Promise<MfaStatusResponse> => (await apiGet<MfaStatusResponse>('/api/me/mfa'))!;
export const twoStepQueryOptions = () => queryOptions({ queryKey: queryKeys.member.twoStep, queryFn: getTwoStepStatus });
export const useTwoStepStatus = () => useQuery(twoStepQueryOptions());

export const startTwoStepSetup = (input: MfaSetupRequest) => apiSend<MfaSetupResponse>('POST', '/api/me/mfa/setup', input);
export const confirmTwoStep = (input: MfaConfirmRequest) => apiSend<MfaConfirmResponse>('POST', '/api/me/mfa/confirm', input);
export const disableTwoStep = (input: MfaDisableRequest) => apiSend<MfaDisableResponse>('POST', '/api/me/mfa/disable', input);

/** Turning it on or off changes the status and GET /api/auth/me's `account.mfaEnabled`. */
function useInvalidateTwoStep() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.member.twoStep }), refreshMe(queryClient)]);
}

export const useStartTwoStepSetup = () => useMutation({ mutationFn: startTwoStepSetup });

export function useConfirmTwoStep() {
  const invalidate = useInvalidateTwoStep();
  return useMutation({ mutationFn: confirmTwoStep, onSuccess: invalidate });
}

export function useDisableTwoStep() {
  const invalidate = useInvalidateTwoStep();
  return useMutation({ mutationFn: disableTwoStep, onSuccess: invalidate });
}
