import { ArrowLeft, Home, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from './ui/alert';
import { Button } from './ui/button';
import { Card } from './ui/card';
import { Skeleton } from './ui/skeleton';

/** Loading: the screen's sentence for screen readers and sighted users, over grey shapes. */
export function LoadingState({ label, rows = 3, rowClassName = 'h-28' }: { label: string; rows?: number; rowClassName?: string }) {
  return (
    <div role="status" className="flex flex-col gap-3">
      <p className="text-center text-muted">{label}</p>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={`w-full ${rowClassName}`} />
      ))}
    </div>
  );
}

/** A failed load: the message, and the way back (`home` shows the home icon). */
export function ErrorState({ message, backTo, backLabel, home = false }: { message: string; backTo: string; backLabel: string; home?: boolean }) {
  return (
    <Card className="flex flex-col gap-4">
      <Alert>{message}</Alert>
      <Button variant="secondary" asChild>
        <Link to={backTo}>
          {home ? <Home aria-hidden /> : <ArrowLeft aria-hidden />}
          {backLabel}
        </Link>
      </Button>
    </Card>
  );
}

/** A record that does not exist: a heading and the way back. */
export function NotFoundState({ message, backTo, backLabel }: { message: string; backTo: string; backLabel: string }) {
  return (
    <Card className="flex flex-col items-center gap-4 py-8 text-center">
      <SearchX className="size-10 text-muted" aria-hidden />
      <h1 className="text-xl font-bold">{message}</h1>
      <Button variant="secondary" className="w-full" asChild>
        <Link to={backTo}>
          <ArrowLeft aria-hidden />
          {backLabel}
        </Link>
      </Button>
    </Card>
  );
}
