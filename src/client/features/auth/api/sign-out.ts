import { apiSend } from '../../../lib/api-client';

/** POST /api/auth/signout: ends this session on the server. */
export const signOutRequest = () => apiSend('POST', '/api/auth/signout');
