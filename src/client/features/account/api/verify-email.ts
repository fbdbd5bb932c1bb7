import type { VerifyEmailRequest, VerifyEmailResponse } from '#shared/schemas/account';
import { apiSend } from '../../../lib/api-client';

/**
 * The token goes in the body, never in the API URL. No mutation hook: the page posts once on
 * arrival and keeps the outcome itself (see verify-email-page.tsx).
 */
export const verifyEmail = (input: VerifyEmailRequest) => apiSend<VerifyEmailResponse>('POST', '/api/auth/verify-email', input);
