import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPopup, PopupForm } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /api/admin/popups/{id}: the whole form. */
export const updatePopup = ({ id, body }: { id: string; body: PopupForm }) => apiSend<AdminPopup>('PUT', `/api/admin/popups/${encodeURIComponent(id)}`, body);

/** Like every write on a popup, it refreshes the popup reads afterwards (spec section 4). */
export function useUpdatePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePopup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.popups }),
  });
}
