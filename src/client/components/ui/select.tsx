import { Check, ChevronDown } from 'lucide-react';
import { Select as SelectPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

interface SelectProps extends Omit<ComponentProps<typeof SelectPrimitive.Root>, 'children'> {
  options: readonly { value: string; label: string }[];
  placeholder?: string;
  id?: string;
  className?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** A labelled single choice on Radix Select, at touch height. */
export function Select({ options, placeholder, id, className, ...props }: SelectProps) {
  const { 'aria-label': ariaLabel, 'aria-invalid': ariaInvalid, 'aria-describedby': describedBy, ...root } = props;
  return (
    <SelectPrimitive.Root {...root}>
      <SelectPrimitive.Trigger
        id={id}
        aria-label={ariaLabel}
        aria-invalid={ariaInvalid}
        aria-describedby={describedBy}
        className={cn(
          'flex min-h-12 w-full items-center justify-between gap-2 rounded-xl border border-line bg-surface px-4 text-left text-base text-ink [&>span]:min-w-0',
          'focus-visible:border-brand aria-invalid:border-danger data-[placeholder]:text-muted',
          className,
        )}
      >
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon>
          <ChevronDown className="size-5 text-muted" aria-hidden />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content position="popper" sideOffset={4} className="z-50 max-h-80 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-xl border border-line bg-surface shadow-xl">
          <SelectPrimitive.Viewport className="p-1">
            {options.map((o) => (
              <SelectPrimitive.Item
                key={o.value}
                value={o.value}
                className="relative flex min-h-12 cursor-pointer items-center rounded-lg pr-3 pl-9 text-base outline-none select-none data-[highlighted]:bg-brand-soft"
              >
                <SelectPrimitive.ItemIndicator className="absolute left-2">
                  <Check className="size-5 text-brand-ink" aria-hidden />
                </SelectPrimitive.ItemIndicator>
                <SelectPrimitive.ItemText>{o.label}</SelectPrimitive.ItemText>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
