import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberPopup, PopupCompletedResponse } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const snoozePopupRequest = (id: string) => apiSend<MemberPopup>('POST', `/api/popups/${encodeURIComponent(id)}/snooze`);
export const completePopupRequest = (id: string) =>
  apiSend<PopupCompletedResponse>('POST', `/api/popups/${encodeURIComponent(id)}/complete`);

/** Snooze and complete refresh the active list (GET /api/popups/active) afterwards (spec section 7). */
export function useSnoozePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: snoozePopupRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.activePopups }),
  });
}

export function useCompletePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completePopupRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.activePopups }),
  });
}
