import { useQuery } from '@tanstack/react-query';
import type { EmployeeDetailResponse } from '#shared/schemas/admin';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/employees/{userId}: an employee's record (each look is audited on the server). */
export const employeeQueryOptions = (userId: string) => urlQueryOptions<EmployeeDetailResponse>(queryKeys.admin.employee(userId));

/** Never served from the cache: each visit asks again (gcTime 0 drops it as soon as the page leaves). */
export function useEmployee(userId: string, enabled: boolean) {
  return useQuery({ ...employeeQueryOptions(userId), enabled, gcTime: 0 });
}
