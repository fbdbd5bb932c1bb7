import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/admin/popups/{id}. */
export const deletePopup = (id: string) => apiSend<{ ok: true }>('DELETE', `/api/admin/popups/${encodeURIComponent(id)}`);

/** Like every write on a popup, it refreshes the popup reads afterwards (spec section 4). */
export function useDeletePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePopup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.popups }),
  });
}
