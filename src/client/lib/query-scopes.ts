import { type Query, type QueryKey, matchQuery } from '@tanstack/react-query';

/**
 * The scopes of the query keys (lib/query-keys has the factory) and the keys the app shell reads
 * before any screen, kept apart from the factory so the first chunk, which every visit loads,
 * does not carry every screen's keys (docs/decisions/initial-js-budget.md).
 *
 * A key's first part is its scope, so a whole scope is one partial-match filter, never a string match:
 *   - `/api`: the member's and the public reads. Kept on the device for offline use
 *     (lib/query-persist) and removed at sign-out.
 *   - `/api/admin`: the admin area's reads. Never kept; a 403 throws to the admin layout;
 *     reset after the Admin Access step-up.
 *   - `cards`: the ID cards, which keep their own device copy (lib/card-store).
 */
export const MEMBER_SCOPE = ['/api'] as const;
export const ADMIN_SCOPE = ['/api/admin'] as const;

/** GET /api/auth/me: the app-wide session read. */
export const ME_KEY = [...MEMBER_SCOPE, 'auth', 'me'] as const;
/** GET /api/config: brand and links (public, kept for offline screens). */
export const CONFIG_KEY = [...MEMBER_SCOPE, 'config'] as const;

const inScope = (scope: QueryKey) => (query: Query) => matchQuery({ queryKey: scope }, query);

/** An admin-area read (its 403 throws to the admin layout; it is never kept on the device). */
export const isAdminQuery = inScope(ADMIN_SCOPE);
/** A member's or public read: what the device keeps for offline screens (`/api/admin` is another scope). */
export const isMemberQuery = inScope(MEMBER_SCOPE);
