import { Check } from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';
import { handOverFocus, menuTriggerOf } from './focus-return';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuGroup = Menu.Group;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuContent({ className, sideOffset = 8, collisionPadding = 8, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        collisionPadding={collisionPadding}
        align="end"
        // Never wider than the screen: a long item ("Sign out and remove my data...") wraps instead.
        className={cn('z-50 max-w-[var(--radix-dropdown-menu-content-available-width)] min-w-64 rounded-2xl border border-line bg-surface p-2 shadow-xl', className)}
        {...props}
      />
    </Menu.Portal>
  );
}

/**
 * A menu item. The menu closes as it is chosen; a dialog the item opens gets the menu's
 * button as the place to return focus to (the item itself is gone by then).
 */
export function DropdownMenuItem({ className, onSelect, ...props }: ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      onSelect={(event) => {
        if (event.currentTarget instanceof Element) handOverFocus(menuTriggerOf(event.currentTarget));
        onSelect?.(event);
      }}
      className={cn(
        'flex min-h-12 cursor-pointer items-center gap-3 rounded-xl px-3 text-base text-ink outline-none select-none data-[highlighted]:bg-brand-soft [&_svg]:size-5 [&_svg]:text-muted',
        className,
      )}
      {...props}
    />
  );
}

/** One choice of a DropdownMenuRadioGroup: a menuitemradio, checked with a tick. */
export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem
      className={cn(
        'flex min-h-12 cursor-pointer items-center gap-3 rounded-xl px-3 text-base text-ink outline-none select-none data-[highlighted]:bg-brand-soft',
        className,
      )}
      {...props}
    >
      <span className="flex size-5 items-center justify-center">
        <Menu.ItemIndicator>
          <Check className="size-5 text-brand-ink" aria-hidden />
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.RadioItem>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-3 py-2', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('my-1 h-px bg-line', className)} {...props} />;
}
