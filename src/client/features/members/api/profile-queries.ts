import { useQuery } from '@tanstack/react-query';
import type { MemberProfile } from '#shared/schemas/family';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';


/** The signed-in member's own details, from the server (not the stored session copy). */
export function useProfile() {
  return useQuery({
    queryKey: queryKeys.member.profile,
    queryFn: async () => (await apiGet<MemberProfile>('/api/members/me/profile'))!,
  });
}
