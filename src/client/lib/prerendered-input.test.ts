// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { prerenderedValue, takePrerenderedInput, watchPrerenderedInput } from './prerendered-input';

const drawn = (html: string) => {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.replaceChildren(root);
  return root;
};

describe('watchPrerenderedInput', () => {
  afterEach(() => {
    takePrerenderedInput();
    document.body.replaceChildren();
  });

  it("keeps the drawn sign-in form's fields, focus and submit for the screen", () => {
    const root = drawn('<main><form method="dialog"><input name="email"><input name="password" type="password"><button>Sign In</button></form></main>');
    watchPrerenderedInput(root);
    root.querySelector<HTMLInputElement>('input[name=email]')!.value = 'ann@example.com';
    root.querySelector<HTMLInputElement>('input[name=password]')!.focus();
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true }));
    expect(prerenderedValue('email')).toBe('ann@example.com');
    expect(takePrerenderedInput()).toMatchObject({ focused: 'password', submitted: true });
  });

  it("watches nothing on a screen drawn without a form (Home's switch input included): the app's forms later are not the drawn one", () => {
    const root = drawn('<main><button role="switch"></button><input type="checkbox" aria-hidden="true" tabindex="-1"></main>');
    watchPrerenderedInput(root);
    // Later, the app's own profile form, inside the same root.
    root.innerHTML = '<form><input name="email"></form>';
    root.querySelector<HTMLInputElement>('input')!.focus();
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true }));
    expect(takePrerenderedInput()).toMatchObject({ focused: '', submitted: false });
  });
});
