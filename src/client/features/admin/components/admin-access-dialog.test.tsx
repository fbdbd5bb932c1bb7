import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { type ApiCall, json, meAnswer, renderScreen, storeTestSession, stubApi, testUser } from '../../../test/render';
import { AdminAccessDialog } from './admin-access-dialog';

const admin = { ...testUser, role: 'admin' as const };
const config = { brandName: 'Wellhaven', brandLogoUrl: '/logo.svg', brandPrimaryColor: '#0f766e', vitalScanUrl: 'https://vitalscan.example.test', wellnessProgramUrl: 'https://wellness.example.test', helpVideoIds: [] };
const accessCalls = (calls: ApiCall[]) => calls.filter((c) => c.url === '/api/admin/access');

/** The header's part: the dialog open until it asks to close. */
function OpenDialog() {
  const [open, setOpen] = useState(true);
  return open ? <AdminAccessDialog open onOpenChange={setOpen} /> : <p>Dialog closed</p>;
}

/** The dialog, open, for a signed-in admin; `/api/admin/access` answers with `answer(body)`. */
function adminAccess(answer: (body: { code?: string }) => Response) {
  storeTestSession(admin);
  const calls = stubApi((call) => {
    if (call.url === '/api/auth/me') return meAnswer(admin);
    if (call.url === '/api/config') return json(200, config);
    if (call.url === '/api/admin/access') return answer(call.body as { code?: string });
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  const view = renderScreen(<OpenDialog />, { path: '/home', others: { '/admin/employers': <h1>Employers screen</h1> } });
  return { ...view, calls };
}

describe('AdminAccessDialog', () => {
  it('opens on the email field; an empty form is a toast and sends nothing', async () => {
    const { user, calls } = adminAccess(() => json(500, {}));
    const email = await screen.findByLabelText('Admin Email');
    await waitFor(() => expect(document.activeElement).toBe(email));
    await user.click(screen.getByRole('button', { name: 'Access Dashboard' }));
    expect(await screen.findByText('Please enter both email and password for admin access.')).toBeTruthy();
    expect(accessCalls(calls)).toEqual([]);
  });

  it('asks for the code with focus on its field, puts a refused code under it, and on the right one replaces the token and opens the dashboard', async () => {
    const { user, calls, router } = adminAccess((body) => {
      if (!body.code) return json(200, { status: 'mfa_required' });
      if (body.code !== '123456') return json(400, { error: 'Validation failed', code: 'validation', fields: { code: 'That code did not work. Check your app and try again.' } });
      return json(200, { status: 'granted', token: 'elevated-token' });
    });
    await user.type(await screen.findByLabelText('Admin Email'), admin.email);
    await user.type(screen.getByLabelText('Admin Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Access Dashboard' }));

    const code = await screen.findByLabelText('Authentication code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code did not work. Check your app and try again.')).toBeTruthy();
    expect((screen.getByLabelText('Authentication code') as HTMLInputElement).value).toBe('');

    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Employers screen' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/employers');
    expect(localStorage.getItem('auth_token')).toBe('elevated-token');
    expect(await screen.findByText('Admin Access Granted')).toBeTruthy();
    expect(accessCalls(calls).map((c) => (c.body as { code?: string }).code)).toEqual([undefined, '000000', '123456']);
  });

  it('on a first set-up shows the ten recovery codes with no corner Close, and goes to the dashboard from them', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `ab${i}cd-efghk`);
    const { user, router } = adminAccess((body) =>
      body.code ? json(200, { status: 'granted', token: 'elevated-token', recoveryCodes: codes }) : json(200, { status: 'mfa_required' }),
    );
    await user.type(await screen.findByLabelText('Admin Email'), admin.email);
    await user.type(screen.getByLabelText('Admin Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Access Dashboard' }));
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    expect(router.state.location.pathname).toBe('/home');
    await user.click(screen.getByRole('button', { name: /dashboard/i }));
    expect(await screen.findByRole('heading', { name: 'Employers screen' })).toBeTruthy();
  });
});
