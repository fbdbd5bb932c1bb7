import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '#shared/errors';
import {
  ActivePopupsResponseSchema,
  AdminPopupListQuerySchema,
  AdminPopupListResponseSchema,
  AdminPopupSchema,
  MemberPopupSchema,
  NextPopupQuerySchema,
  PopupCompletedResponseSchema,
  PopupDeletedResponseSchema,
  PopupActionUrlsResponseSchema,
  PopupAudienceSchema,
  PopupFormSchema,
  PopupIdParamsSchema,
  PopupReachResponseSchema,
  PopupResultsResponseSchema,
} from '#shared/schemas/popups';
import { sessionOf } from '../../plugins/auth';
import type { PopupsService } from './popups.service';

export function popupsRoutes(app: FastifyInstance, { popups }: { popups: PopupsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['popups'];
  const adminTags = ['admin'];

  r.get('/api/popups/next', {
    config: { access: 'member' },
    schema: { summary: 'Get the popup to show the member now, if any', operationId: 'getNextPopup', tags, querystring: NextPopupQuerySchema, response: { 200: MemberPopupSchema, 204: z.null(), ...errorResponses } },
    handler: async (request, reply) => {
      const popup = await popups.next(sessionOf(request), request.query);
      return popup ?? reply.status(204).send(null);
    },
  });

  r.get('/api/popups/active', {
    config: { access: 'member' },
    schema: { summary: 'List the popups live for the member', operationId: 'listActivePopups', tags, response: { 200: ActivePopupsResponseSchema, ...errorResponses } },
    handler: async (request) => ({ popups: await popups.active(sessionOf(request)) }),
  });

  r.post('/api/popups/:id/snooze', {
    config: { access: 'member' },
    schema: { summary: 'Snooze a popup for later', operationId: 'snoozePopup', tags, params: PopupIdParamsSchema, response: { 200: MemberPopupSchema, ...errorResponses } },
    handler: async (request) => popups.snooze(sessionOf(request), request.params.id),
  });

  r.post('/api/popups/:id/complete', {
    config: { access: 'member' },
    schema: { summary: 'Mark a popup as done', operationId: 'completePopup', tags, params: PopupIdParamsSchema, response: { 200: PopupCompletedResponseSchema, ...errorResponses } },
    handler: async (request) => popups.complete(sessionOf(request), request.params.id),
  });

  r.get('/api/admin/popups', {
    config: { access: 'admin' },
    schema: { summary: 'List popups for the admin console', operationId: 'listPopups', tags: adminTags, querystring: AdminPopupListQuerySchema, response: { 200: AdminPopupListResponseSchema, ...errorResponses } },
    handler: async (request) => ({ popups: await popups.list(request.query) }),
  });

  r.get('/api/admin/popups/action-urls', {
    config: { access: 'admin' },
    schema: { summary: 'List the websites a popup button may open', operationId: 'listPopupActionUrls', tags: adminTags, response: { 200: PopupActionUrlsResponseSchema, ...errorResponses } },
    handler: async () => popups.actionUrls(),
  });

  r.post('/api/admin/popups/reach', {
    config: { access: 'admin' },
    schema: { summary: "Count the members a popup's audience reaches", operationId: 'estimatePopupReach', tags: adminTags, body: PopupAudienceSchema, response: { 200: PopupReachResponseSchema, ...errorResponses } },
    handler: async (request) => popups.reach(request.body),
  });

  r.get('/api/admin/popups/:id/results', {
    config: { access: 'admin' },
    schema: { summary: "Get a popup's shows, snoozes and completions", operationId: 'getPopupResults', tags: adminTags, params: PopupIdParamsSchema, response: { 200: PopupResultsResponseSchema, ...errorResponses } },
    handler: async (request) => popups.results(request.params.id),
  });

  r.post('/api/admin/popups', {
    config: { access: 'admin' },
    schema: { summary: 'Create a popup', operationId: 'createPopup', tags: adminTags, body: PopupFormSchema, response: { 201: AdminPopupSchema, ...errorResponses } },
    handler: async (request, reply) => reply.status(201).send(await popups.create(sessionOf(request), request.body)),
  });

  r.put('/api/admin/popups/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Change a popup', operationId: 'updatePopup', tags: adminTags, params: PopupIdParamsSchema, body: PopupFormSchema, response: { 200: AdminPopupSchema, ...errorResponses } },
    handler: async (request) => popups.update(sessionOf(request), request.params.id, request.body),
  });

  r.post('/api/admin/popups/:id/activate', {
    config: { access: 'admin' },
    schema: { summary: 'Turn a popup on', operationId: 'activatePopup', tags: adminTags, params: PopupIdParamsSchema, response: { 200: AdminPopupSchema, ...errorResponses } },
    handler: async (request) => popups.setActive(sessionOf(request), request.params.id, true),
  });

  r.post('/api/admin/popups/:id/deactivate', {
    config: { access: 'admin' },
    schema: { summary: 'Turn a popup off', operationId: 'deactivatePopup', tags: adminTags, params: PopupIdParamsSchema, response: { 200: AdminPopupSchema, ...errorResponses } },
    handler: async (request) => popups.setActive(sessionOf(request), request.params.id, false),
  });

  r.delete('/api/admin/popups/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Delete a popup', operationId: 'deletePopup', tags: adminTags, params: PopupIdParamsSchema, response: { 200: PopupDeletedResponseSchema, ...errorResponses } },
    handler: async (request) => {
      await popups.remove(sessionOf(request), request.params.id);
      return { ok: true as const };
    },
  });
}
