import { useQuery } from '@tanstack/react-query';
import { readStoredAccount } from '../../../lib/auth-storage';
import { meQueryOptions } from '../../../lib/me-query';

/**
 * Whether the signed-in member's email is verified and two-step sign-in is on. Until the server
 * answers, the state kept from its last answer stands in, so the verify banner does not arrive
 * late and move what a finger is already on its way to.
 *
 * Only `data` is handed on. TanStack Query re-renders a reader for the result's properties it
 * has read, and spreading the result read them all: every fetch's start and end re-rendered the
 * banner (synchronously, as an external store's change), on Home's start too.
 */
export function useAccountStatus(options: { enabled?: boolean } = {}) {
  const query = useQuery({ ...meQueryOptions(), select: (me) => me.account, enabled: options.enabled ?? true });
  return { data: query.data ?? (query.isPending ? (readStoredAccount() ?? undefined) : undefined) };
}
