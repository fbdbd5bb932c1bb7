import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmployerCardDetails, EmployerCardResponse } from '#shared/schemas/cards';
import { apiSend, urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** An employer's ID card details (every field null until an admin writes them). */
export function useEmployerCard(companyId: string) {
  return useQuery(urlQueryOptions<EmployerCardResponse>(queryKeys.admin.employerCard(companyId)));
}

/** PUT the whole set of card details; the answer is what is now stored. */
export function useSaveEmployerCard(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (details: EmployerCardDetails) => apiSend<EmployerCardResponse>('PUT', `/api/admin/employers/${encodeURIComponent(companyId)}/card`, details),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.admin.employerCard(companyId), saved),
  });
}
