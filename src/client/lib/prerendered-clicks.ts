/**
 * A tap on a screen drawn ahead of time (a signed-in device's Home in /home's HTML,
 * scripts/prerender.mjs) before the app's code has arrived: a link navigates on its own, but a
 * button, or a card whose body leads somewhere, needs the app. The last such tap is kept and
 * given, once the app has rendered its screen in place of the drawn one, to the same element
 * of the app's screen, so the menu opens, or the card leads on, a moment late rather than
 * never; a press still down when the app's screen arrives counts as such a tap. Focus moves over
 * the same way, so a keyboard or screen reader user is not put back at the top of the page. Forms are not this code's: the sign-in form's input, focus and submit are
 * taken up by the screen itself (prerendered-input.ts).
 */

/** Which element a tap was on, found again in the app's screen by what it is and says. */
interface Drawn {
  tag: string;
  label: string | null;
  text: string;
  /** Among the drawn elements with the same tag, label and text, this one's place. */
  nth: number;
}

const same = (element: Element, drawn: Omit<Drawn, 'nth'>) =>
  element.tagName === drawn.tag && element.getAttribute('aria-label') === drawn.label && element.textContent === drawn.text;

const peers = (root: Element, drawn: Omit<Drawn, 'nth'>) => [...root.querySelectorAll(drawn.tag)].filter((element) => same(element, drawn));

/**
 * The element a tap or focus on `target` stands for: the button it is in, else the nearest
 * element that says something (text or a label), so that a tap on an icon is a tap on its card
 * rather than on one of many empty boxes. Null for links (they work without the app), forms,
 * and anything outside `root`.
 */
function describe(root: Element, target: EventTarget | null): Drawn | null {
  if (!(target instanceof Element) || target.closest('a[href], form')) return null;
  let element: Element | null = target.closest('button') ?? target;
  while (element && element !== root && !element.getAttribute('aria-label') && !element.textContent?.trim()) element = element.parentElement;
  if (!element || element === root || !root.contains(element)) return null;
  const described = { tag: element.tagName, label: element.getAttribute('aria-label'), text: element.textContent ?? '' };
  return { ...described, nth: peers(root, described).indexOf(element) };
}

const find = (root: Element, drawn: Drawn | null) => (drawn ? peers(root, drawn)[drawn.nth] : undefined);

/**
 * A tap as the browser reports one: a menu opens on the pointer going down (Radix's trigger),
 * most controls on the click.
 */
function tap(target: HTMLElement) {
  const init: PointerEventInit = { bubbles: true, cancelable: true, composed: true, button: 0, isPrimary: true, pointerType: 'touch' };
  target.dispatchEvent(new PointerEvent('pointerdown', init));
  target.dispatchEvent(new PointerEvent('pointerup', init));
  target.click();
}

/**
 * Starts watching the drawn screen in `root` (nothing to watch in an empty one). Stops once the
 * app's first render has taken the drawn elements out of the page.
 */
export function replayPrerenderedTaps(root: HTMLElement) {
  const first = root.firstElementChild;
  if (!first) return;
  let tapped: Drawn | null = null;
  let focused: Drawn | null = null;
  // A press still down when the app's screen replaces the drawn one: its release lands on the
  // app's element, and no click follows (the press began on an element no longer in the page),
  // so the tap is this press. A release or a cancel (the finger scrolled) ends it.
  let pressed: Drawn | null = null;
  const listeners = {
    click: (event: Event) => (tapped = describe(root, event.target)),
    focusin: (event: Event) => (focused = describe(root, event.target)),
    pointerdown: (event: Event) => (pressed = describe(root, event.target)),
    pointerup: () => (pressed = null),
    pointercancel: () => (pressed = null),
  };
  for (const [type, listener] of Object.entries(listeners)) root.addEventListener(type, listener);
  const observer = new MutationObserver(() => {
    if (first.isConnected) return;
    observer.disconnect();
    for (const [type, listener] of Object.entries(listeners)) root.removeEventListener(type, listener);
    // The app's screen is in place, its event handlers with it (React listens at the root).
    const focus = document.activeElement === document.body ? find(root, focused) : undefined;
    if (focus instanceof HTMLElement) focus.focus();
    const target = find(root, pressed ?? tapped);
    if (target instanceof HTMLElement) tap(target);
  });
  observer.observe(root, { childList: true });
}
