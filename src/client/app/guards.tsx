import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '#shared/paths';
import { Skeleton } from '../components/ui/skeleton';
import { useAuth } from '../features/auth/auth-context';
import { readKeepCardsPreference } from '../lib/keep-cards';
import { common } from '../lib/messages/common';

/** While the first screen's code loads. */
export function SessionSkeleton() {
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-5" role="status" aria-label={common.loading}>
      <Skeleton className="h-14 w-full" />
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}

/**
 * Every route but /, /login and /register needs a session; visitors go to /login. The stored
 * session is read synchronously before the first render, so there is nothing to wait for.
 */
export function RequireAuth() {
  const { isAuthenticated } = useAuth();
  const { pathname } = useLocation();
  // "Keep my cards on this device": /id-card opens signed out too, showing only the kept cards.
  const keptCards = pathname === paths.idCard && readKeepCardsPreference();
  return isAuthenticated || keptCards ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/** `/` goes home or to sign-in. */
export function RootRedirect() {
  const { isAuthenticated } = useAuth();
  return <Navigate to={isAuthenticated ? paths.home : paths.login} replace />;
}
