import type { ServerOptions } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../config';
import { ROSTER_UPLOAD_TIMEOUTS } from '../modules/enrolment/enrolment.service';
import { asArray } from '../lib/as-array';

type TimeoutConfig = Pick<Config, 'REQUEST_TIMEOUT_MS' | 'HEADERS_TIMEOUT_MS' | 'CONNECTION_TIMEOUT_MS' | 'KEEP_ALIVE_TIMEOUT_MS' | 'BODY_LIMIT_BYTES'>;

/**
 * Node's own request deadline: a backstop longer than the longest upload a route watches
 * itself (the roster: 5 minutes). Every other body is held to REQUEST_TIMEOUT_MS by the
 * hook below, which can tell routes apart; Node's deadline is one for the whole server.
 */
export function backstopRequestTimeout(config: Pick<Config, 'REQUEST_TIMEOUT_MS'>): number {
  return Math.max(config.REQUEST_TIMEOUT_MS, ROSTER_UPLOAD_TIMEOUTS.totalMs + 60_000);
}

/**
 * The HTTP server's timeouts, for the Fastify factory: headers must arrive within
 * HEADERS_TIMEOUT_MS, a socket silent for CONNECTION_TIMEOUT_MS (a client that stops
 * reading its answer, a request that stalls) is closed, an idle keep-alive connection is
 * closed after KEEP_ALIVE_TIMEOUT_MS. Node checks its deadlines every `connectionsCheckingInterval`
 * (30 s by default, which would let a slow client run on): here a quarter of the headers
 * timeout, at most a second.
 */
export function serverTimeouts(config: TimeoutConfig): { connectionTimeout: number; keepAliveTimeout: number; requestTimeout: number; http: ServerOptions } {
  const requestTimeout = backstopRequestTimeout(config);
  return {
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout,
    http: {
      headersTimeout: Math.min(config.HEADERS_TIMEOUT_MS, requestTimeout),
      requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
    },
  };
}

const kBodyDeadline = Symbol('bodyDeadline');
/** The deadline's timer while it runs; once it has cut the request, whether an answer had gone out. */
type DeadlineState = ReturnType<typeof setTimeout> | 'cut' | 'cut-after-answer';
type WithDeadline = FastifyRequest & { [kBodyDeadline]?: DeadlineState };

/** How the body deadline ended a request: cut before any answer (a 408), after one, or not at all. */
export function bodyDeadlineOutcome(request: FastifyRequest): 'cut' | 'cut-after-answer' | undefined {
  const state = (request as WithDeadline)[kBodyDeadline];
  return state === 'cut' || state === 'cut-after-answer' ? state : undefined;
}

const TIMEOUT_ANSWER = JSON.stringify({ error: 'Request timed out', code: 'request_timeout' });
const RAW_408 = `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(TIMEOUT_ANSWER)}\r\nConnection: close\r\n\r\n${TIMEOUT_ANSWER}`;

function requestTimeoutError(): Error {
  return Object.assign(new Error('Request body timed out'), { code: 'ERR_HTTP_REQUEST_TIMEOUT', statusCode: 408 });
}

function clearDeadline(request: WithDeadline) {
  const state = request[kBodyDeadline];
  if (state === undefined || typeof state === 'string') return;
  clearTimeout(state);
  request[kBodyDeadline] = undefined;
}

/**
 * A request's body must arrive in full within REQUEST_TIMEOUT_MS of its start (a body sent a
 * byte every few seconds is cut, with a 408 when no answer has started, and the connection
 * closed), also after an early answer (a 401 before the body is read: Node goes on reading
 * it). A route that raises its body limit above BODY_LIMIT_BYTES streams its upload and
 * watches its pace itself (the roster: 408 after 30 s without a byte or 5 minutes in all):
 * its deadline is lifted once its own guards let the request through (preParsing).
 */
export function registerBodyDeadline(app: FastifyInstance, config: Pick<Config, 'REQUEST_TIMEOUT_MS' | 'BODY_LIMIT_BYTES'>) {
  const expire = (request: WithDeadline, reply: FastifyReply) => {
    request[kBodyDeadline] = undefined;
    const raw = request.raw;
    if (raw.complete || raw.destroyed) return;
    const answered = reply.raw.headersSent;
    request[kBodyDeadline] = answered ? 'cut-after-answer' : 'cut';
    request.log.warn({ afterMs: config.REQUEST_TIMEOUT_MS, answered }, 'request body too slow: connection closed');
    const socket = raw.socket;
    if (!answered && socket?.writable) socket.write(RAW_408);
    raw.destroy(requestTimeoutError());
  };

  app.addHook('onRequest', (request: WithDeadline, reply, done) => {
    const headers = request.raw.headers;
    const hasBody =
      headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    if (hasBody && !request.raw.complete) {
      request[kBodyDeadline] = setTimeout(expire, config.REQUEST_TIMEOUT_MS, request, reply);
      const clear = () => clearDeadline(request);
      request.raw.once('end', clear);
      request.raw.once('close', clear);
    }
    done();
  });

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.bodyLimit === undefined || route.bodyLimit <= config.BODY_LIMIT_BYTES) return;
    const lift = (request: WithDeadline, _reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
      clearDeadline(request);
      done(null, payload);
    };
    route.preParsing = [...asArray(route.preParsing), lift] as RouteOptions['preParsing'];
  });
}
