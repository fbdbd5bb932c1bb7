import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EmployerListQuery, EmployerListResponse } from '#shared/schemas/admin';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/employers: a page of employers; the last page stays on screen while the next loads. */
export const employersQueryOptions = (query: EmployerListQuery) => urlQueryOptions<EmployerListResponse>(queryKeys.admin.employerList(query));

export function useEmployers(query: EmployerListQuery) {
  return useQuery({ ...employersQueryOptions(query), placeholderData: keepPreviousData });
}
