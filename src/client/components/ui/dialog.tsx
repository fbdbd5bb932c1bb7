import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type ComponentProps, type ReactNode, useEffect, useRef } from 'react';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';
import { captureOpener, handOverFocus } from './focus-return';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

interface DialogContentProps extends Omit<ComponentProps<typeof DialogPrimitive.Content>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  /** Hides the corner close button (a dialog that must be answered). */
  hideClose?: boolean;
}

/** Runs `onUnmount` when the open dialog's content goes. */
function UnmountSignal({ onUnmount }: { onUnmount: () => void }) {
  const latest = useRef(onUnmount);
  useEffect(() => {
    latest.current = onUnmount;
  });
  useEffect(() => () => latest.current(), []);
  return null;
}

/**
 * A centred modal: focus moves in and, on close, back to whatever opened it (Radix alone
 * does that only for a Dialog.Trigger; see focus-return.ts), unless that is gone. The title
 * and the close button stay in view while a long body scrolls; the page behind is inert.
 * A caller's onOpenAutoFocus / onCloseAutoFocus that calls preventDefault() takes over.
 */
export function DialogContent({ title, description, hideClose, className, children, onOpenAutoFocus, onCloseAutoFocus, ...props }: DialogContentProps) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50 data-[state=open]:animate-in" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 max-[16rem]:w-[calc(100%-1rem)] -translate-y-1/2 flex-col overflow-hidden rounded-2xl bg-surface shadow-xl',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        onOpenAutoFocus={(event) => {
          opener.current = captureOpener();
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const target = opener.current;
          opener.current = null;
          if (event.defaultPrevented) return;
          if (target?.isConnected) {
            event.preventDefault();
            target.focus();
          }
        }}
        {...props}
      >
        {/* A dialog closing because another opens from it (a list, then its video) hands its opener on. */}
        <UnmountSignal onUnmount={() => handOverFocus(opener.current)} />
        <div className="flex shrink-0 items-start justify-between gap-4 px-6 pt-6 pb-2 max-[16rem]:gap-1 max-[16rem]:px-4">
          <div className="flex min-w-0 flex-col gap-1">
            <DialogPrimitive.Title className="text-xl font-bold text-ink max-[16rem]:text-lg">{title}</DialogPrimitive.Title>
            {description && <DialogPrimitive.Description className="text-sm text-muted">{description}</DialogPrimitive.Description>}
          </div>
          {!hideClose && (
            <DialogPrimitive.Close
              className="-mt-2 -mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-ink/5"
              aria-label={t.common.close}
            >
              <X className="size-5" aria-hidden />
            </DialogPrimitive.Close>
          )}
        </div>
        <div className="flex min-h-0 flex-col gap-4 overflow-y-auto px-6 pt-2 pb-6 max-[16rem]:px-4">{children}</div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
