import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../features/auth/auth-context';

/**
 * Keeps the signed-in member's answers on the device (for offline reading) while signed in.
 * The store's code loads once someone is signed in, not with the sign-in screen.
 */
export function QueryPersistence() {
  const queryClient = useQueryClient();
  const userId = useAuth().user?.id;
  useEffect(() => {
    if (!userId) return undefined;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('../../lib/query-persist')
      .then((m) => {
        if (!cancelled) stop = m.startQueryPersistence(queryClient, userId);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, userId]);
  return null;
}
