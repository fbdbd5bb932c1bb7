import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, renderScreen, stubApi } from '../../../test/render';
import { REGISTER_REDIRECT_MS, RegisterPage } from './register-page';

const member = { firstName: 'Rosa', lastName: 'Diaz', email: 'rosa@example.test', company: 'Acme Test Employer', lhmpId: 'LQ12345', password: 'Quiet lantern harbour 92' };
const registrations = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/auth/register');

function register(answer: (call: ApiCall) => Response) {
  const calls = stubApi((call) => (call.url.startsWith('/api/employers/suggest') ? json(200, { employers: [] }) : answer(call)));
  const view = renderScreen(<RegisterPage />, {
    path: '/register',
    others: { '/login': <h1>Sign-in screen</h1> },
    user: { advanceTimers: (ms) => vi.advanceTimersByTime(ms) },
  });
  const fill = async (values: Partial<typeof member> = member) => {
    const labels: Record<keyof typeof member, string> = { firstName: 'First Name', lastName: 'Last Name', email: 'Email', company: 'Employer', lhmpId: 'Program ID (LHMP ID)', password: 'Password' };
    for (const [name, value] of Object.entries(values)) await view.user.type(screen.getByLabelText(labels[name as keyof typeof member]), value);
  };
  return { ...view, calls, fill, submit: () => view.user.click(screen.getByRole('button', { name: 'Create Account' })) };
}

// The 2-second redirect is the app's own timer: fake timers that also run on their own, so
// typing and rendering proceed and the test can jump the 2 seconds.
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RegisterPage', () => {
  it('checks with the shared schema: every message under its field, focus on the first, nothing sent', async () => {
    const { submit, calls } = register(() => json(500, {}));
    await submit();
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(screen.getByText('Valid email is required')).toBeTruthy();
    expect(screen.getByText('Company is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('First Name')));
    expect(registrations(calls)).toEqual([]);
  });

  it("puts the server's field message under its field and focuses it, without repeating it on top", async () => {
    const { fill, submit } = register(() => json(409, { error: 'Validation failed', code: 'conflict', fields: { lhmpId: 'This programme ID is already registered' } }));
    await fill();
    await submit();
    expect(await screen.findByText('This programme ID is already registered')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Program ID (LHMP ID)')));
    expect(screen.queryByText('Validation failed')).toBeNull();
  });

  it('says the account was created, locks the form and goes to sign-in after 2 seconds', async () => {
    const { fill, submit, calls, router } = register(() => json(201, { user: { id: '0b8f3c1e-6a52-4d1e-9a57-2f4c8e6d9b10' } }));
    await fill();
    await submit();
    expect(await screen.findByText('Account created successfully! You can now sign in.')).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).disabled).toBe(true);
    expect(registrations(calls).map((c) => c.body)).toEqual([member]);
    expect(router.state.location.pathname).toBe('/register');

    act(() => vi.advanceTimersByTime(REGISTER_REDIRECT_MS));
    expect(await screen.findByRole('heading', { name: 'Sign-in screen' })).toBeTruthy();
  });
});
