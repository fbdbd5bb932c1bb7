/**
 * A tap on a screen drawn ahead of time (a signed-in device's Home in /home's HTML,
 * scripts/prerender.mjs) before the app's code has arrived: a link navigates on its own, but a
 * button, or a card whose body leads somewhere, needs the app. The last such tap is kept and
 * given, once the app has rendered its screen in place of the drawn one, to the same element
 * of the app's screen, so the menu opens, or the card leads on, a moment late rather than
 * never. Forms are not this code's: the sign-in form's input and submit are taken up by the
 * screen itself (prerendered-input.ts).
 */

/** Which element a tap was on, found again in the app's screen by what it is and says. */
interface Tapped {
  tag: string;
  label: string | null;
  text: string;
  /** Among the drawn elements with the same tag, label and text, this one's place. */
  nth: number;
}

const same = (element: Element, tapped: Omit<Tapped, 'nth'>) =>
  element.tagName === tapped.tag && element.getAttribute('aria-label') === tapped.label && element.textContent === tapped.text;

function peers(root: Element, tapped: Omit<Tapped, 'nth'>): Element[] {
  return [...root.querySelectorAll(tapped.tag)].filter((element) => same(element, tapped));
}

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
  const drawn = root.firstElementChild;
  if (!drawn) return;
  let tapped: Tapped | null = null;
  const onClick = (event: MouseEvent) => {
    const { target } = event;
    if (!(target instanceof Element) || target.closest('a[href], form')) return;
    // The control tapped, not the part of its icon under the finger.
    const element = target.closest('button') ?? (target instanceof SVGElement ? target.closest('svg')?.parentElement : target);
    if (!element) return;
    const described = { tag: element.tagName, label: element.getAttribute('aria-label'), text: element.textContent };
    tapped = { ...described, nth: peers(root, described).indexOf(element) };
  };
  root.addEventListener('click', onClick);
  const observer = new MutationObserver(() => {
    if (drawn.isConnected) return;
    observer.disconnect();
    root.removeEventListener('click', onClick);
    // The app's screen is in place, its event handlers with it (React listens at the root).
    const target = tapped && peers(root, tapped)[tapped.nth];
    if (target instanceof HTMLElement) tap(target);
  });
  observer.observe(root, { childList: true });
}
