/**
 * A screen drawn ahead of time (the sign-in screen in /login's HTML, scripts/prerender.mjs)
 * takes input before the app's code has arrived. main.tsx watches it from the start; the app's
 * first render replaces it, and the screen takes up what was typed, the field that had focus,
 * and a submit asked for meanwhile, so nothing the member did is lost.
 */
interface Drawn {
  /** The drawn fields: they keep their values once replaced. */
  inputs: HTMLInputElement[];
  /** The name of the field that had focus last ('' for none). */
  focused: string;
  /** Whether the drawn form was submitted (a dialog form: it went nowhere). */
  submitted: boolean;
}

let drawn: Drawn | null = null;

/**
 * Starts watching the drawn form in `root`: its named fields (nothing to watch on a screen
 * drawn without one, such as Home, whose controls are prerendered-clicks.ts's).
 */
export function watchPrerenderedInput(root: HTMLElement) {
  const inputs = [...root.querySelectorAll<HTMLInputElement>('form input[name]')];
  if (inputs.length === 0) return;
  const state: Drawn = { inputs, focused: '', submitted: false };
  const note = (target: EventTarget | null) => {
    if (target instanceof HTMLInputElement) state.focused = target.name;
  };
  note(document.activeElement);
  // Once taken up, this state is no one's: the app's own elements, which fire these later, change nothing.
  root.addEventListener('focusin', (event) => note(event.target));
  root.addEventListener('submit', () => (state.submitted = true));
  drawn = state;
}

/** The value in the drawn field `name` now ('' if none, or once taken up). */
export function prerenderedValue(name: string): string {
  return drawn?.inputs.find((input) => input.name === name)?.value ?? '';
}

/** The drawn screen's focus and submit, once: the screen that takes them up forgets the drawn fields (a password above all). */
export function takePrerenderedInput(): Pick<Drawn, 'focused' | 'submitted'> {
  const taken = drawn ?? { focused: '', submitted: false };
  drawn = null;
  return taken;
}
