import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '#shared/errors';
import {
  FamilyMemberInputSchema,
  FamilyMemberListSchema,
  FamilyMemberParamsSchema,
  FamilyMemberSchema,
  MemberProfileSchema,
} from '#shared/schemas/family';
import { sessionOf } from '../../plugins/auth';
import type { MembersService } from './members.service';

const caller = (request: Parameters<typeof sessionOf>[0]) => {
  const session = sessionOf(request);
  return { ...session.user, participantId: session.account.participantId };
};

export function membersRoutes(app: FastifyInstance, { members }: { members: MembersService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['members'];

  r.get('/api/members/me/profile', {
    config: { access: 'member' },
    schema: { summary: "Get the member's profile", operationId: 'getMemberProfile', tags, response: { 200: MemberProfileSchema, ...errorResponses } },
    handler: async (request) => members.profile(caller(request)),
  });

  r.get('/api/family-members', {
    config: { access: 'member' },
    schema: { summary: "List the member's family members", operationId: 'listFamilyMembers', tags, response: { 200: FamilyMemberListSchema, ...errorResponses } },
    // The held list is frozen (one serves many requests); the answer gets its own array.
    handler: async (request) => ({ familyMembers: [...(await members.list(caller(request)))] }),
  });

  r.post('/api/family-members', {
    config: { access: 'member' },
    schema: { summary: 'Add a family member', operationId: 'createFamilyMember', tags, body: FamilyMemberInputSchema, response: { 201: FamilyMemberSchema, ...errorResponses } },
    handler: async (request, reply) => reply.status(201).send(await members.create(caller(request), request.body)),
  });

  r.put('/api/family-members/:id', {
    config: { access: 'member' },
    schema: { summary: 'Change a family member', operationId: 'updateFamilyMember', tags, params: FamilyMemberParamsSchema, body: FamilyMemberInputSchema, response: { 200: FamilyMemberSchema, ...errorResponses } },
    handler: async (request) => members.update(caller(request), request.params.id, request.body),
  });

  r.delete('/api/family-members/:id', {
    config: { access: 'member' },
    schema: { summary: 'Remove a family member', operationId: 'deleteFamilyMember', tags, params: FamilyMemberParamsSchema, response: { 204: z.null(), ...errorResponses } },
    handler: async (request, reply) => {
      await members.remove(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
