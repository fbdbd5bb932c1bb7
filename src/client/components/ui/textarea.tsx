import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A multi-line text input in the style of Input. */
export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'block min-h-24 w-full rounded-xl border border-line bg-surface px-4 py-3 text-base text-ink placeholder:text-muted/80',
        'focus-visible:border-brand disabled:bg-canvas disabled:text-muted aria-invalid:border-danger',
        className,
      )}
      {...props}
    />
  );
}
