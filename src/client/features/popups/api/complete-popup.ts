import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PopupCompletedResponse } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/popups/{id}/complete. */
export const completePopup = (id: string) => apiSend<PopupCompletedResponse>('POST', `/api/popups/${encodeURIComponent(id)}/complete`);

/** It refreshes the member's active popups (GET /api/popups/active) afterwards (spec section 7). */
export function useCompletePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completePopup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.activePopups }),
  });
}
