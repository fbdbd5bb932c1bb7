/**
 * A screen drawn ahead of time (the sign-in screen in /login's HTML, scripts/prerender.mjs)
 * takes input before the app's code has arrived. main.tsx watches it from the start; the app's
 * first render replaces it, and the screen takes up what was typed, the field that had focus,
 * and a submit asked for meanwhile, so nothing the member did is lost.
 */
interface Drawn {
  inputs: Map<string, HTMLInputElement>;
  forms: HTMLFormElement[];
  focused: string | null;
  submitted: boolean;
}

let drawn: Drawn | null = null;

/** Starts watching the drawn screen in `root` (no-op when it holds none). */
export function watchPrerenderedInput(root: HTMLElement) {
  const inputs = new Map<string, HTMLInputElement>();
  for (const input of root.querySelectorAll('input[name]')) if (input instanceof HTMLInputElement) inputs.set(input.name, input);
  const forms = [...root.querySelectorAll('form')];
  if (inputs.size === 0 && forms.length === 0) return;
  const state: Drawn = { inputs, forms, focused: null, submitted: false };
  const noteFocus = () => {
    const active = document.activeElement;
    if (active instanceof HTMLInputElement && inputs.get(active.name) === active) state.focused = active.name;
  };
  noteFocus();
  // The drawn elements only: once the app has rendered, its own elements fire these too.
  root.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLInputElement && inputs.get(event.target.name) === event.target) state.focused = event.target.name;
  });
  root.addEventListener('submit', (event) => {
    if (event.target instanceof HTMLFormElement && forms.includes(event.target)) state.submitted = true;
  });
  drawn = state;
}

/** The value in the drawn field `name` now ('' if none); the element keeps it once replaced. */
export function prerenderedValue(name: string): string {
  return drawn?.inputs.get(name)?.value ?? '';
}

/** The drawn field that had focus last, if any. */
export function prerenderedFocus(): string | null {
  return drawn?.focused ?? null;
}

/** Whether the member submitted the drawn form (a dialog form: it went nowhere). */
export function prerenderedSubmit(): boolean {
  return drawn?.submitted ?? false;
}

/** Forgets the drawn screen once a screen has taken it up (a typed password above all). */
export function forgetPrerenderedInput() {
  drawn = null;
}
