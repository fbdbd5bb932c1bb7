import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { Shield } from 'lucide-react';
import { Component, type ReactNode, useContext, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageChromeContext, PageLayout } from '../components/page-layout';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { TooltipProvider } from '../components/ui/tooltip';
import { isForbidden } from '../features/admin/api/admin-errors';
import { AdminAccessDialog } from '../features/admin/components/admin-access-dialog';
import { AdminNav, adminSection } from '../features/admin/components/admin-nav';
import { t } from '../lib/i18n';

/** The 403 screen's heading and sentence, per admin section. */
const accessTexts = {
  employers: { heading: t.admin.employers.title, message: t.admin.access.required },
  popups: { heading: t.popups.admin.title, message: t.popups.admin.accessRequired },
};

/** 403 from an admin read: the session is not stepped up, so offer the Admin Access dialog (and nothing else). */
function AdminAccessRequired({ heading, message }: { heading: string; message: string }) {
  const [open, setOpen] = useState(false);
  return (
    <PageLayout title={heading}>
      <h1 className="text-2xl font-bold">{heading}</h1>
      <Card className="flex flex-col gap-4">
        <Alert variant="info">{message}</Alert>
        <Button onClick={() => setOpen(true)}>
          <Shield aria-hidden />
          {t.admin.access.openDialog}
        </Button>
        <AdminAccessDialog open={open} onOpenChange={setOpen} />
      </Card>
    </PageLayout>
  );
}

interface BoundaryProps {
  /** A navigation (a new location key) tries the screen again. */
  resetKey: string;
  queryClient: QueryClient;
  forbidden: ReactNode;
  children: ReactNode;
}

/**
 * Admin reads refused with 403 throw (query client default); this boundary shows the access
 * screen instead of the page, so its search, filters and buttons are not offered. Any other
 * error goes on to the route's error boundary.
 */
class ForbiddenBoundary extends Component<BoundaryProps, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown) {
    // Forget the refused reads: the next visit (say, after Admin Access) starts from loading,
    // not from the old error.
    if (isForbidden(error)) this.props.queryClient.removeQueries({ predicate: (q) => isForbidden(q.state.error) });
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isForbidden(error)) throw error;
    return this.props.forbidden;
  }
}

/**
 * Every /admin/* screen: the admin bar at the top of the page, the access screen on 403,
 * and the spec's tooltip delays for the icon buttons.
 */
export default function AdminLayout() {
  const location = useLocation();
  const queryClient = useQueryClient();
  const parent = useContext(PageChromeContext);
  const chrome = useMemo(() => ({ ...parent, lead: <AdminNav /> }), [parent]);
  const texts = accessTexts[adminSection(location.pathname) ?? 'employers'];
  return (
    <TooltipProvider>
      <PageChromeContext value={chrome}>
        <ForbiddenBoundary resetKey={location.key} queryClient={queryClient} forbidden={<AdminAccessRequired {...texts} />}>
          <Outlet />
        </ForbiddenBoundary>
      </PageChromeContext>
    </TooltipProvider>
  );
}
