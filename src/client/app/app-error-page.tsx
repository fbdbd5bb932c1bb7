import { TriangleAlertIcon } from '../components/shell-icons';
import { Link, useLocation } from 'react-router';
import { common } from '../lib/messages/common';
import { paths } from '#shared/paths';
import type { ReactNode } from 'react';
import { PageChromeContext, PageLayout } from '../components/page-layout';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { PageHeader } from './page-header';

/** The page both problems share: a warning icon beside the title, then what to do. */
function ProblemPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageLayout title={title}>
      <Card className="flex flex-col gap-3">
        <div className="flex items-center gap-3">
          <TriangleAlertIcon className="size-8 shrink-0 text-danger" aria-hidden />
          <h1 className="text-2xl font-bold">{title}</h1>
        </div>
        {children}
      </Card>
    </PageLayout>
  );
}

/** Any unknown address (the catch-all route): the app's own page, with its header and a way home. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <ProblemPage title={common.notFoundTitle}>
      <p className="text-muted">{common.notFoundHint}</p>
      <p className="rounded-lg bg-canvas px-3 py-2 text-sm break-all text-ink">{pathname}</p>
      <Button asChild>
        <Link to={paths.root}>{common.notFoundBack}</Link>
      </Button>
    </ProblemPage>
  );
}

const chrome = { Header: PageHeader };

/**
 * A screen that threw, or whose code could not be fetched (say, after a new release). The
 * route error boundary sits outside the root layout, so this page brings the header itself.
 * Home is a full page load: the app is fetched again from the server.
 */
export function RouteErrorPage() {
  return (
    <PageChromeContext value={chrome}>
      <ProblemPage title={common.errorTitle}>
        <Alert>{common.genericError}</Alert>
        <Button asChild>
          <a href={paths.root}>{common.home}</a>
        </Button>
      </ProblemPage>
    </PageChromeContext>
  );
}
