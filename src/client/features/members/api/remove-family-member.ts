import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client';
import { useRefreshFamily } from './get-family-members';

/** DELETE /api/family-members/{id}. */
export const removeFamilyMember = (id: string) => apiSend<null>('DELETE', `/api/family-members/${encodeURIComponent(id)}`);

export function useRemoveFamilyMember() {
  return useMutation({ mutationFn: removeFamilyMember, onSuccess: useRefreshFamily() });
}
