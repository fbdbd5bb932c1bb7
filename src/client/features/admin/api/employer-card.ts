import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmployerCardDetails, EmployerCardResponse } from '#shared/schemas/cards';
import { apiSend } from '../../../lib/api-client';

const EMPLOYERS = '/api/admin/employers';
/** The key is the URL (admin-queries.ts): GET /api/admin/employers/{companyId}/card. */
const cardKey = (companyId: string) => [EMPLOYERS, companyId, 'card'] as const;

/** An employer's ID card details (every field null until an admin writes them). */
export function useEmployerCard(companyId: string) {
  return useQuery<EmployerCardResponse | null>({ queryKey: cardKey(companyId) });
}

/** PUT the whole set of card details; the answer is what is now stored. */
export function useSaveEmployerCard(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (details: EmployerCardDetails) => apiSend<EmployerCardResponse>('PUT', `${EMPLOYERS}/${encodeURIComponent(companyId)}/card`, details),
    onSuccess: (saved) => queryClient.setQueryData(cardKey(companyId), saved),
  });
}
