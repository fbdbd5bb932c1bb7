import type { MeResponse, SessionUser } from '#shared/schemas/auth';
import { apiGet } from '../../../lib/api-client';

/** GET /api/auth/me, its user: the signed-in user as the server sees them now. */
export const fetchSessionUser = async (): Promise<SessionUser | undefined> =>
  (await apiGet<MeResponse>('/api/auth/me'))?.user;
