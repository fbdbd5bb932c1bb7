import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnrolmentMode, EnrolmentStatusResponse } from '#shared/schemas/enrolment';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** PATCH /api/admin/employers/{companyId}/enrolment: the answer is the new status. */
export const setEnrolmentMode = (companyId: string, enrolmentMode: EnrolmentMode) =>
  apiSend<EnrolmentStatusResponse>('PATCH', `/api/admin/employers/${encodeURIComponent(companyId)}/enrolment`, { enrolmentMode });

export function useSetEnrolmentMode(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enrolmentMode: EnrolmentMode) => setEnrolmentMode(companyId, enrolmentMode),
    onSuccess: (status) => queryClient.setQueryData(queryKeys.admin.enrolment(companyId), status),
  });
}
