import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/errors';
import {
  CompanyIdParamsSchema,
  EmployeeDetailResponseSchema,
  EmployeeListQuerySchema,
  EmployeeListResponseSchema,
  EmployerDetailResponseSchema,
  EmployerListQuerySchema,
  EmployerListResponseSchema,
  UserIdParamsSchema,
} from '#shared/schemas/admin';
import { sessionOf } from '../../plugins/auth';
import type { AdminService } from './admin.service';

export function adminRoutes(app: FastifyInstance, { admin }: { admin: AdminService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  r.get('/api/admin/employers', {
    config: { access: 'admin' },
    schema: { summary: 'List employers with their enrolment counts', operationId: 'listEmployers', tags, querystring: EmployerListQuerySchema, response: { 200: EmployerListResponseSchema, ...errorResponses } },
    handler: async (request) => admin.listEmployers(request.query),
  });

  r.get('/api/admin/employers/:companyId', {
    config: { access: 'admin' },
    schema: { summary: "Get one employer's details", operationId: 'getEmployer', tags, params: CompanyIdParamsSchema, response: { 200: EmployerDetailResponseSchema, ...errorResponses } },
    handler: async (request) => admin.getEmployer(request.params.companyId),
  });

  r.get('/api/admin/employers/:companyId/employees', {
    config: { access: 'admin' },
    schema: {
      summary: "List an employer's employees, a page at a time",
      operationId: 'listEmployees',
      tags,
      params: CompanyIdParamsSchema,
      querystring: EmployeeListQuerySchema,
      response: { 200: EmployeeListResponseSchema, ...errorResponses },
    },
    handler: async (request) => admin.listEmployees(sessionOf(request).user, request.params.companyId, request.query),
  });

  r.get('/api/admin/employees/:userId', {
    config: { access: 'admin' },
    schema: { summary: "Get one employee's details", operationId: 'getEmployee', tags, params: UserIdParamsSchema, response: { 200: EmployeeDetailResponseSchema, ...errorResponses } },
    handler: async (request) => admin.getEmployee(sessionOf(request).user, request.params.userId),
  });
}
