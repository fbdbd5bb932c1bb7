import { queryOptions, useQuery } from '@tanstack/react-query';
import { type EmployerSuggestResponse, SUGGEST_MIN_CHARS } from '#shared/schemas/enrolment';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/employers/suggest?q=: existing employers for what the member has typed. */
export const getEmployerSuggestions = async (q: string): Promise<EmployerSuggestResponse> =>
  (await apiGet<EmployerSuggestResponse>(`/api/employers/suggest?q=${encodeURIComponent(q)}`)) ?? { employers: [] };

/** Answers are kept per text typed (a minute); nothing is asked under 3 characters. */
export const employerSuggestionsQueryOptions = (typed: string) => {
  const q = typed.trim();
  return queryOptions({
    queryKey: queryKeys.member.employerSuggestions(q),
    queryFn: () => getEmployerSuggestions(q),
    enabled: q.length >= SUGGEST_MIN_CHARS,
    gcTime: 60_000,
  });
};

/** Suggestions for the Employer field; a refusal (rate limit) shows nothing. */
export function useEmployerSuggestions(typed: string) {
  return useQuery(employerSuggestionsQueryOptions(typed));
}
