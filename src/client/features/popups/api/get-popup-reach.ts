import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PopupAudience, PopupReachResponse } from '#shared/schemas/popups';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * POST /api/admin/popups/reach: how many members an audience reaches now. A read sent as a
 * POST (the audience can list 200 employers); cached per audience like any read.
 */
export const getPopupReach = (audience: PopupAudience) => apiSend<PopupReachResponse>('POST', '/api/admin/popups/reach', audience);

export function usePopupReach(audience: PopupAudience | null) {
  return useQuery({
    queryKey: queryKeys.admin.popupReach(audience),
    queryFn: () => getPopupReach(audience!),
    enabled: audience !== null,
    placeholderData: keepPreviousData,
    // Membership changes while the form is open; a minute-old count is still "about".
    staleTime: 60_000,
  });
}
