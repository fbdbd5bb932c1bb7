import { useQuery } from '@tanstack/react-query';
import type { EmployerDetailResponse } from '#shared/schemas/admin';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/employers/{companyId}: the employer and its figures. */
export const employerQueryOptions = (companyId: string) => urlQueryOptions<EmployerDetailResponse>(queryKeys.admin.employer(companyId));

export function useEmployer(companyId: string, enabled: boolean) {
  return useQuery({ ...employerQueryOptions(companyId), enabled });
}
