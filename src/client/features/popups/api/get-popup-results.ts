import { useQuery } from '@tanstack/react-query';
import type { PopupResultsResponse } from '#shared/schemas/popups';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/popups/{id}/results: the daily figures and the audience size. */
export const popupResultsQueryOptions = (id: string) => urlQueryOptions<PopupResultsResponse>(queryKeys.admin.popupResults(id));

export function usePopupResults(id: string, enabled: boolean) {
  return useQuery({ ...popupResultsQueryOptions(id), enabled, staleTime: 0 });
}
