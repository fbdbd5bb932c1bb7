import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EmployerListQuery, EmployerListResponse } from '#shared/schemas/admin';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The employers for the audience picker: GET /api/admin/employers with its name search (the admin list's key and cache). */
export function useEmployerSearch(search: string, enabled: boolean) {
  const query: EmployerListQuery = search.trim() ? { search: search.trim() } : {};
  return useQuery({ ...urlQueryOptions<EmployerListResponse>(queryKeys.admin.employerList(query)), enabled, placeholderData: keepPreviousData });
}
