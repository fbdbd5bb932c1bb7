import type { RegisterRequest, RegisterResponse } from '#shared/schemas/auth';
import { apiSend } from '../../../lib/api-client';

/** POST /api/auth/register. */
export const registerRequest = (input: RegisterRequest) => apiSend<RegisterResponse>('POST', '/api/auth/register', input);
