import { useRef } from 'react';

/**
 * Focus goes back where it was when a dialog closes. Radix returns it to a Dialog.Trigger,
 * but these dialogs are opened from buttons outside their root (Create, each card's Edit).
 */
export function useReturnFocus() {
  const previous = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      previous.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = previous.current;
      previous.current = null;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
