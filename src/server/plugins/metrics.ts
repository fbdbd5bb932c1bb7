import type { BlockList } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { AnswerBook, type RouteAnswers, answerMetrics } from './answer-counts';
import { isAllowed } from '../lib/allow-list';
import { bodyDeadlineOutcome } from './transport';
import { asArray } from '../lib/as-array';

/** Process metrics (CPU, memory, event loop lag, GC) are per process, not per app: collected once. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export type SignInOutcome = 'success' | 'bad_password' | 'unknown_email' | 'locked' | 'rate_limited' | 'bad_mfa_code' | 'mfa_required';

export interface Metrics {
  signIn(outcome: SignInOutcome): void;
}

/**
 * The outcome as counted: an unknown email counts as a bad password, as the sign-in answer
 * says (the login audit keeps the difference), so the series cannot tell anyone which
 * addresses have accounts.
 */
export function countedSignInOutcome(outcome: SignInOutcome): Exclude<SignInOutcome, 'unknown_email'> {
  return outcome === 'unknown_email' ? 'bad_password' : outcome;
}

export interface MetricsOptions {
  /** Who may scrape: METRICS_ALLOW parsed. */
  allow: BlockList;
  /** The database pool right now, when there is one. */
  pool?: () => { total: number; idle: number; waiting: number; max: number };
}

/**
 * Prometheus metrics at GET /metrics: request rate, latency per route, errors, the database
 * pool, sign-in outcomes and the process. Only addresses on the allow list see it, judged by
 * the connecting socket (not X-Forwarded-For, which a caller can write); others get a 404.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): Metrics {
  const registry = new Registry();
  const book = new AnswerBook();
  const { requests, errors } = answerMetrics(book, registry);
  const signIns = new Counter({ name: 'auth_signin_total', help: 'Sign-in attempts by outcome (an unknown email counts as bad_password)', labelNames: ['outcome'] as const, registers: [registry] });
  for (const outcome of ['success', 'bad_password', 'locked', 'rate_limited', 'bad_mfa_code', 'mfa_required'] as const) signIns.inc({ outcome }, 0);
  if (options.pool) {
    const pool = options.pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state (total open, idle, max)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = pool();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'max' }, s.max);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a free PostgreSQL connection',
      registers: [registry],
      collect() {
        this.set(pool().waiting);
      },
    });
  }

  // Each route records its own answers, in an onResponse hook made for it that knows its
  // pattern (never the raw URL: ids and junk paths must not multiply the series) and holds
  // its entries in the book (plugins/answer-counts.ts). Callback hooks, not async ones.
  const recorder = (route: string) => {
    const byMethod = new Map<string, RouteAnswers>();
    return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      let answers = byMethod.get(request.method);
      if (!answers) {
        answers = book.for(request.method, route);
        byMethod.set(request.method, answers);
      }
      answers.record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
  };
  // Requests no route matched (the not-found handler's answers) share one series.
  const unmatched = recorder('unmatched');
  app.addHook('onResponse', (request, reply, done) => (request.is404 ? unmatched(request, reply, done) : done()));

  // A request whose client went away, or whose body was cut for being too slow, never gets
  // an answer (no onResponse): counted here as 499 (nginx's "client closed request") or 408.
  // Only routes that take a body can be left mid-request; GET routes carry no listener for it.
  const counted = (request: FastifyRequest, status: string) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status });
    errors.inc({ method: request.method, route, status, class: 'client' });
  };
  const onAbort = (request: FastifyRequest, done: () => void) => {
    const outcome = bodyDeadlineOutcome(request);
    // Cut after its answer went out: already counted with that answer's status.
    if (outcome !== 'cut-after-answer') counted(request, outcome === 'cut' ? '408' : '499');
    done();
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.url !== '/metrics') route.onResponse = [...asArray(route.onResponse), recorder(route.url)];
    if (!asArray(route.method).some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH' || m === 'DELETE')) return;
    route.onRequestAbort = [...asArray(route.onRequestAbort), onAbort];
  });

  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    // A request relayed by a proxy on the same host arrives from 127.0.0.1 too: anything carrying
    // forwarding headers came from outside and is refused, whatever the socket says.
    const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (forwarded || !isAllowed(options.allow, request.raw.socket.remoteAddress)) {
      return reply.status(404).send({ error: 'Not found', code: 'not_found' });
    }
    const merged = Registry.merge([processMetrics(), registry]);
    return reply.header('cache-control', 'no-store').type(merged.contentType).send(await merged.metrics());
  });

  return { signIn: (outcome) => signIns.inc({ outcome: countedSignInOutcome(outcome) }) };
}
