import { Suspense } from 'react';
import { type RouteObject, type To, Navigate, useLocation, useRoutes } from 'react-router';
import { paths } from '#shared/paths';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { NotFoundPage } from './app-error-page';
import { RequireAuth, RootRedirect, SessionSkeleton } from './guards';
import { lazyPage, preloadMatches } from './lazy-page';
import { memberRoutes } from './member-routes';
import { RootLayout } from './root-layout';
import { RouteErrorBoundary } from './route-error-boundary';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: paths.root, element: <RootRedirect /> },
      // The first screen of most visits is part of the first download: no second round trip
      // before the form can show (docs/decisions/initial-js-budget.md).
      { path: paths.login, element: <SignInPage /> },
      { path: paths.register, ...lazyPage(() => import('../features/auth/components/register-page').then((m) => ({ default: m.RegisterPage }))) },
      // Account links from emails: public, and they work signed in too.
      { path: paths.verifyEmail, ...lazyPage(() => import('../features/account/components/verify-email-page')) },
      { path: paths.forgotPassword, ...lazyPage(() => import('../features/account/components/forgot-password-page')) },
      { path: paths.resetPassword, ...lazyPage(() => import('../features/account/components/reset-password-page')) },
      // A front desk checks an ID card without an account (issue 11).
      { path: paths.verifyCard, ...lazyPage(() => import('../features/cards/components/verify-card-page')) },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.start, ...lazyPage(() => import('../features/auth/components/welcome-page').then((m) => ({ default: m.WelcomePage }))) },
          // Member screens (issue: Member experience)
          ...memberRoutes,
          // Admin screens (issue: Admin area)
          { path: paths.admin, element: <Navigate to={paths.adminEmployers} replace /> },
          {
            ...lazyPage(() => import('./admin-layout')),
            children: [
              { path: paths.adminEmployers, ...lazyPage(() => import('../features/admin/components/admin-employers-page')) },
              { path: '/admin/employers/:companyId', ...lazyPage(() => import('../features/admin/components/admin-employer-page')) },
              { path: '/admin/employees/:userId', ...lazyPage(() => import('../features/admin/components/admin-employee-page')) },
              // Popups console (issue: Reminder popups)
              { path: paths.adminPopups, ...lazyPage(() => import('../features/popups/components/admin-popups-page').then((m) => ({ default: m.AdminPopupsPage }))) },
              { path: '/admin/popups/:id', ...lazyPage(() => import('../features/popups/components/popup-results-page')) },
            ],
          },
        ],
      },
      { path: paths.adminLogin, element: <Navigate to={paths.login} replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** Loads the code of the screens a navigation leads to (AppRouter waits for it). */
export const preloadRoute = (to: To) => preloadMatches(routes, to);

/**
 * The route table in React Router's declarative mode (main.tsx wraps it in AppRouter):
 * about 17 KiB gzip less than the data router, which nothing here needs (no loaders,
 * actions, fetchers or blockers; see docs/decisions/initial-js-budget.md). The skeleton
 * shows only while the first screen loads; a screen that throws or cannot be fetched shows
 * the generic error.
 */
export function AppRoutes() {
  const location = useLocation();
  // The first screen, and back or forward: start every matched chunk at once.
  void preloadRoute(location);
  const element = useRoutes(routes, location);
  return (
    <RouteErrorBoundary resetKey={location.pathname}>
      <Suspense fallback={<SessionSkeleton />}>{element}</Suspense>
    </RouteErrorBoundary>
  );
}
