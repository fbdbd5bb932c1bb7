import { useQuery } from '@tanstack/react-query';
import type { EmployerCardResponse } from '#shared/schemas/cards';
import { urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/employers/{companyId}/card: the ID card details (every field null until an admin writes them). */
export const employerCardQueryOptions = (companyId: string) => urlQueryOptions<EmployerCardResponse>(queryKeys.admin.employerCard(companyId));

export function useEmployerCard(companyId: string) {
  return useQuery(employerCardQueryOptions(companyId));
}
