import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FamilyMember, FamilyMemberList } from '#shared/schemas/family';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/family-members: the caller's family members, oldest first. */
export const getFamilyMembers = async (): Promise<FamilyMember[]> => (await apiGet<FamilyMemberList>('/api/family-members'))!.familyMembers;

export const familyMembersQueryOptions = () => queryOptions({ queryKey: queryKeys.member.family, queryFn: getFamilyMembers });

export function useFamilyMembers() {
  return useQuery(familyMembersQueryOptions());
}

/** Data never goes stale by itself (spec section 9), so every family write refreshes the list and the profile's count. */
export function useRefreshFamily() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.member.family }),
      queryClient.invalidateQueries({ queryKey: queryKeys.member.profile }),
    ]);
}
