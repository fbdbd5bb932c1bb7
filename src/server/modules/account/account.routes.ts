import { requestLanguage } from '../../lib/language';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '#shared/errors';
import {
  AccountSessionListSchema,
  AccountSessionParamsSchema,
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  ForgotPasswordRequestSchema,
  ForgotPasswordResponseSchema,
  ResendVerificationResponseSchema,
  ResetPasswordRequestSchema,
  ResetPasswordResponseSchema,
  RevokeOtherSessionsResponseSchema,
  VerifyEmailRequestSchema,
  VerifyEmailResponseSchema,
} from '#shared/schemas/account';
import { PreferencesSchema } from '#shared/schemas/auth';
import { sessionOf } from '../../plugins/auth';
import type { AccountService } from './account.service';

const context = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
  language: requestLanguage(request),
});

/** Email verification, password reset and change, signed-in devices. Tokens travel in bodies only. */
export function accountRoutes(app: FastifyInstance, { account }: { account: AccountService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  r.post('/api/auth/verify-email', {
    config: { access: 'public' },
    schema: { summary: 'Confirm an email address with the emailed token', operationId: 'verifyEmail', tags, body: VerifyEmailRequestSchema, response: { 200: VerifyEmailResponseSchema, ...errorResponses } },
    handler: async (request) => account.verifyEmail(request.body.token, context(request)),
  });

  r.post('/api/auth/verify-email/resend', {
    config: { access: 'member' },
    schema: { summary: 'Send the email verification link again', operationId: 'resendVerificationEmail', tags, response: { 200: ResendVerificationResponseSchema, ...errorResponses } },
    handler: async (request) => account.resendVerification(sessionOf(request), context(request)),
  });

  r.post('/api/auth/forgot-password', {
    config: { access: 'public' },
    schema: { summary: 'Ask for a password reset link by email', operationId: 'requestPasswordReset', tags, body: ForgotPasswordRequestSchema, response: { 200: ForgotPasswordResponseSchema, ...errorResponses } },
    handler: async (request) => account.forgotPassword(request.body.email, context(request)),
  });

  r.post('/api/auth/reset-password', {
    config: { access: 'public' },
    schema: { summary: 'Set a new password with a reset token', operationId: 'resetPassword', tags, body: ResetPasswordRequestSchema, response: { 200: ResetPasswordResponseSchema, ...errorResponses } },
    handler: async (request) => account.resetPassword(request.body, context(request)),
  });

  r.post('/api/me/password', {
    config: { access: 'member' },
    schema: { summary: "Change the signed-in user's password", operationId: 'changePassword', tags, body: ChangePasswordRequestSchema, response: { 200: ChangePasswordResponseSchema, ...errorResponses } },
    handler: async (request) => account.changePassword(sessionOf(request), request.body, context(request)),
  });

  r.patch('/api/me/preferences', {
    config: { access: 'member' },
    schema: { summary: "Save the signed-in user's preferences (language)", operationId: 'savePreferences', tags, body: PreferencesSchema, response: { 200: PreferencesSchema, ...errorResponses } },
    handler: async (request) => account.savePreferences(sessionOf(request), request.body),
  });

  r.get('/api/me/sessions', {
    config: { access: 'member' },
    schema: { summary: "List the signed-in user's sessions (devices)", operationId: 'listSessions', tags, response: { 200: AccountSessionListSchema, ...errorResponses } },
    handler: async (request) => ({ sessions: await account.listSessions(sessionOf(request)) }),
  });

  r.delete('/api/me/sessions/:sessionId', {
    config: { access: 'member' },
    schema: { summary: "Sign out one of the user's sessions", operationId: 'revokeSession', tags, params: AccountSessionParamsSchema, response: { 204: z.null(), ...errorResponses } },
    handler: async (request, reply) => {
      await account.revokeSession(sessionOf(request), request.params.sessionId, context(request));
      return reply.status(204).send(null);
    },
  });

  r.post('/api/me/sessions/revoke-others', {
    config: { access: 'member' },
    schema: { summary: 'Sign out every other session of the user', operationId: 'revokeOtherSessions', tags, response: { 200: RevokeOtherSessionsResponseSchema, ...errorResponses } },
    handler: async (request) => account.revokeOtherSessions(sessionOf(request), context(request)),
  });
}
