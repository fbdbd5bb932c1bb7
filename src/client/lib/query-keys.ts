import { type Query, type QueryKey, matchQuery } from '@tanstack/react-query';
import type { EmployeeListQuery, EmployerListQuery } from '#shared/schemas/admin';
import type { AdminPopupListQuery, PopupAudience } from '#shared/schemas/popups';

/**
 * Every query key of the app, from this one factory (TkDodo's "Effective React Query Keys").
 *
 * A key is its read's URL in parts (spec section 7): the string parts joined with `/` are
 * the path, an object part is the query string (lib/api-client `urlFromKey`). The first part
 * is the key's scope, so a whole scope is one partial-match filter, never a string match:
 *   - `/api`: the member's and the public reads. Kept on the device for offline use
 *     (lib/query-persist) and removed at sign-out.
 *   - `/api/admin`: the admin area's reads. Never kept; a 403 throws to the admin layout;
 *     reset after the Admin Access step-up.
 *   - `cards`: the ID cards, which keep their own device copy (lib/card-store), so the
 *     general answer store does not hold a second one. Not URLs: their fetchers verify.
 */
const MEMBER = '/api';
const ADMIN = '/api/admin';

export const queryKeys = {
  member: {
    all: [MEMBER] as const,
    /** GET /api/config: brand and links (public, kept for offline screens). */
    config: [MEMBER, 'config'] as const,
    /** GET /api/auth/me: the app-wide session read. */
    me: [MEMBER, 'auth', 'me'] as const,
    /** GET /api/employers/suggest?q=: one entry per text typed (trimmed). */
    employerSuggestions: (q: string) => [MEMBER, 'employers', 'suggest', { q }] as const,
    sessions: [MEMBER, 'me', 'sessions'] as const,
    twoStep: [MEMBER, 'me', 'mfa'] as const,
    profile: [MEMBER, 'members', 'me', 'profile'] as const,
    family: [MEMBER, 'family-members'] as const,
    activePopups: [MEMBER, 'popups', 'active'] as const,
  },
  admin: {
    all: [ADMIN] as const,
    /** Every employer read: the lists, each employer and what hangs under it. */
    employers: [ADMIN, 'employers'] as const,
    employerList: (query: EmployerListQuery) => [ADMIN, 'employers', query] as const,
    employer: (companyId: string) => [ADMIN, 'employers', companyId] as const,
    employees: (companyId: string, query: EmployeeListQuery) => [ADMIN, 'employers', companyId, 'employees', query] as const,
    employerCard: (companyId: string) => [ADMIN, 'employers', companyId, 'card'] as const,
    enrolment: (companyId: string) => [ADMIN, 'employers', companyId, 'enrolment'] as const,
    employee: (userId: string) => [ADMIN, 'employees', userId] as const,
    /** Every popup read: the list, results, reach and the allowed action URLs. */
    popups: [ADMIN, 'popups'] as const,
    popupList: (query: AdminPopupListQuery) => [ADMIN, 'popups', query] as const,
    popupResults: (id: string) => [ADMIN, 'popups', id, 'results'] as const,
    popupActionUrls: [ADMIN, 'popups', 'action-urls'] as const,
    /** POST /api/admin/popups/reach, a read sent as a POST; one entry per audience. */
    popupReach: (audience: PopupAudience | null) => [ADMIN, 'popups', 'reach', audience] as const,
  },
  cards: {
    all: ['cards'] as const,
    mine: (userId: string) => ['cards', 'mine', userId] as const,
    saved: ['cards', 'saved'] as const,
    publicKey: ['cards', 'public-key'] as const,
  },
};

const inScope = (scope: QueryKey) => (query: Query) => matchQuery({ queryKey: scope }, query);

/** An admin-area read (its 403 throws to the admin layout; it is never kept on the device). */
export const isAdminQuery = inScope(queryKeys.admin.all);
/** A member's or public read: what the device keeps for offline screens (`/api/admin` is another scope). */
export const isMemberQuery = inScope(queryKeys.member.all);
