import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/errors';
import { CompanyIdParamsSchema } from '#shared/schemas/admin';
import {
  CardKeyResponseSchema,
  CardVerifyRequestSchema,
  CardVerifyResponseSchema,
  EmployerCardDetailsSchema,
  EmployerCardResponseSchema,
  IdCardsResponseSchema,
} from '#shared/schemas/cards';
import { sessionOf } from '../../plugins/auth';
import type { CardsService } from './cards.service';

/** Where anyone finds the key card signatures are checked with. */
export const CARD_KEY_PATH = '/.well-known/wellhaven-card-key';

/**
 * The public key is public and changes only with the configuration: shared caches may keep it
 * an hour, and any site may read it (a clinic's own checker), unlike every other answer.
 */
const KEY_HEADERS = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' };

export function cardsRoutes(app: FastifyInstance, { cards }: { cards: CardsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['cards'];

  r.get('/api/me/cards', {
    config: { access: 'member' },
    schema: { summary: "Get the member's signed ID cards", operationId: 'getMyCards', tags, response: { 200: IdCardsResponseSchema, ...errorResponses } },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return cards.memberCards(sessionOf(request).user);
    },
  });

  r.get(CARD_KEY_PATH, {
    schema: { summary: 'Get the public key that verifies ID cards', operationId: 'getCardVerificationKey', tags, response: { 200: CardKeyResponseSchema } },
    handler: async (_request, reply) => {
      void reply.headers(KEY_HEADERS);
      return cards.publicKey();
    },
  });

  r.post('/api/cards/verify', {
    config: { access: 'public' },
    schema: { summary: "Check an ID card's signature and dates", operationId: 'verifyCard', tags, body: CardVerifyRequestSchema, response: { 200: CardVerifyResponseSchema, ...errorResponses } },
    handler: async (request) => cards.verify(request.body.token, request.ip),
  });

  r.get('/api/admin/employers/:companyId/card', {
    config: { access: 'admin' },
    schema: { summary: "Get an employer's ID card details", operationId: 'getEmployerCard', tags, params: CompanyIdParamsSchema, response: { 200: EmployerCardResponseSchema, ...errorResponses } },
    handler: async (request) => cards.employerCard(request.params.companyId),
  });

  r.put('/api/admin/employers/:companyId/card', {
    config: { access: 'admin' },
    schema: { summary: "Set an employer's ID card details", operationId: 'updateEmployerCard', tags, params: CompanyIdParamsSchema, body: EmployerCardDetailsSchema, response: { 200: EmployerCardResponseSchema, ...errorResponses } },
    handler: async (request) => cards.saveEmployerCard(sessionOf(request).user, request.params.companyId, request.body),
  });
}
