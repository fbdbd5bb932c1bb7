import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/app-error';
import { asArray, readsOnly } from '../lib/as-array';

const UNSTORABLE_MESSAGE = 'Text contains characters that are not allowed';
const NOT_FOUND_MESSAGE = 'Not found';

/**
 * True for text PostgreSQL cannot store (U+0000) or that is not Unicode at all (an unpaired
 * surrogate, which drivers would silently turn into U+FFFD).
 */
export function hasUnstorableText(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}

/**
 * True when `value` is unstorable text or holds some, in any nested value or object key
 * (nesting deeper than 32 levels is not searched).
 */
function findUnstorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasUnstorableText(value);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => findUnstorable(v, depth + 1));
  return Object.entries(value).some(([k, v]) => hasUnstorableText(k) || findUnstorable(v, depth + 1));
}

/** The first top-level key under which `value` holds unstorable text, or '_' for the value itself. */
function offendingKey(value: unknown): string | undefined {
  if (typeof value === 'string') return hasUnstorableText(value) ? '_' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) return findUnstorable(value) ? '_' : undefined;
  for (const [key, v] of Object.entries(value)) {
    if (hasUnstorableText(key)) return '_';
    if (findUnstorable(v)) return key;
  }
  return undefined;
}

/** True when a route can be handed input to check: path parameters, a declared query, or a body. */
export function takesInput(route: Pick<RouteOptions, 'url' | 'method' | 'schema'>): boolean {
  // Fastify takes a route's query schema as `querystring` or as `query`.
  const schema = route.schema as { querystring?: unknown; query?: unknown } | undefined;
  return (
    route.url.includes(':') ||
    route.url.includes('*') ||
    schema?.querystring !== undefined ||
    schema?.query !== undefined ||
    !readsOnly(route)
  );
}

/**
 * Refuses, with a 400 naming the field, any body, query or path parameter carrying text the
 * database cannot store, before the schemas run: every route, present and future, that takes
 * input is covered, and no such text can reach a query (where it would be a 500). A route
 * that takes none (a GET without parameters or a declared query, such as `/healthz` or
 * `/api/auth/me`) reads nothing a request carries, and gets no hook: Fastify then skips the
 * whole preValidation step for it.
 */
export function registerInputHygiene(app: FastifyInstance) {
  // A callback hook, not an async one: no promise per request on the hot path.
  const check = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    // A path parameter is an id: one that cannot be stored names nothing (a 404, docs/decisions/error-codes.md).
    if (offendingKey(request.params) !== undefined) return done(new AppError('not_found', NOT_FOUND_MESSAGE));
    for (const part of [request.query, request.body]) {
      const key = offendingKey(part);
      if (key !== undefined) return done(new AppError('validation', UNSTORABLE_MESSAGE, { [key]: UNSTORABLE_MESSAGE }));
    }
    done();
  };
  app.addHook('onRoute', (route) => {
    if (takesInput(route)) route.preValidation = [...asArray(route.preValidation), check];
  });
}
