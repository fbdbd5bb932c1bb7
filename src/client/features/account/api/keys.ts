import { meQueryKey } from '../../../lib/me-query';

/** Query keys of the account area; mutations invalidate through these. */
export const accountKeys = {
  /** GET /api/auth/me, the app-wide session read (its account state is what this area changes). */
  me: meQueryKey,
  sessions: ['/api/me/sessions'] as const,
};
