import { useMutation } from '@tanstack/react-query';
import type { FamilyMember, FamilyMemberValues } from '#shared/schemas/family';
import { apiSend } from '../../../lib/api-client';
import { useRefreshFamily } from './get-family-members';

/** PUT /api/family-members/{id}. */
export const updateFamilyMember = (id: string, values: FamilyMemberValues) =>
  apiSend<FamilyMember>('PUT', `/api/family-members/${encodeURIComponent(id)}`, values);

export function useUpdateFamilyMember(id: string) {
  return useMutation({ mutationFn: (values: FamilyMemberValues) => updateFamilyMember(id, values), onSuccess: useRefreshFamily() });
}
