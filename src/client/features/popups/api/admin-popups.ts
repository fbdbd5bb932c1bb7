import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPopup, AdminPopupListQuery, AdminPopupListResponse, PopupForm } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';

const LIST = '/api/admin/popups';

/** The list's query key: the URL, then the query parameters (spec section 7). */
export const adminPopupsQueryKey = (query: AdminPopupListQuery) => [LIST, query] as const;

export function useAdminPopups(query: AdminPopupListQuery) {
  return useQuery<AdminPopupListResponse | null>({ queryKey: adminPopupsQueryKey(query), placeholderData: keepPreviousData });
}

const popupUrl = (id: string) => `${LIST}/${encodeURIComponent(id)}`;

export const createPopupRequest = (body: PopupForm) => apiSend<AdminPopup>('POST', LIST, body);
export const updatePopupRequest = ({ id, body }: { id: string; body: PopupForm }) => apiSend<AdminPopup>('PUT', popupUrl(id), body);
export const setPopupActiveRequest = ({ id, active }: { id: string; active: boolean }) =>
  apiSend<AdminPopup>('POST', `${popupUrl(id)}/${active ? 'activate' : 'deactivate'}`);
export const deletePopupRequest = (id: string) => apiSend<{ ok: true }>('DELETE', popupUrl(id));

/** Every write refreshes the list afterwards (spec section 4). */
function useListWrite<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [LIST] }),
  });
}

export const useCreatePopup = () => useListWrite(createPopupRequest);
export const useUpdatePopup = () => useListWrite(updatePopupRequest);
export const useSetPopupActive = () => useListWrite(setPopupActiveRequest);
export const useDeletePopup = () => useListWrite(deletePopupRequest);
