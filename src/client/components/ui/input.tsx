import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'block min-h-12 w-full rounded-xl border border-line bg-surface px-4 text-base text-ink placeholder:text-muted/80',
        'focus-visible:border-brand disabled:bg-canvas disabled:text-muted aria-invalid:border-danger',
        className,
      )}
      {...props}
    />
  );
}
