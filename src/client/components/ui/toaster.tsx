import { X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';
import { TOAST_DURATION, dismissToast, useToasts } from './use-toast';

/**
 * Renders the toast queue: 5 s, swipe right past 50 px to dismiss, F8 to focus. On a phone the
 * toasts sit at the bottom, above the tab bar and the sticky actions, clear of the header's
 * menu button; from the medium breakpoint up, top right.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={50} label={t.common.toastRegion}>
      {toasts.map((item) => (
        <Toast.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          className={cn(
            'pointer-events-auto flex w-full items-start gap-3 rounded-2xl border p-4 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:hidden',
            item.variant === 'destructive'
              ? 'border-danger/30 bg-danger-soft text-danger'
              : item.variant === 'success'
                ? 'border-success/30 bg-success-soft text-success'
                : 'border-line bg-surface text-ink',
          )}
        >
          <div className="flex flex-1 flex-col gap-1">
            <Toast.Title className="font-semibold">{item.title}</Toast.Title>
            {item.description && <Toast.Description className="text-sm">{item.description}</Toast.Description>}
          </div>
          <Toast.Close aria-label={t.common.close} className="inline-flex size-10 items-center justify-center rounded-full hover:bg-ink/5">
            <X className="size-4" aria-hidden />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        hotkey={['F8']}
        className="fixed right-0 bottom-[calc(var(--tab-bar-height)+var(--actions-bar-height))] z-[100] flex max-h-screen w-full flex-col gap-2 p-4 md:top-0 md:bottom-auto md:max-w-[420px]"
      />
    </Toast.Provider>
  );
}
