import { useQuery } from '@tanstack/react-query';
import type { PopupActionUrlsResponse } from '#shared/schemas/popups';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/popups/action-urls: the https destinations the server allows (configuration). */
export const actionUrlsQueryOptions = () => urlQueryOptions<PopupActionUrlsResponse>(queryKeys.admin.popupActionUrls);

export function useActionUrls() {
  return useQuery(actionUrlsQueryOptions());
}
