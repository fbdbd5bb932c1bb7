import { Menu } from 'lucide-react';
import { Suspense, lazy } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '#shared/paths';
import type { PageHeaderProps } from '../components/page-layout';
import { Skeleton } from '../components/ui/skeleton';
import { useAuth } from '../features/auth/auth-context';
import { useConfig } from '../features/config/use-config';
import { cn } from '../lib/cn';
import { menuButtonClass } from './header-menu-button';

// The menu and its dialogs exist only for a signed-in member: their own chunk keeps them
// (and the Radix menu, dialog and form code) out of the sign-in screen's first download.
const HeaderMenu = lazy(() => import('./header-menu'));

/** Stand-in while the menu loads: the same round button, not yet operable. */
function MenuButtonPlaceholder() {
  return (
    <span className={cn(menuButtonClass, 'opacity-80')} aria-hidden>
      <Menu className="size-6" aria-hidden />
    </span>
  );
}

/** The sign-in and register screens have no menu, not even while 'Signing In...' stores the session. */
const authScreens: readonly string[] = [paths.login, paths.register];

/** Logo, product title, optional page title and the round menu (spec: Shared page header). */
export function PageHeader({ title, extra }: PageHeaderProps) {
  const { brandName, brandLogoUrl, isLoading } = useConfig();
  const { isAuthenticated } = useAuth();
  const { pathname } = useLocation();
  const showMenu = isAuthenticated && !authScreens.includes(pathname);

  return (
    <header className="sticky top-0 z-30 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/80">
      <div className="mx-auto flex max-w-md items-center gap-3 px-4 py-3">
        <Link to={isAuthenticated ? paths.home : paths.login} className="flex min-h-12 min-w-0 flex-1 items-center gap-3 rounded-xl">
          <img src={brandLogoUrl} alt="" className="size-10 shrink-0 rounded-xl" width={40} height={40} />
          <span className="flex min-w-0 flex-col">
            {isLoading ? (
              <Skeleton className="h-5 w-28" />
            ) : (
              <span className="truncate text-lg leading-tight font-bold text-ink">{brandName}</span>
            )}
            {title && <span className="truncate text-sm text-muted">{title}</span>}
          </span>
        </Link>
        {showMenu && extra}
        {showMenu && (
          <Suspense fallback={<MenuButtonPlaceholder />}>
            <HeaderMenu />
          </Suspense>
        )}
      </div>
    </header>
  );
}
