import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '#shared/errors';
import type { Access } from './plugins/auth';

/** The tags the routes use, in the order a reader meets them. */
const TAGS = [
  { name: 'config', description: 'What the app needs before anyone signs in.' },
  { name: 'auth', description: 'Registration, signing in and out, and the current session.' },
  { name: 'account', description: "The signed-in user's email, password and sessions." },
  { name: 'members', description: "The member's profile and family." },
  { name: 'cards', description: 'Signed ID cards and their verification.' },
  { name: 'popups', description: 'Popups shown to members, and their management.' },
  { name: 'admin', description: 'Employers, employees and enrolment, for admins with Admin Access.' },
];

/** camelCase, verb first: `listFamilyMembers`, `getEmployer`. */
const OPERATION_ID = /^[a-z]+[A-Z][A-Za-z]*$|^[a-z]+$/;

/**
 * Who may call an operation, as OpenAPI says it: public routes need nothing, member and admin
 * routes a bearer session token (an admin's must have stepped up to Admin Access).
 */
const securityOf = (access: Access | undefined) => (access === 'member' || access === 'admin' ? [{ bearer: [] }] : []);

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The document is generated from the route table: each route's schema gives its `summary`
 * and `operationId` (both required, checked here at start-up), `config.access` its `security`.
 * A request may be refused with a 400 whatever its route: a URL the router cannot read
 * (plugins/errors.ts), or, on a route that takes input, text the database cannot store
 * (plugins/input-hygiene.ts). So an operation that declares no 4xx answer gets that one.
 */
export function openapiTransform(input: TransformInput) {
  const { schema, url, route } = input;
  if (!schema || schema.hide) return jsonSchemaTransform(input);
  const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
  const { summary, operationId } = schema as { summary?: unknown; operationId?: unknown };
  if (typeof summary !== 'string' || !summary) throw new Error(`Route ${method} ${url} must give schema.summary for the OpenAPI document`);
  if (typeof operationId !== 'string' || !OPERATION_ID.test(operationId)) {
    throw new Error(`Route ${method} ${url} must give schema.operationId in camelCase (e.g. listFamilyMembers)`);
  }
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const has4xx = Object.keys(response).some((status) => status.startsWith('4'));
  const withErrors = has4xx ? schema : { ...schema, response: { ...response, 400: ErrorBodySchema } };
  const transformed = jsonSchemaTransform({ ...input, schema: withErrors });
  return { ...transformed, schema: { ...transformed.schema, security: securityOf(route.config?.access) } };
}

/**
 * Where the API lives: PUBLIC_URL when it names a real host; otherwise (a development default
 * such as http://localhost:3000) the document's own server, relative `/`.
 */
function serverOf(publicUrl: string) {
  const { hostname } = new URL(publicUrl);
  const local = hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  return local ? { url: '/', description: 'The server that gave this document' } : { url: publicUrl, description: 'This deployment' };
}

/** The `openapi` options of @fastify/swagger: info, servers, security schemes and tags. */
export function openapiDocument(options: { brandName: string; publicUrl: string }): NonNullable<FastifyDynamicSwaggerOptions['openapi']> {
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.brandName} API`,
      version: '1.0.0',
      description: 'The HTTP API behind the member app and the admin console. Every error answers `{ error, code, fields? }`; `code` is one of a fixed list.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [serverOf(options.publicUrl)],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The session token from sign-in (`Authorization: Bearer <token>`).' },
      },
    },
    tags: TAGS,
  };
}
