import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MemberProfile } from '#shared/schemas/family';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/members/me/profile: the signed-in member's own details, from the server (not the stored session copy). */
export const getProfile = async (): Promise<MemberProfile> => (await apiGet<MemberProfile>('/api/members/me/profile'))!;

export const profileQueryOptions = () => queryOptions({ queryKey: queryKeys.member.profile, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQueryOptions());
}
