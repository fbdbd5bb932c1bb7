import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmployerListQuery, EmployerListResponse } from '#shared/schemas/admin';
import type {
  AdminPopup,
  AdminPopupListQuery,
  AdminPopupListResponse,
  PopupAudience,
  PopupForm,
  PopupReachResponse,
  PopupResultsResponse,
} from '#shared/schemas/popups';
import { apiSend, urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const LIST = '/api/admin/popups';

export function useAdminPopups(query: AdminPopupListQuery) {
  return useQuery({ ...urlQueryOptions<AdminPopupListResponse>(queryKeys.admin.popupList(query)), placeholderData: keepPreviousData });
}

const popupUrl = (id: string) => `${LIST}/${encodeURIComponent(id)}`;

/** `idempotencyKey`: one per form submission, the same for its retries (lib/submission-key.ts). */
export const createPopupRequest = ({ body, idempotencyKey }: { body: PopupForm; idempotencyKey: string }) =>
  apiSend<AdminPopup>('POST', LIST, body, { idempotencyKey });
export const updatePopupRequest = ({ id, body }: { id: string; body: PopupForm }) => apiSend<AdminPopup>('PUT', popupUrl(id), body);
export const setPopupActiveRequest = ({ id, active }: { id: string; active: boolean }) =>
  apiSend<AdminPopup>('POST', `${popupUrl(id)}/${active ? 'activate' : 'deactivate'}`);
export const deletePopupRequest = (id: string) => apiSend<{ ok: true }>('DELETE', popupUrl(id));

/** Every write refreshes the list afterwards (spec section 4). */
function useListWrite<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.popups }),
  });
}

export const useCreatePopup = () => useListWrite(createPopupRequest);
export const useUpdatePopup = () => useListWrite(updatePopupRequest);
export const useSetPopupActive = () => useListWrite(setPopupActiveRequest);
export const useDeletePopup = () => useListWrite(deletePopupRequest);

/** GET /api/admin/popups/action-urls: the https destinations the server allows (configuration). */
export function useActionUrls() {
  return useQuery(urlQueryOptions<{ urls: string[] }>(queryKeys.admin.popupActionUrls));
}

/**
 * POST /api/admin/popups/reach: how many members an audience reaches now. A read sent as a
 * POST (the audience can list 200 employers); cached per audience like any read.
 */
export function usePopupReach(audience: PopupAudience | null) {
  return useQuery<PopupReachResponse>({
    queryKey: queryKeys.admin.popupReach(audience),
    queryFn: () => apiSend<PopupReachResponse>('POST', `${LIST}/reach`, audience),
    enabled: audience !== null,
    placeholderData: keepPreviousData,
    // Membership changes while the form is open; a minute-old count is still "about".
    staleTime: 60_000,
  });
}

/** GET /api/admin/popups/{id}/results: the daily figures and the audience size. */
export function usePopupResults(id: string, enabled: boolean) {
  return useQuery({ ...urlQueryOptions<PopupResultsResponse>(queryKeys.admin.popupResults(id)), enabled, staleTime: 0 });
}

/** The employers for the audience picker: the admin employer list with its search (by name). */
export function useEmployerSearch(search: string, enabled: boolean) {
  const query: EmployerListQuery = search.trim() ? { search: search.trim() } : {};
  return useQuery({ ...urlQueryOptions<EmployerListResponse>(queryKeys.admin.employerList(query)), enabled, placeholderData: keepPreviousData });
}
