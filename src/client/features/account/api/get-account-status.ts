import { useQuery } from '@tanstack/react-query';
import { readStoredAccount } from '../../../lib/auth-storage';
import { meQueryOptions } from '../../../lib/me-query';

/**
 * Whether the signed-in member's email is verified and two-step sign-in is on. Until the server
 * answers, the state kept from its last answer stands in, so the verify banner does not arrive
 * late and move what a finger is already on its way to.
 */
export function useAccountStatus(options: { enabled?: boolean } = {}) {
  const query = useQuery({ ...meQueryOptions(), select: (me) => me.account, enabled: options.enabled ?? true });
  return { ...query, data: query.data ?? (query.isPending ? (readStoredAccount() ?? undefined) : undefined) };
}
