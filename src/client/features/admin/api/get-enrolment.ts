import { useQuery } from '@tanstack/react-query';
import type { EnrolmentStatusResponse } from '#shared/schemas/enrolment';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/employers/{companyId}/enrolment: the mode and the roster's size. */
export const enrolmentQueryOptions = (companyId: string) => urlQueryOptions<EnrolmentStatusResponse>(queryKeys.admin.enrolment(companyId));

export function useEnrolment(companyId: string, enabled: boolean) {
  return useQuery({ ...enrolmentQueryOptions(companyId), enabled });
}
