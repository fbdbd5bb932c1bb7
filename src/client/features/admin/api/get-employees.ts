import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EmployeeListQuery, EmployeeListResponse } from '#shared/schemas/admin';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/employers/{companyId}/employees: a page of the employer's employees. */
export const employeesQueryOptions = (companyId: string, query: EmployeeListQuery) =>
  urlQueryOptions<EmployeeListResponse>(queryKeys.admin.employees(companyId, query));

export function useEmployees(companyId: string, query: EmployeeListQuery) {
  return useQuery({ ...employeesQueryOptions(companyId, query), placeholderData: keepPreviousData });
}
