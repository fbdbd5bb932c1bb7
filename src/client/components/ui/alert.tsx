import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Alert({ className, variant = 'danger', ...props }: ComponentProps<'div'> & { variant?: 'danger' | 'success' | 'info' }) {
  return (
    <div
      role={variant === 'danger' ? 'alert' : 'status'}
      className={cn(
        'rounded-xl border px-4 py-3 text-sm font-medium',
        variant === 'danger' && 'border-danger/30 bg-danger-soft text-danger',
        variant === 'success' && 'border-success/30 bg-success-soft text-success',
        variant === 'info' && 'border-brand/20 bg-brand-soft text-brand-ink',
        className,
      )}
      {...props}
    />
  );
}
