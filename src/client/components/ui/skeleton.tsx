import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A grey shape where content is loading; hidden from screen readers. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-xl bg-line/60', className)} {...props} />;
}
