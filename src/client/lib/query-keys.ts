import type { EmployeeListQuery, EmployerListQuery } from '#shared/schemas/admin';
import type { AdminPopupListQuery, PopupAudience } from '#shared/schemas/popups';
import { ADMIN_SCOPE, CONFIG_KEY, ME_KEY, MEMBER_SCOPE } from './query-scopes';

/**
 * Every query key of the app, from this one factory (TkDodo's "Effective React Query Keys").
 *
 * A key is its read's URL in parts (spec section 7): the string parts joined with `/` are
 * the path, an object part is the query string (lib/api-client `urlFromKey`). The first part
 * is the key's scope (lib/query-scopes: `/api`, `/api/admin`, `cards`), so a whole scope, or
 * everything under one employer, is one partial-match filter. The cards' keys are not URLs:
 * their fetchers verify what they read.
 */
const [MEMBER] = MEMBER_SCOPE;
const [ADMIN] = ADMIN_SCOPE;

export const queryKeys = {
  member: {
    config: CONFIG_KEY,
    me: ME_KEY,
    /** GET /api/employers/suggest?q=: one entry per text typed (trimmed). */
    employerSuggestions: (q: string) => [MEMBER, 'employers', 'suggest', { q }] as const,
    sessions: [MEMBER, 'me', 'sessions'] as const,
    twoStep: [MEMBER, 'me', 'mfa'] as const,
    profile: [MEMBER, 'members', 'me', 'profile'] as const,
    family: [MEMBER, 'family-members'] as const,
    activePopups: [MEMBER, 'popups', 'active'] as const,
  },
  admin: {
    all: ADMIN_SCOPE,
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
