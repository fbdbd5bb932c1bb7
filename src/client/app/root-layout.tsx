import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';
import { PageChromeContext } from '../components/page-layout';
import { useToasts } from '../components/ui/use-toast';
import { useApplyBrand } from '../features/config/use-config';
import { common } from '../lib/messages/common';
import { PageHeader } from './page-header';
import { PwaChrome } from './pwa/pwa-chrome';

const chrome = { Header: PageHeader };

// Toasts are rare: the Radix toast code loads with the first one, not with every screen.
const Toaster = lazy(() => import('../components/ui/toaster').then((m) => ({ default: m.Toaster })));

function ToasterOnDemand() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/**
 * The brand from the configuration, applied to the document. A component of its own, so that the
 * configuration's arrival re-renders nothing else (docs/decisions/prerendered-home.md).
 */
function ApplyBrand() {
  useApplyBrand();
  return null;
}

export function RootLayout() {
  return (
    <>
      <ApplyBrand />
      <PwaChrome />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[200] focus:rounded-xl focus:bg-surface focus:px-4 focus:py-3 focus:shadow"
      >
        {common.skipToContent}
      </a>
      <PageChromeContext value={chrome}>
        <Outlet />
      </PageChromeContext>
      <ToasterOnDemand />
    </>
  );
}
