import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

type SwitchProps = Omit<ComponentProps<'button'>, 'type' | 'role' | 'value' | 'onChange'> & {
  checked: boolean;
  onCheckedChange?: (checked: boolean) => void;
};

/**
 * An on/off switch, 48 px tall touch target around a 28 px track: a button with role `switch`
 * and `aria-checked` (WAI-ARIA's switch pattern; Space and Enter press it, as any button), always
 * controlled. Not Radix's Switch: it keeps its own element in state through a ref, so the commit
 * that first shows one re-renders it at once, synchronously, in the same task; on Home (the
 * voice switch) that was four tenths of the app's longest start-up task
 * (docs/decisions/prerendered-home.md). Every switch here is controlled and none is submitted
 * by a native form, which is what Radix's hidden input is for.
 */
export function Switch({ checked, onCheckedChange, onClick, className, ...props }: SwitchProps) {
  const state = checked ? 'checked' : 'unchecked';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      className={cn(
        'relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors',
        'before:absolute before:-inset-2.5 before:content-[""]',
        'bg-muted data-[state=checked]:bg-brand disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange?.(!checked);
      }}
      {...props}
    >
      <span
        data-state={state}
        className="pointer-events-none block size-6 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
