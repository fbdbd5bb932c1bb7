import { AlertTriangle } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { common } from '#shared/messages/common';
import { paths } from '#shared/paths';
import { Button } from './ui/button';
import { Card } from './ui/card';

/** Any unknown path (spec: Route guard). */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <main id="main" className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-4 px-4">
      <Card className="flex flex-col gap-3">
        <div className="flex items-center gap-3">
          <AlertTriangle className="size-8 text-danger" aria-hidden />
          <h1 className="text-2xl font-bold">{common.notFoundTitle}</h1>
        </div>
        <p className="text-muted">{common.notFoundHint}</p>
        <code className="rounded-lg bg-canvas px-3 py-2 text-sm break-all text-ink">{location.pathname}</code>
        <Button asChild>
          <Link to={paths.root}>{common.notFoundBack}</Link>
        </Button>
      </Card>
    </main>
  );
}
