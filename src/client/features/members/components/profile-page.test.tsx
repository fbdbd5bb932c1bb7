import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type ApiCall, json, meAnswer, renderScreen, storeTestSession, stubApi, testUser } from '../../../test/render';
import { ProfilePage } from './profile-page';

const child = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', firstName: 'Sam', lastName: 'Diaz', dob: '2015-06-01', relationship: 'Child', createdAt: '2026-11-01T12:00:00.000Z' };
const profile = { firstName: testUser.firstName, lastName: testUser.lastName, email: testUser.email, company: testUser.company, lhmpId: testUser.lhmpId, enrolledAt: null, familyMemberCount: 1 };

/** Profile with one child; DELETE answers with `onDelete`, after which the list is empty. */
function profileWithChild(onDelete: () => Response) {
  storeTestSession();
  let deleted = false;
  const calls = stubApi((call: ApiCall) => {
    if (call.url === '/api/auth/me') return meAnswer();
    if (call.url === '/api/members/me/profile') return json(200, { ...profile, familyMemberCount: deleted ? 0 : 1 });
    if (call.url === '/api/family-members') return json(200, { familyMembers: deleted ? [] : [child] });
    if (call.method === 'DELETE') {
      const res = onDelete();
      deleted = res.ok;
      return res;
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  return { ...renderScreen(<ProfilePage />, { path: '/profile' }), calls };
}

describe('ProfilePage: the remove dialog and focus', () => {
  it('opens with focus inside; Cancel (or Escape) closes it, deletes nothing and gives focus back to that Remove button', async () => {
    const { user, calls } = profileWithChild(() => json(204));
    const removeSam = await screen.findByRole('button', { name: 'Remove Sam Diaz' });
    await user.click(removeSam);
    const dialog = await screen.findByRole('dialog', { name: 'Remove family member?' });
    expect(dialog.textContent).toContain('Remove Sam Diaz from your family members? This cannot be undone.');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(removeSam));

    await user.click(removeSam);
    await screen.findByRole('dialog', { name: 'Remove family member?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(removeSam));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });

  it('after a removal, focus goes to the Family Members heading (the button is gone) and a toast says so', async () => {
    const { user, calls } = profileWithChild(() => json(204));
    await user.click(await screen.findByRole('button', { name: 'Remove Sam Diaz' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove family member?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Family Members' })));
    expect(screen.queryByRole('button', { name: 'Remove Sam Diaz' })).toBeNull();
    expect(await screen.findByText('Family member removed')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`/api/family-members/${child.id}`]);
  });
});
