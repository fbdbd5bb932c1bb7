import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberPopup } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/popups/{id}/snooze. */
export const snoozePopup = (id: string) => apiSend<MemberPopup>('POST', `/api/popups/${encodeURIComponent(id)}/snooze`);

/** It refreshes the member's active popups (GET /api/popups/active) afterwards (spec section 7). */
export function useSnoozePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: snoozePopup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.activePopups }),
  });
}
