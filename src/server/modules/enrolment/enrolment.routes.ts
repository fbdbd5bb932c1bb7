import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema, errorResponses } from '#shared/errors';
import { messages } from '#shared/messages/index';
import { CompanyIdParamsSchema } from '#shared/schemas/admin';
import {
  CreateEmployerRequestSchema,
  CreateEmployerResponseSchema,
  EmployerSuggestQuerySchema,
  EmployerSuggestResponseSchema,
  EnrolmentModeUpdateSchema,
  EnrolmentStatusResponseSchema,
  ROSTER_MAX_BYTES,
  RosterImportQuerySchema,
  RosterImportSummarySchema,
} from '#shared/schemas/enrolment';
import { AppError } from '../../lib/app-error';
import { sessionOf } from '../../plugins/auth';
import type { EnrolmentService } from './enrolment.service';
import { CsvUpload } from './roster-csv';

/** What OpenAPI shows as the import's body; the CSV itself is streamed, never parsed by a schema. */
const RosterCsvBodySchema = z.string().meta({
  description:
    'The roster as CSV (Content-Type: text/csv; UTF-8, BOM allowed): a header line naming programme_id, first_name, last_name and optionally email, in any order, then one person per line.',
});

/**
 * The import's body is a stream: the schema documents it, the handler checks it. Path and
 * query are validated by their zod schemas as everywhere else.
 */
const streamBodyValidator: FastifySchemaCompiler<FastifySchema> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

export function enrolmentRoutes(app: FastifyInstance, { enrolment }: { enrolment: EnrolmentService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  r.get('/api/employers/suggest', {
    config: { access: 'public' },
    schema: { summary: 'Suggest employer names while registering', operationId: 'suggestEmployers', tags: ['auth'], querystring: EmployerSuggestQuerySchema, response: { 200: EmployerSuggestResponseSchema, ...errorResponses } },
    handler: async (request) => enrolment.suggest(request.query.q, request.ip),
  });

  r.post('/api/admin/employers', {
    config: { access: 'admin' },
    schema: { summary: 'Add an employer', operationId: 'createEmployer', tags, body: CreateEmployerRequestSchema, response: { 201: CreateEmployerResponseSchema, ...errorResponses } },
    handler: async (request, reply) => reply.status(201).send(await enrolment.createEmployer(sessionOf(request).user, request.body.name)),
  });

  r.get('/api/admin/employers/:companyId/enrolment', {
    config: { access: 'admin' },
    schema: { summary: "Get an employer's enrolment mode and roster", operationId: 'getEnrolmentStatus', tags, params: CompanyIdParamsSchema, response: { 200: EnrolmentStatusResponseSchema, ...errorResponses } },
    handler: async (request) => enrolment.status(request.params.companyId),
  });

  r.patch('/api/admin/employers/:companyId/enrolment', {
    config: { access: 'admin' },
    schema: { summary: "Change an employer's enrolment mode", operationId: 'updateEnrolmentMode', tags, params: CompanyIdParamsSchema, body: EnrolmentModeUpdateSchema, response: { 200: EnrolmentStatusResponseSchema, ...errorResponses } },
    handler: async (request) => enrolment.setMode(sessionOf(request).user, request.params.companyId, request.body.enrolmentMode),
  });

  // Its own scope, with text/csv as its only parser: the raw stream goes to the service
  // unread. The JSON and text parsers this scope would inherit are removed, so the route's
  // 20 MB body limit never lets a 20 MB JSON body be buffered and parsed; anything but
  // text/csv is refused with a 415 before a byte of it is read.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('text/csv', (_request, payload, done) => done(null, new CsvUpload(payload)));
    scope.addContentTypeParser('*', (_request, _payload, done) => done(new AppError('unsupported_media_type', messages.enrolment.server.csvContentType)));
    scope.withTypeProvider<ZodTypeProvider>().post('/api/admin/employers/:companyId/roster', {
      config: { access: 'admin' },
      // Says so to readers: the text/csv parser is not held to bodyLimit, the service counts the bytes itself.
      bodyLimit: ROSTER_MAX_BYTES,
      validatorCompiler: streamBodyValidator,
      schema: {
        summary: "Check or import an employer's roster (CSV)",
        operationId: 'importRoster',
        tags,
        description:
          'Dry run (`mode=dry-run`, the default) or import (`mode=import`) of an employer roster. The file replaces the roster; the answer counts rows to add, update, leave and remove, lists bad rows by line and the registered members not on it.',
        consumes: ['text/csv'],
        params: CompanyIdParamsSchema,
        querystring: RosterImportQuerySchema,
        body: RosterCsvBodySchema,
        response: { 200: RosterImportSummarySchema, ...errorResponses, 408: ErrorBodySchema, 415: ErrorBodySchema },
      } as FastifySchema,
      handler: async (request) => {
        const { companyId } = request.params as z.output<typeof CompanyIdParamsSchema>;
        const { mode } = request.query as z.output<typeof RosterImportQuerySchema>;
        if (!(request.body instanceof CsvUpload)) throw new AppError('unsupported_media_type', messages.enrolment.server.csvContentType);
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > ROSTER_MAX_BYTES) throw new AppError('payload_too_large', messages.enrolment.server.csvTooLarge(ROSTER_MAX_BYTES / (1024 * 1024)));
        return enrolment.importRoster(sessionOf(request).user, companyId, mode, request.body);
      },
    });
  });
}
