import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_USER_KEY } from '../../lib/auth-storage';
import { meAnswer, renderScreen, storeTestSession, stubApi, testUser } from '../../test/render';
import { useAuth } from './auth-context';

/** Lets React render whatever the last update scheduled. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Shows the session's user, counting its own renders. */
function renders() {
  const count = { value: 0 };
  function Greeting() {
    const { user } = useAuth();
    count.value += 1;
    return <p>Hello {user?.firstName}</p>;
  }
  return { count, Greeting };
}

describe('a restored session, confirmed by the server', () => {
  it("takes the server's user when it differs from the stored one (a name changed elsewhere)", async () => {
    storeTestSession();
    const calls = stubApi(() => meAnswer({ ...testUser, firstName: 'Rosalind' }));
    const { Greeting } = renders();
    renderScreen(<Greeting />, { path: '/home' });
    expect(screen.getByText('Hello Rosa')).toBeTruthy();
    expect(await screen.findByText('Hello Rosalind')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(AUTH_USER_KEY)!)).toMatchObject({ firstName: 'Rosalind' });
    expect(calls.map((c) => c.url)).toContain('/api/auth/me');
  });

  it('renders nothing again when the server confirms the same user (the usual answer)', async () => {
    storeTestSession();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    stubApi(async (call) => {
      if (call.url !== '/api/auth/me') return meAnswer();
      await answered;
      return meAnswer();
    });
    const { count, Greeting } = renders();
    renderScreen(<Greeting />, { path: '/home' });
    expect(screen.getByText('Hello Rosa')).toBeTruthy();
    // Settled before the answer: whatever the first renders were.
    await waitFor(() => expect(count.value).toBeGreaterThan(0));
    const before = count.value;
    // The answer is kept (storeSession) once handled: storage tells when.
    const kept = vi.spyOn(localStorage, 'setItem');
    answer();
    await waitFor(() => expect(kept.mock.calls.some(([key]) => key === AUTH_USER_KEY)).toBe(true));
    await settle();
    expect(count.value).toBe(before);
    expect(screen.getByText('Hello Rosa')).toBeTruthy();
  });
});
