import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, meAnswer, renderScreen, storeTestSession, stubApi, testUser } from '../../../test/render';
import { PopupFormDialog } from './popup-form-dialog';

const admin = { ...testUser, role: 'admin' as const };
const creates = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/admin/popups');

/** The create dialog, open, for a signed-in administrator; `answer` gets every call but the session's and the form's reads. */
function createDialog(answer: (call: ApiCall) => Response | Promise<Response>) {
  storeTestSession(admin);
  const calls = stubApi((call) => {
    if (call.url === '/api/auth/me') return meAnswer(admin);
    if (call.url === '/api/admin/popups/action-urls') return json(200, { urls: [] });
    if (call.url === '/api/admin/popups/reach') return json(200, { audienceSize: 42 });
    return answer(call);
  });
  const onOpenChange = vi.fn();
  const view = renderScreen(<PopupFormDialog open onOpenChange={onOpenChange} />, { path: '/admin/popups' });
  const fill = async () => {
    // Pasted, one input event each: the form re-renders its member preview on every keystroke.
    await view.user.click(screen.getByLabelText('Title'));
    await view.user.paste('Flu shots');
    await view.user.click(screen.getByLabelText('Message'));
    await view.user.paste('Book yours at the clinic.');
    // datetime-local inputs: happy-dom has no picker to type into.
    fireEvent.change(screen.getByLabelText('Start Date & Time'), { target: { value: '2026-12-01T09:00' } });
    fireEvent.change(screen.getByLabelText('End Date & Time'), { target: { value: '2026-12-31T17:00' } });
  };
  const create = () => view.user.click(screen.getByRole('button', { name: 'Create Popup' }));
  return { ...view, calls, onOpenChange, fill, create };
}

describe('PopupFormDialog (create)', () => {
  it('shows the shared schema’s messages under their fields and sends nothing', async () => {
    const { calls, create } = createDialog(() => json(500, {}));
    await create();
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
    expect(creates(calls)).toEqual([]);
  });

  it("puts the server's field messages under their fields, focuses the first, and toasts the server's message", async () => {
    const { fill, create, onOpenChange } = createDialog(() =>
      json(400, { error: 'Title already used by a live popup', code: 'validation', fields: { title: 'Title already used by a live popup' } }),
    );
    await fill();
    await create();
    const title = screen.getByLabelText('Title');
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(title);
    // Under the field, and in the 'Error' toast (spec: the server message, else the fallback).
    expect(await screen.findAllByText('Title already used by a live popup')).toHaveLength(2);
    expect(screen.getByText('Error')).toBeTruthy();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });

  it('sends one submission with one Idempotency-Key, the same on its retry, then closes with the success toast', async () => {
    let attempt = 0;
    const { fill, create, calls, onOpenChange } = createDialog((call) => {
      if (creates([call]).length === 0) return json(404, { error: 'Not found', code: 'not_found' });
      attempt += 1;
      if (attempt === 1) throw new TypeError('Failed to fetch');
      return json(201, { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    });
    await fill();
    await create();
    expect(await screen.findByText("You're offline. Your changes were not saved.")).toBeTruthy();
    await create();
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(await screen.findByText('Popup created successfully')).toBeTruthy();
    const sent = creates(calls);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.headers.get('idempotency-key')).toBe(sent[0]!.headers.get('idempotency-key'));
    expect(sent[1]!.body).toMatchObject({ title: 'Flu shots', message: 'Book yours at the clinic.', isActive: false, target: 'home' });
  });
});
