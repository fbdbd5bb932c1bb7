import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { urlFromKey } from './api-client';
import { queryKeys } from './query-keys';
import { isAdminQuery, isMemberQuery } from './query-scopes';

const COMPANY = '5b0c9f3e-4a43-4c1f-9d3e-1f2a3b4c5d6e';

describe('query keys', () => {
  it('spell the URL each read asks for (spec section 7)', () => {
    expect(urlFromKey(queryKeys.member.me)).toBe('/api/auth/me');
    expect(urlFromKey(queryKeys.member.config)).toBe('/api/config');
    expect(urlFromKey(queryKeys.member.employerSuggestions('acme co'))).toBe('/api/employers/suggest?q=acme+co');
    expect(urlFromKey(queryKeys.member.sessions)).toBe('/api/me/sessions');
    expect(urlFromKey(queryKeys.member.twoStep)).toBe('/api/me/mfa');
    expect(urlFromKey(queryKeys.member.profile)).toBe('/api/members/me/profile');
    expect(urlFromKey(queryKeys.member.family)).toBe('/api/family-members');
    expect(urlFromKey(queryKeys.member.activePopups)).toBe('/api/popups/active');
    expect(urlFromKey(queryKeys.admin.employerList({ search: 'ar', sortBy: 'name' }))).toBe('/api/admin/employers?search=ar&sortBy=name');
    expect(urlFromKey(queryKeys.admin.employer(COMPANY))).toBe(`/api/admin/employers/${COMPANY}`);
    expect(urlFromKey(queryKeys.admin.employees(COMPANY, { search: '' }))).toBe(`/api/admin/employers/${COMPANY}/employees`);
    expect(urlFromKey(queryKeys.admin.employerCard(COMPANY))).toBe(`/api/admin/employers/${COMPANY}/card`);
    expect(urlFromKey(queryKeys.admin.enrolment(COMPANY))).toBe(`/api/admin/employers/${COMPANY}/enrolment`);
    expect(urlFromKey(queryKeys.admin.employee('u1'))).toBe('/api/admin/employees/u1');
    expect(urlFromKey(queryKeys.admin.popupList({ status: 'active' }))).toBe('/api/admin/popups?status=active');
    expect(urlFromKey(queryKeys.admin.popupResults('p1'))).toBe('/api/admin/popups/p1/results');
    expect(urlFromKey(queryKeys.admin.popupActionUrls)).toBe('/api/admin/popups/action-urls');
  });

  it('put admin reads and member reads in scopes apart', () => {
    const client = new QueryClient();
    const keys = [queryKeys.member.profile, queryKeys.member.config, queryKeys.admin.employee('u1'), queryKeys.admin.popupList({}), queryKeys.cards.saved];
    for (const key of keys) client.setQueryData(key, { at: 'first' });
    const [profile, config, employee, popupList, cards] = keys.map((key) => client.getQueryCache().find({ queryKey: key, exact: true })!);

    expect([profile, config, employee, popupList, cards].map((q) => isAdminQuery(q!))).toEqual([false, false, true, true, false]);
    // Member and public reads are what the device keeps; admin reads and the cards (their own store) are not.
    expect([profile, config, employee, popupList, cards].map((q) => isMemberQuery(q!))).toEqual([true, true, false, false, false]);
  });

  it('reset the whole admin scope with one filter and leave the member answers alone', async () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.member.family, ['kept']);
    client.setQueryData(queryKeys.admin.employer(COMPANY), { dropped: true });
    client.setQueryData(queryKeys.admin.popupResults('p1'), { dropped: true });

    await client.resetQueries({ queryKey: queryKeys.admin.all });

    expect(client.getQueryData(queryKeys.member.family)).toEqual(['kept']);
    expect(client.getQueryData(queryKeys.admin.employer(COMPANY))).toBeUndefined();
    expect(client.getQueryData(queryKeys.admin.popupResults('p1'))).toBeUndefined();
  });

  it('refresh everything under one employer after an import, not the other employers', async () => {
    const client = new QueryClient();
    const other = '0d6f4c1a-2b3c-4d5e-8f90-a1b2c3d4e5f6';
    for (const key of [queryKeys.admin.employer(COMPANY), queryKeys.admin.enrolment(COMPANY), queryKeys.admin.employer(other)]) client.setQueryData(key, {});

    await client.invalidateQueries({ queryKey: queryKeys.admin.employer(COMPANY) });

    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([stale(queryKeys.admin.employer(COMPANY)), stale(queryKeys.admin.enrolment(COMPANY)), stale(queryKeys.admin.employer(other))]).toEqual([true, true, false]);
  });
});
