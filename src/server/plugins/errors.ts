import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '#shared/errors';
import { server as m } from '#shared/messages/server';
import { AppError } from '../lib/app-error';
import { localizeErrorBody, requestLanguage } from '../lib/language';
import { pgError } from '../lib/pg-errors';
import { API_HEADERS } from './security';

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** The code of a framework refusal known only by its status (Fastify's own 4xx errors). */
const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};
export const codeForStatus = (status: number): ErrorCode => STATUS_CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request');

/** The one error body: the message for people, the code for programs, `fields` when given. */
export const errorBody = (code: ErrorCode, error: string, fields?: Record<string, string>): ErrorBody => ({
  error,
  code,
  ...(fields ? { fields } : {}),
});

interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
}

/**
 * An error as it may be logged: name, message, code, stack frames and cause, and nothing
 * else. A failed query's message and enumerable fields carry its parameters (token hashes,
 * password hashes, personal data); only the statement text is kept.
 */
export function loggableError(err: unknown, depth = 0): LoggedError | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const e = err as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown; cause?: unknown; query?: unknown; params?: unknown };
  const isQuery = typeof e.query === 'string' && 'params' in e;
  const message = isQuery ? `Failed query: ${e.query as string}` : typeof e.message === 'string' ? e.message : String(err);
  const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => l.trimStart().startsWith('at ')) : [];
  const type = typeof e.name === 'string' ? e.name : 'Error';
  const cause = loggableError(e.cause, depth + 1);
  return {
    type,
    message,
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: String(e.code) } : {}),
    ...(frames.length ? { stack: [`${type}: ${message}`, ...frames].join('\n') } : {}),
    ...(cause ? { cause } : {}),
  };
}

/** The innermost error's message: the driver's words, not a wrapper's restatement. */
function rootCause(err: unknown): LoggedError | undefined {
  let current = loggableError(err);
  while (current?.cause) current = current.cause;
  return current;
}

/**
 * True when the failure is the client going away mid-request (it closed the connection
 * before its body arrived in full, or the body was cut for being too slow): the request
 * stream's own "aborted" error, whose ECONNRESET code must not read as a database outage.
 */
function isClientAbort(err: unknown, request: FastifyRequest): boolean {
  const gone = request.raw.aborted || request.raw.readableAborted;
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    // Node's IncomingMessage error when the socket closes first; a driver's reset reads "read ECONNRESET".
    if (e.code === 'ECONNRESET' && e.message === 'aborted') return true;
    if (gone && (e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.code === 'ERR_HTTP_REQUEST_TIMEOUT')) return true;
    current = e.cause;
  }
  return false;
}

/** True when the failure is Redis (the shared counter store) being out of reach. */
function isCounterStoreUnavailable(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown };
  return (
    e?.name === 'MaxRetriesPerRequestError' ||
    (typeof e?.message === 'string' && /^(Command timed out|Connection is closed\.|Stream isn't writeable)/.test(e.message))
  );
}

/** True when the failure is the database being out of reach, not a bug. */
function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|Client was closed and is not queryable|Query read timeout/i.test(e.message)) return true;
    current = e.cause;
  }
  const code = pgError(err)?.code;
  // 57P01-03: admin shutdown, crash shutdown, cannot connect now; 08xxx: connection exceptions.
  return code !== undefined && (code.startsWith('57P') || code.startsWith('08'));
}

/**
 * True when PostgreSQL gave up a transaction to let others go on: a deadlock it broke (40P01)
 * or a serialization failure (40001). The transaction was rolled back whole, so nothing was
 * half-written; the caller may send the same request again.
 */
function isTransactionConflict(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals (an undecodable URL, a path
 * parameter over `maxParamLength`) leave in the same `{ error, code }` shape, without
 * Fastify's internal codes.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // These replies are made before any hook runs, the security headers' included
  // (plugins/security.ts): the same request id and the API header set.
  void reply.header('x-request-id', request.id).headers(API_HEADERS);
  const language = requestLanguage(request);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(414).send(localizeErrorBody(errorBody('uri_too_long', m.urlTooLong), language));
  if (err.code === 'FST_ERR_BAD_URL') return reply.status(400).send(localizeErrorBody(errorBody('bad_request', m.malformedUrl), language));
  request.log.error({ err: loggableError(err) }, 'router error');
  return reply.status(500).send(localizeErrorBody(errorBody('internal', m.internal), language));
}

/** The one error path: every failure leaves as `{ error, code, fields? }` with the right status. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    // Every error answer quotes its request's id, a hashed asset's path included (plugins/security.ts).
    void reply.header('x-request-id', request.id);
    const language = requestLanguage(request);
    const localized = (code: ErrorCode, error: string, fields?: Record<string, string>) => localizeErrorBody(errorBody(code, error, fields), language);
    if (err instanceof AppError) {
      if (err.headers) void reply.headers(err.headers);
      return reply.status(err.status).send(localized(err.code, err.message, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const path = (issue.instancePath ?? '').split('/').filter(Boolean);
        const key = path[0] ?? '_';
        if (!(key in fields)) fields[key] = issue.message ?? m.invalidValue;
      }
      const first = Object.values(fields)[0] ?? m.invalidRequest;
      // One id rule: a path id that fails its schema names nothing, answered as an unknown id would be.
      if (err.validationContext === 'params') return reply.status(404).send(localized('not_found', first));
      return reply.status(400).send(localized('validation', first, fields));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err: loggableError(err) }, 'response did not match its schema');
      return reply.status(500).send(localized('internal', m.internal));
    }
    if (isClientAbort(err, request)) {
      // Nobody is left to read an answer: logged as what it is, counted as a client error (499, as nginx does).
      request.log.info({ err: { message: err.message, code: (err as FastifyError).code } }, 'client aborted the request');
      return reply.status(499).send(localized('client_closed', m.clientClosed));
    }
    if (isCounterStoreUnavailable(err)) {
      request.log.warn({ err: { message: err.message } }, 'rate-limit store unavailable');
      void reply.header('retry-after', '5');
      return reply.status(503).send(localized('unavailable', m.unavailable));
    }
    if (isDatabaseUnavailable(err)) {
      const root = rootCause(err);
      request.log.warn({ err: { message: root?.message, code: root?.code } }, 'database unavailable');
      void reply.header('retry-after', '5');
      return reply.status(503).send(localized('unavailable', m.unavailable));
    }
    if (isTransactionConflict(err)) {
      const root = rootCause(err);
      request.log.warn({ err: { message: root?.message, code: root?.code } }, 'transaction conflict, rolled back');
      void reply.header('retry-after', '1');
      return reply.status(503).send(localized('unavailable', m.unavailable));
    }
    const status = (err as FastifyError).statusCode;
    if (status === 413) return reply.status(413).send(localized('payload_too_large', m.payloadTooLarge));
    if (status === 415) return reply.status(415).send(localized('unsupported_media_type', m.unsupportedMediaType));
    if (status && status >= 400 && status < 500) {
      const message = (err as FastifyError).code?.startsWith('FST_ERR_CTP') ? m.malformedBody : err.message;
      return reply.status(status).send(localized(codeForStatus(status), message || m.badRequest));
    }
    request.log.error({ err: loggableError(err) }, 'unhandled error');
    return reply.status(500).send(localized('internal', m.internal));
  });
}
