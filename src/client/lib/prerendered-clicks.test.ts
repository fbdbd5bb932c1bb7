// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { replayPrerenderedTaps } from './prerendered-clicks';

/** Lets the mutation observer see the app's render. */
const settle = () => new Promise((resolve) => setTimeout(resolve));

const drawnHome = `<main>
  <button type="button" aria-label="Open menu"><svg><path d="M4 5h16"></path></svg></button>
  <section aria-label="Health"><h2>Health</h2><a href="/health">Explore</a></section>
  <section aria-label="Wealth"><span><svg><path d="M19 7V4"></path></svg></span><h2>Wealth</h2></section>
  <form><button type="submit">Sign In</button></form>
</main>`;

/** The app's render in place of the drawn screen (React replaces the root's children), noting what is tapped in it. */
function renderApp(root: HTMLElement, html = drawnHome) {
  const taps: string[] = [];
  const app = document.createElement('div');
  app.innerHTML = html;
  for (const element of app.querySelectorAll('button, h2, section, span')) {
    element.addEventListener('pointerdown', () => taps.push(`pointerdown ${element.tagName} ${element.textContent}`));
    element.addEventListener('click', () => taps.push(`click ${element.tagName} ${element.getAttribute('aria-label') ?? element.textContent}`));
  }
  root.replaceChildren(...app.childNodes);
  return taps;
}

function drawnRoot() {
  const root = document.createElement('div');
  root.innerHTML = drawnHome;
  document.body.replaceChildren(root);
  replayPrerenderedTaps(root);
  return root;
}

describe('replayPrerenderedTaps', () => {
  afterEach(() => document.body.replaceChildren());

  it("gives the last tap on the drawn screen to the same control of the app's, as a pointer press and a click", async () => {
    const root = drawnRoot();
    root.querySelector('h2')!.click();
    // On the icon: the control is the button around it.
    root.querySelector('path')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const taps = renderApp(root);
    await settle();
    expect(taps).toEqual(['pointerdown BUTTON ', 'click BUTTON Open menu']);
  });

  it('finds the element again by what it is and says, wherever the app put it, and its place among its likes', async () => {
    const root = drawnRoot();
    root.querySelectorAll('h2')[1]!.click();
    const taps = renderApp(root, `<div role="alert"><h2>Verify your email</h2></div>${drawnHome}`);
    await settle();
    expect(taps.filter((tap) => tap.startsWith('click H2'))).toEqual(['click H2 Wealth']);
    expect(taps.at(-1)).toBe('click SECTION Wealth');
  });

  it('leaves links (they navigate on their own) and forms (the screen takes them up) alone', async () => {
    const root = drawnRoot();
    root.querySelector('a')!.addEventListener('click', (event) => event.preventDefault());
    root.querySelector('a')!.click();
    root.querySelector('button[type=submit]')!.addEventListener('click', (event) => event.preventDefault());
    root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    const taps = renderApp(root);
    await settle();
    expect(taps).toEqual([]);
  });

  it('gives nothing when the app has no such element, and nothing more once its screen is in place', async () => {
    const root = drawnRoot();
    root.querySelector('h2')!.click();
    const taps = renderApp(root, '<main><h2>Salud</h2></main>');
    await settle();
    root.querySelector('h2')!.click();
    await settle();
    // Only the member's own tap on the app's element, none given by the replay.
    expect(taps).toEqual(['click H2 Salud']);
    // A later render of the app's is not the drawn screen going: nothing is given again.
    const later = renderApp(root);
    await settle();
    expect(later).toEqual([]);
  });

  it("takes a tap on an icon for its card, whatever empty boxes the app's screen adds before it", async () => {
    const root = drawnRoot();
    root.querySelectorAll('path')[1]!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const taps = renderApp(root, `<span></span><span></span>${drawnHome}`);
    await settle();
    expect(taps.filter((tap) => tap.startsWith('click'))).toEqual(['click SECTION Wealth']);
  });

  it("takes a press still down when the app's screen arrives for a tap (its release lands on the app's element, and no click follows)", async () => {
    const root = drawnRoot();
    root.querySelector('h2')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    const taps = renderApp(root);
    await settle();
    root.querySelector('h2')!.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
    expect(taps.filter((tap) => tap.startsWith('click'))).toEqual(['click H2 Health', 'click SECTION Health']);
  });

  it('takes no press that ended before the app arrived without a click: released elsewhere, or a scroll', async () => {
    const root = drawnRoot();
    const h2 = root.querySelector('h2')!;
    h2.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    h2.dispatchEvent(new PointerEvent('pointercancel', { bubbles: true }));
    h2.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    h2.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
    const taps = renderApp(root);
    await settle();
    expect(taps).toEqual([]);
  });

  it("moves focus to the same control of the app's screen when the drawn one had it", async () => {
    const root = drawnRoot();
    root.querySelector<HTMLButtonElement>('button[aria-label="Open menu"]')!.focus();
    renderApp(root);
    await settle();
    expect(document.activeElement).toBe(root.querySelector('button[aria-label="Open menu"]'));
    expect(document.activeElement?.isConnected).toBe(true);
  });
});
