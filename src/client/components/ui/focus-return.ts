/**
 * Where focus goes when a dialog closes. Radix returns it only to a Dialog.Trigger; most
 * dialogs here open from a menu item or a plain button, and some from a menu or another
 * dialog that closes in the same click (its button is gone before the new dialog opens).
 * Those hand the element focus should return to over here, for the next dialog that opens
 * with nothing focused.
 */
let handedOver: { element: HTMLElement; at: number } | null = null;

/** A hand-over older than this belongs to no dialog (a menu item that navigated, say). */
const HAND_OVER_MS = 1000;

/** Remembers `element` as the opener of the dialog about to open. */
export function handOverFocus(element: HTMLElement | null) {
  handedOver = element ? { element, at: performance.now() } : null;
}

/**
 * The element a dialog opening now should return focus to: the focused one, or, when focus
 * is on nothing (or on a menu item about to disappear), the one handed over just before.
 */
export function captureOpener(): HTMLElement | null {
  const active = document.activeElement;
  const pending = handedOver && performance.now() - handedOver.at < HAND_OVER_MS ? handedOver.element : null;
  handedOver = null;
  const focusedSomething = active instanceof HTMLElement && active !== document.body && active.isConnected;
  if (focusedSomething && !active.closest('[role="menu"]')) return active;
  return pending ?? (focusedSomething ? active : null);
}

/** The button that opened the menu holding `item` (Radix labels a menu by its trigger). */
export function menuTriggerOf(item: Element): HTMLElement | null {
  const id = item.closest('[role="menu"]')?.getAttribute('aria-labelledby');
  const trigger = id ? document.getElementById(id) : null;
  return trigger instanceof HTMLElement ? trigger : null;
}
