import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { prerenderedValue, watchPrerenderedInput } from '../../../lib/prerendered-input';
import { type ApiCall, json, renderScreen, stubApi, testUser } from '../../../test/render';
import { SignInPage } from './sign-in-page';

const home = <h1>Home screen</h1>;
const signIn = () => renderScreen(<SignInPage />, { path: '/login', others: { '/home': home } });
const signInCalls = (calls: ApiCall[]) => calls.filter((c) => c.url === '/api/auth/signin');

describe('SignInPage', () => {
  it('checks an empty form with the shared schema: a message under each field, focus on the first, nothing sent', async () => {
    const calls = stubApi(() => json(500, {}));
    const { user } = signIn();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Valid email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);

    // Editing a field takes its message away; the other stays until the next submit.
    await user.type(screen.getByLabelText('Email'), 'r');
    expect(screen.queryByText('Valid email is required')).toBeNull();
    expect(screen.getByText('Password is required')).toBeTruthy();
  });

  it("shows the server's sentence for a refused sign-in and moves focus to it", async () => {
    stubApi((call) => (call.url === '/api/auth/signin' ? json(401, { error: 'Invalid email or password', code: 'unauthenticated' }) : json(204)));
    const { user } = signIn();
    await user.type(screen.getByLabelText('Email'), 'rosa@example.test');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const alert = await screen.findByTestId('sign-in-error');
    expect(alert.textContent).toBe('Invalid email or password');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('sends one sign-in for a double tap and Enter while busy, then goes Home', async () => {
    let answer!: (r: Response) => void;
    const calls = stubApi((call) =>
      call.url === '/api/auth/signin' ? new Promise<Response>((resolve) => (answer = resolve)) : json(204),
    );
    const { user, router } = signIn();
    await user.type(screen.getByLabelText('Email'), 'rosa@example.test');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    // Two submits in the same tick (a double tap faster than a render), then more while busy.
    const form = screen.getByLabelText('Email').closest('form')!;
    fireEvent.submit(form);
    fireEvent.submit(form);
    await user.click(screen.getByRole('button', { name: /Sign/ }));
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('button', { name: 'Signing In...' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).disabled).toBe(true);
    await waitFor(() => expect(signInCalls(calls)).toHaveLength(1));
    expect(signInCalls(calls)[0]!.body).toMatchObject({ email: 'rosa@example.test', password: 'correct horse battery' });

    answer(json(200, { token: 'new-token', user: testUser }));
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
    expect(signInCalls(calls)).toHaveLength(1);
    expect(localStorage.getItem('auth_token')).toBe('new-token');
  });

  /** /login's drawn form (scripts/prerender.mjs), watched as main.tsx watches it, then replaced by the app. */
  function drawForm(typed: { email: string; password: string }) {
    const drawn = document.createElement('div');
    drawn.innerHTML = '<form method="dialog"><input name="email" type="email"><input name="password" type="password"><button>Sign In</button></form>';
    document.body.append(drawn);
    watchPrerenderedInput(drawn);
    const field = (name: string) => drawn.querySelector<HTMLInputElement>(`[name=${name}]`)!;
    field('email').value = typed.email;
    field('password').value = typed.password;
    return { drawn, password: field('password'), form: drawn.querySelector('form')! };
  }

  it("takes up what was typed into /login's drawn form before the app arrived, focus included, then forgets it", async () => {
    const drawn = drawForm({ email: 'rosa@example.test', password: 'correct horse' });
    drawn.password.focus();
    drawn.drawn.remove();

    const calls = stubApi((call) => (call.url === '/api/auth/signin' ? json(200, { token: 'new-token', user: testUser }) : json(204)));
    const { user } = signIn();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('rosa@example.test');
    const field = screen.getByLabelText('Password') as HTMLInputElement;
    expect(field.value).toBe('correct horse');
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Nothing is kept once taken up: the password above all.
    expect(prerenderedValue('password')).toBe('');
    expect(signInCalls(calls)).toEqual([]);

    await user.keyboard(' battery{Enter}');
    await waitFor(() => expect(signInCalls(calls)).toHaveLength(1));
    expect(signInCalls(calls)[0]!.body).toMatchObject({ email: 'rosa@example.test', password: 'correct horse battery' });
  });

  it('sends a sign-in asked for on the drawn form (where it went nowhere) once the screen is here, once', async () => {
    const drawn = drawForm({ email: 'rosa@example.test', password: 'correct horse battery' });
    drawn.form.requestSubmit();
    drawn.form.requestSubmit();
    drawn.drawn.remove();

    const calls = stubApi((call) => (call.url === '/api/auth/signin' ? json(200, { token: 'new-token', user: testUser }) : json(204)));
    signIn();
    expect(await screen.findByRole('button', { name: 'Signing In...' })).toBeTruthy();
    await waitFor(() => expect(signInCalls(calls)).toHaveLength(1));
    expect(signInCalls(calls)[0]!.body).toMatchObject({ email: 'rosa@example.test', password: 'correct horse battery' });
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeTruthy();
    expect(signInCalls(calls)).toHaveLength(1);
  });

  it('submits nowhere by itself: the form is a dialog form, so a submit without the app sends nothing', () => {
    stubApi(() => json(204));
    signIn();
    expect(screen.getByLabelText('Email').closest('form')!.getAttribute('method')).toBe('dialog');
  });
});
