import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmployerCardDetails, EmployerCardResponse } from '#shared/schemas/cards';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /api/admin/employers/{companyId}/card: the whole set of details; the answer is what is now stored. */
export const saveEmployerCard = (companyId: string, details: EmployerCardDetails) =>
  apiSend<EmployerCardResponse>('PUT', `/api/admin/employers/${encodeURIComponent(companyId)}/card`, details);

export function useSaveEmployerCard(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (details: EmployerCardDetails) => saveEmployerCard(companyId, details),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.admin.employerCard(companyId), saved),
  });
}
