import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { writeDraft } from '../../../lib/form-draft';
import { type ApiCall, json, meAnswer, renderScreen, storeTestSession, stubApi, testUser } from '../../../test/render';
import { AddFamilyPage } from './family-form-page';

const values = { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' };
const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/family-members');

/**
 * The add form, signed in, with the four values already typed (the form's own draft: the
 * relationship select is a Radix listbox, which happy-dom cannot open).
 */
function addFamily(answer: (call: ApiCall) => Response | Promise<Response>) {
  storeTestSession();
  writeDraft(testUser.id, 'family-add', values);
  const calls = stubApi((call) => (call.url === '/api/auth/me' ? meAnswer() : answer(call)));
  const view = renderScreen(<AddFamilyPage />, { path: '/profile/add-family', others: { '/profile': <h1>Profile screen</h1> } });
  return { ...view, calls, save: () => view.user.click(screen.getByRole('button', { name: 'Save' })) };
}

const setOnline = (online: boolean) => Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
afterEach(() => setOnline(true));

describe('AddFamilyPage', () => {
  it('shows the client check under each field before anything is sent', async () => {
    storeTestSession();
    const calls = stubApi((call) => (call.url === '/api/auth/me' ? meAnswer() : json(500, {})));
    const { user } = renderScreen(<AddFamilyPage />, { path: '/profile/add-family' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it("puts the server's field messages under their fields", async () => {
    const { save } = addFamily(() => json(400, { error: 'Validation failed', code: 'validation', fields: { lastName: 'Last name has a character we cannot accept' } }));
    await save();
    expect(await screen.findByText('Last name has a character we cannot accept')).toBeTruthy();
    expect(screen.getByLabelText('Last Name').getAttribute('aria-invalid')).toBe('true');
    // Focus goes to it once the fields, disabled while saving, are enabled again.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Last Name')));
    expect(screen.queryByRole('alert', { name: /Validation failed/ })).toBeNull();
  });

  it("shows a rule the server gives (the limit of 20) as the form's message, keeping the values", async () => {
    const { save } = addFamily(() => json(409, { error: 'You can add up to 20 family members.', code: 'conflict' }));
    await save();
    expect(await screen.findByText('You can add up to 20 family members.')).toBeTruthy();
    expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('Jamie');
  });

  it('offline: refused at once with nothing sent, the values kept', async () => {
    const { save, calls } = addFamily(() => json(201, {}));
    setOnline(false);
    await save();
    expect(await screen.findByText("You're offline. Your changes were not saved.")).toBeTruthy();
    expect(posts(calls)).toEqual([]);
    expect((screen.getByLabelText('Last Name') as HTMLInputElement).value).toBe('Rivera');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('retries one submission with the same Idempotency-Key, then goes to Profile', async () => {
    let attempt = 0;
    const { save, calls, router } = addFamily(() => {
      attempt += 1;
      if (attempt === 1) throw new TypeError('Failed to fetch');
      return json(201, { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', ...values, createdAt: '2026-11-23T12:00:00.000Z' });
    });
    await save();
    expect(await screen.findByRole('alert')).toBeTruthy();
    await save();
    expect(await screen.findByRole('heading', { name: 'Profile screen' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
    const keys = posts(calls).map((c) => c.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(posts(calls)[1]!.body).toEqual(values);
    await waitFor(() => expect(sessionStorage.getItem(`wellhaven.draft.${testUser.id}.family-add`)).toBeNull());
  });
});
