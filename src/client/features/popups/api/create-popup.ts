import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPopup, PopupForm } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/admin/popups. `idempotencyKey`: one per form submission, the same for its retries (lib/submission-key.ts). */
export const createPopup = ({ body, idempotencyKey }: { body: PopupForm; idempotencyKey: string }) =>
  apiSend<AdminPopup>('POST', '/api/admin/popups', body, { idempotencyKey });

/** Like every write on a popup, it refreshes the popup reads afterwards (spec section 4). */
export function useCreatePopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPopup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.popups }),
  });
}
