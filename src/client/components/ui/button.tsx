import { cva, type VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-xl text-center font-semibold transition-colors select-none disabled:cursor-not-allowed disabled:opacity-60 max-[16rem]:gap-1 max-[16rem]:px-3 [&_svg]:size-5 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        primary: 'bg-brand text-white hover:bg-brand-strong active:bg-brand-strong',
        secondary: 'border border-line bg-surface text-ink hover:bg-canvas',
        ghost: 'text-ink hover:bg-ink/5',
        danger: 'bg-danger text-white hover:bg-danger/90',
        link: 'text-brand-ink underline-offset-4 hover:underline',
      },
      size: {
        default: 'min-h-12 px-5 text-base',
        sm: 'min-h-10 px-4 text-sm',
        lg: 'min-h-14 px-6 text-lg',
        icon: 'size-12 rounded-full',
      },
    },
    defaultVariants: { variant: 'primary', size: 'default' },
  },
);

export type ButtonProps = ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean };

/**
 * Buttons at the spec's heights: 48 px default, 40 px small, 56 px large. A label stays on one
 * line (pairs too narrow for theirs stack instead); a list of long titles opts in to wrapping
 * with `whitespace-normal`.
 */
export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot.Root : 'button';
  return (
    <Comp
      className={cn(buttonVariants({ variant, size }), className)}
      {...(asChild ? {} : { type: type ?? 'button' })}
      {...props}
    />
  );
}
