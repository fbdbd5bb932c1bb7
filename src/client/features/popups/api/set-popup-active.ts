import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPopup } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/admin/popups/{id}/activate or /deactivate. */
export const setPopupActive = ({ id, active }: { id: string; active: boolean }) =>
  apiSend<AdminPopup>('POST', `/api/admin/popups/${encodeURIComponent(id)}/${active ? 'activate' : 'deactivate'}`);

/** Like every write on a popup, it refreshes the popup reads afterwards (spec section 4). */
export function useSetPopupActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPopupActive,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.popups }),
  });
}
