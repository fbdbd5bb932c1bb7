import { MenuIcon } from '../components/shell-icons';
import { Suspense, lazy, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { common } from '../lib/messages/common';
import { paths } from '#shared/paths';
import type { PageHeaderProps } from '../components/page-layout';
import { Skeleton } from '../components/ui/skeleton';
import { cn } from '../lib/cn';
import { useAuth } from '../features/auth/auth-context';
import { useConfig } from '../features/config/use-config';
import type * as HeaderMenuModule from './header-menu';
import { menuButtonClass } from './header-menu-button';

// The menu, its dialogs and Radix's menu code load when the member first reaches for the
// menu (pointer over it, focus, or a tap), not with every signed-in page: most visits never
// open it. Once loaded, every later header renders the real menu at once.
let menuModule: Promise<typeof HeaderMenuModule> | undefined;
let menuLoaded = false;
function loadHeaderMenu() {
  menuModule ??= import('./header-menu').then(
    (m) => {
      menuLoaded = true;
      return m;
    },
    (err: unknown) => {
      menuModule = undefined;
      throw err;
    },
  );
  return menuModule;
}
const HeaderMenu = lazy(loadHeaderMenu);
const prefetchMenu = () => void loadHeaderMenu().catch(() => undefined);

/**
 * The round menu button before the menu's code has loaded: it looks and is named as the
 * menu's own, fetches the code on approach, and a press (click, Enter or Space, ArrowDown)
 * opens the menu as soon as it is there. While it loads, presses do nothing more.
 */
function MenuButtonStandIn({ onOpen }: { onOpen?: (how: 'pointer' | 'keyboard') => void }) {
  return (
    <button
      type="button"
      className={menuButtonClass}
      aria-label={common.openMenu}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={prefetchMenu}
      onPointerDown={prefetchMenu}
      onFocus={prefetchMenu}
      // A click from Enter or Space has no pointer position (detail 0).
      onClick={(event) => onOpen?.(event.detail === 0 ? 'keyboard' : 'pointer')}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown') return;
        event.preventDefault();
        onOpen?.('keyboard');
      }}
    >
      <MenuIcon className="size-6" aria-hidden />
    </button>
  );
}

function MenuOnDemand() {
  const [openOnMount, setOpenOnMount] = useState<'pointer' | 'keyboard' | 'no' | null>(() => (menuLoaded ? 'no' : null));
  if (openOnMount === null) return <MenuButtonStandIn onOpen={setOpenOnMount} />;
  return (
    <Suspense fallback={<MenuButtonStandIn />}>
      <HeaderMenu openOnMount={openOnMount === 'no' ? undefined : openOnMount} />
    </Suspense>
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
    <header className="sticky top-[var(--offline-banner-height)] z-30 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/80">
      <div className="mx-auto flex max-w-md items-center gap-3 px-4 py-3">
        <Link to={isAuthenticated ? paths.home : paths.login} className="flex min-h-12 min-w-0 flex-1 items-center gap-3 rounded-xl">
          <img src={brandLogoUrl} alt="" className="size-10 shrink-0 rounded-xl" width={40} height={40} />
          {/* Beside the menu on the narrowest screens (200% zoom) the name would be cut to "We...": it is still read out. */}
          <span className={cn('flex min-w-0 flex-col', showMenu && 'max-[16rem]:sr-only')}>
            {isLoading ? (
              <Skeleton className="h-5 w-28" />
            ) : (
              <span className="truncate text-lg leading-tight font-bold text-ink">{brandName}</span>
            )}
            {title && <span className="truncate text-sm text-muted">{title}</span>}
          </span>
        </Link>
        {showMenu && extra}
        {showMenu && <MenuOnDemand />}
      </div>
    </header>
  );
}
