import { requestLanguage } from '../../lib/language';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/errors';
import {
  AdminAccessRequestSchema,
  AdminAccessResponseSchema,
  MeResponseSchema,
  OkResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  SignInRequestSchema,
  SignInResponseSchema,
} from '#shared/schemas/auth';
import { sessionOf } from '../../plugins/auth';
import { JSON_TYPE, checkedJson } from '../../lib/checked-json';
import type { AuthService, AuthenticatedSession } from './auth.service';

const context = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
  language: requestLanguage(request),
});

export function authRoutes(app: FastifyInstance, { auth }: { auth: AuthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/auth/register', {
    config: { access: 'public' },
    schema: { summary: 'Register a member account', operationId: 'register', tags: ['auth'], body: RegisterRequestSchema, response: { 201: RegisterResponseSchema, ...errorResponses } },
    handler: async (request, reply) => reply.status(201).send({ user: await auth.register(request.body, context(request)) }),
  });

  r.post('/api/auth/signin', {
    config: { access: 'public' },
    schema: { summary: 'Sign in with email and password', operationId: 'signIn', tags: ['auth'], body: SignInRequestSchema, response: { 200: SignInResponseSchema, ...errorResponses } },
    handler: async (request) => auth.signIn(request.body, context(request)),
  });

  r.post('/api/auth/signout', {
    config: { access: 'member' },
    schema: { summary: 'Sign out of the current session', operationId: 'signOut', tags: ['auth'], response: { 200: OkResponseSchema, ...errorResponses } },
    handler: async (request) => {
      await auth.signOut(sessionOf(request));
      return { ok: true as const };
    },
  });

  // The signed-in user's answer, written once for each session object as held and its step-up
  // state (lib/checked-json.ts), then sent as that text. A held session is frozen
  // (lib/held-per-member.ts); a touch reads and holds a new one (AuthService.authenticate), and
  // every change of the session, user or account drops it on every instance (session-cache.ts):
  // an answer cannot outlive what it describes. The step-up's end comes with the clock, so it is
  // part of the key (`describe` may depend on nothing else that moves).
  const meAnswers = new WeakMap<AuthenticatedSession, { adminElevated: boolean; json: string }>();
  app.get('/api/auth/me', {
    config: { access: 'member' },
    // One user and session, well under compression's 1 KiB threshold (app.ts).
    compress: false,
    schema: { summary: 'Get the signed-in user and session', operationId: 'getCurrentUser', tags: ['auth'], response: { 200: MeResponseSchema, ...errorResponses } },
    handler: (request, reply) => {
      const session = sessionOf(request);
      let answer = meAnswers.get(session);
      if (answer?.adminElevated !== auth.isAdminElevated(session)) {
        const described = auth.describe(session);
        answer = { adminElevated: described.session.adminElevated, json: checkedJson(MeResponseSchema, described) };
        meAnswers.set(session, answer);
      }
      return reply.type(JSON_TYPE).send(answer.json);
    },
  });

  r.post('/api/admin/access', {
    config: { access: 'member' },
    schema: { summary: 'Step up to Admin Access with password and second factor', operationId: 'requestAdminAccess', tags: ['admin'], body: AdminAccessRequestSchema, response: { 200: AdminAccessResponseSchema, ...errorResponses } },
    handler: async (request) => auth.elevateAdmin(sessionOf(request), request.body, context(request)),
  });
}
