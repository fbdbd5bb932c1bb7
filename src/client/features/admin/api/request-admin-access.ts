import type { QueryClient } from '@tanstack/react-query';
import type { AdminAccessRequest, AdminAccessResponse } from '#shared/schemas/auth';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * POST /api/admin/access: the server checks the credentials, then (with `code`) the second
 * factor, and answers a NEW elevated token; without a code it says whether to set one up.
 */
export const adminAccessRequest = (input: AdminAccessRequest) => apiSend<AdminAccessResponse>('POST', '/api/admin/access', input);

/**
 * After the Admin Access step-up every admin read is asked again: the ones refused with 403
 * (and anything cached under the old access) start from the loading state.
 */
export function resetAdminQueries(queryClient: QueryClient) {
  return queryClient.resetQueries({ queryKey: queryKeys.admin.all });
}
