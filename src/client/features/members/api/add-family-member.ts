import { useMutation } from '@tanstack/react-query';
import type { FamilyMember, FamilyMemberValues } from '#shared/schemas/family';
import { apiSend } from '../../../lib/api-client';
import { useRefreshFamily } from './get-family-members';

/** POST /api/family-members. `idempotencyKey`: one per form submission, the same for its retries (lib/submission-key.ts). */
export const addFamilyMember = ({ values, idempotencyKey }: { values: FamilyMemberValues; idempotencyKey?: string }) =>
  apiSend<FamilyMember>('POST', '/api/family-members', values, { idempotencyKey });

export function useAddFamilyMember() {
  return useMutation({ mutationFn: addFamilyMember, onSuccess: useRefreshFamily() });
}
