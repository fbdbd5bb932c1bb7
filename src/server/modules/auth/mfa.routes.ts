import { requestLanguage } from '../../lib/language';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/errors';
import { SignInMfaRequestSchema, SignInSessionSchema } from '#shared/schemas/auth';
import {
  MfaConfirmRequestSchema,
  MfaConfirmResponseSchema,
  MfaDisableRequestSchema,
  MfaDisableResponseSchema,
  MfaSetupRequestSchema,
  MfaSetupResponseSchema,
  MfaStatusResponseSchema,
} from '#shared/schemas/mfa';
import { sessionOf } from '../../plugins/auth';
import type { AuthService } from './auth.service';
import type { MfaService } from './mfa.service';

const context = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
  language: requestLanguage(request),
});

/** Two-step sign-in: the code step of sign-in, and a member's own factor under /api/me/mfa. */
export function mfaRoutes(app: FastifyInstance, { auth, mfa }: { auth: AuthService; mfa: MfaService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  r.post('/api/auth/signin/mfa', {
    config: { access: 'public' },
    schema: { summary: 'Finish signing in with a second-factor code', operationId: 'verifySignInCode', tags, body: SignInMfaRequestSchema, response: { 200: SignInSessionSchema, ...errorResponses } },
    handler: async (request) => auth.completeMfaSignIn(request.body, context(request)),
  });

  r.get('/api/me/mfa', {
    config: { access: 'member' },
    schema: { summary: "Get the user's second-factor status", operationId: 'getMfaStatus', tags, response: { 200: MfaStatusResponseSchema, ...errorResponses } },
    handler: async (request) => mfa.status(sessionOf(request).user),
  });

  r.post('/api/me/mfa/setup', {
    config: { access: 'member' },
    schema: { summary: 'Start setting up an authenticator app', operationId: 'startMfaSetup', tags, body: MfaSetupRequestSchema, response: { 200: MfaSetupResponseSchema, ...errorResponses } },
    handler: async (request) => mfa.startSetup(sessionOf(request).user, request.body),
  });

  r.post('/api/me/mfa/confirm', {
    config: { access: 'member' },
    schema: { summary: 'Confirm the authenticator app with its first code', operationId: 'confirmMfaSetup', tags, body: MfaConfirmRequestSchema, response: { 200: MfaConfirmResponseSchema, ...errorResponses } },
    handler: async (request) => {
      const { user, session } = sessionOf(request);
      return mfa.confirmSetup(user, request.body, session.id);
    },
  });

  r.post('/api/me/mfa/disable', {
    config: { access: 'member' },
    schema: { summary: 'Turn off the second factor', operationId: 'disableMfa', tags, body: MfaDisableRequestSchema, response: { 200: MfaDisableResponseSchema, ...errorResponses } },
    handler: async (request) => mfa.disable(sessionOf(request).user, request.body),
  });
}
