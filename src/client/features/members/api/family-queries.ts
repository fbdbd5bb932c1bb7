import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FamilyMember, FamilyMemberList, FamilyMemberValues } from '#shared/schemas/family';
import { apiGet, apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';


/** The caller's family members, oldest first. */
export function useFamilyMembers() {
  return useQuery({
    queryKey: queryKeys.member.family,
    queryFn: async () => (await apiGet<FamilyMemberList>('/api/family-members'))!.familyMembers,
  });
}

/** Data never goes stale by itself (spec section 9), so every write refreshes the list and the count. */
function useRefreshFamily() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.member.family }),
      queryClient.invalidateQueries({ queryKey: queryKeys.member.profile }),
    ]);
}

export function useAddFamilyMember() {
  const refresh = useRefreshFamily();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: FamilyMemberValues; idempotencyKey?: string }) =>
      apiSend<FamilyMember>('POST', '/api/family-members', values, { idempotencyKey }),
    onSuccess: refresh,
  });
}

export function useUpdateFamilyMember(id: string) {
  const refresh = useRefreshFamily();
  return useMutation({
    mutationFn: (values: FamilyMemberValues) =>
      apiSend<FamilyMember>('PUT', `/api/family-members/${encodeURIComponent(id)}`, values),
    onSuccess: refresh,
  });
}

export function useRemoveFamilyMember() {
  const refresh = useRefreshFamily();
  return useMutation({
    mutationFn: (id: string) => apiSend<null>('DELETE', `/api/family-members/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}
