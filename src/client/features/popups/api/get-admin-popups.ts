import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminPopupListQuery, AdminPopupListResponse } from '#shared/schemas/popups';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/popups: the list with its statistics, for the search, status and sort asked. */
export const adminPopupsQueryOptions = (query: AdminPopupListQuery) => urlQueryOptions<AdminPopupListResponse>(queryKeys.admin.popupList(query));

export function useAdminPopups(query: AdminPopupListQuery) {
  return useQuery({ ...adminPopupsQueryOptions(query), placeholderData: keepPreviousData });
}
