import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Db } from '#db/client';
import type { ErrorCode } from '#shared/errors';
import { messages } from '#shared/messages/index';
import type { Clock } from '../lib/clock';
import * as repo from '../modules/idempotency/idempotency.repository';
import { asArray } from '../lib/as-array';

/**
 * The authenticated calls that create something, and so take an `Idempotency-Key`
 * (docs/decisions/idempotency-keys.md). Updates and deletes are idempotent by nature; the
 * roster import replaces and its body is a 20 MB upload, so it stays out.
 */
export const IDEMPOTENT_ROUTES: readonly string[] = ['POST /api/family-members', 'POST /api/admin/popups', 'POST /api/admin/employers'];

/** Keys are kept, and honoured, this long per user. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A row still running after this long belongs to a request that crashed: the next caller takes it over. */
export const IDEMPOTENCY_STALE_MS = 60_000;
/** How long a concurrent repeat waits for the first request (backoff, about 4.5 s in all) before a 409. */
const WAIT_DELAYS_MS = [50, 100, 200, 400, 800, 1000, 1000, 1000];

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const text = messages.common.idempotency;

interface Claim {
  userId: string;
  key: string;
  settled: boolean;
}

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Method, path and the validated body: the same key with another request is refused. */
export function idempotencyRequestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body)}`).digest('hex');
}
const requestHash = (request: FastifyRequest) => idempotencyRequestHash(request.method, request.url.split('?')[0]!, request.body);

/** Answers that are final for the request as sent; a 5xx, a timeout or a rate limit may go differently next time. */
const storable = (status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 408 && status !== 429);

function sendError(reply: FastifyReply, status: number, error: string, code: ErrorCode) {
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify({ error, code }));
}

/**
 * `Idempotency-Key` on the create routes: the first request with a key runs and its answer
 * (2xx or 4xx) is kept 24 h per user; a repeat with the same key and request gets that answer
 * again (`Idempotent-Replayed: true`), a concurrent repeat waits for it, and the same key with
 * another request is 422. The header is optional. Returns the purge for the housekeeping job.
 */
export function registerIdempotency(app: FastifyInstance, { db, clock }: { db: Db; clock: Clock }) {
  const claims = new WeakMap<FastifyRequest, Claim>();
  const seen = new Set<string>();

  async function replay(reply: FastifyReply, row: repo.IdempotencyRow) {
    void reply.header(REPLAYED_HEADER, 'true');
    if (row.statusCode === 204 || row.responseBody === null) return reply.status(row.statusCode!).send();
    return reply.status(row.statusCode!).type('application/json; charset=utf-8').send(JSON.stringify(row.responseBody));
  }

  async function preHandler(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) return sendError(reply, 400, text.keyInvalid, 'idempotency_key_invalid');
    const userId = request.auth?.user.id;
    if (!userId) return; // The guard has already refused anyone signed out.
    const hash = requestHash(request);
    const claim = (): Claim => {
      const c = { userId, key: header, settled: false };
      claims.set(request, c);
      return c;
    };

    for (let attempt = 0; attempt < 50; attempt += 1) {
      const now = clock();
      if (await repo.claimKey(db, { userId, key: header, requestHash: hash, now })) {
        claim();
        return;
      }
      const row = await repo.findKey(db, userId, header);
      if (!row) continue; // Released or purged between the two statements: claim again.
      const expired = row.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_KEY_TTL_MS;
      const stale = row.statusCode === null && row.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_STALE_MS;
      if (expired || stale) {
        const takenOver = await repo.takeOverKey(db, {
          userId,
          key: header,
          requestHash: hash,
          now,
          expiredBefore: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS + 1),
          staleBefore: new Date(now.getTime() - IDEMPOTENCY_STALE_MS + 1),
        });
        if (takenOver) {
          claim();
          return;
        }
        continue; // Someone else took it over first: look again.
      }
      // Not a secret (the caller sent the body it hashes): no constant-time compare needed.
      // eslint-disable-next-line security/detect-possible-timing-attacks
      if (row.requestHash !== hash) return sendError(reply, 422, text.keyReused, 'idempotency_key_reused');
      if (row.statusCode !== null) return replay(reply, row);
      const wait = WAIT_DELAYS_MS[attempt];
      if (wait === undefined) {
        void reply.header('retry-after', '1');
        return sendError(reply, 409, text.inProgress, 'idempotency_in_progress');
      }
      await delay(wait);
    }
    void reply.header('retry-after', '1');
    return sendError(reply, 409, text.inProgress, 'idempotency_in_progress');
  }

  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const c = claims.get(request);
    if (!c || c.settled) return payload;
    c.settled = true;
    const status = reply.statusCode;
    try {
      if (storable(status)) {
        const body = typeof payload === 'string' && payload.length > 0 ? (JSON.parse(payload) as unknown) : null;
        await repo.completeKey(db, { userId: c.userId, key: c.key, statusCode: status, responseBody: body });
      } else {
        await repo.releaseKey(db, c.userId, c.key);
      }
    } catch (err) {
      // The row stays running and is taken over after the stale window; the answer still goes out.
      request.log.warn({ err: { message: (err as Error).message } }, 'idempotency key not settled');
    }
    return payload;
  }

  async function onResponse(request: FastifyRequest) {
    const c = claims.get(request);
    if (!c || c.settled) return;
    c.settled = true;
    await repo.releaseKey(db, c.userId, c.key).catch((err: unknown) => {
      request.log.warn({ err: { message: (err as Error).message } }, 'idempotency key not released');
    });
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    const entry = methods.map((m) => `${m} ${route.url}`).find((e) => IDEMPOTENT_ROUTES.includes(e));
    if (!entry) return;
    seen.add(entry);
    route.preHandler = [...asArray(route.preHandler), preHandler];
    // First among onSend hooks: the answer is kept before compression turns it into a stream.
    route.onSend = [onSend, ...asArray(route.onSend)] as RouteOptions['onSend'];
    route.onResponse = [...asArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
  });
  app.addHook('onReady', async () => {
    const missing = IDEMPOTENT_ROUTES.filter((r) => !seen.has(r));
    if (missing.length > 0) throw new Error(`Idempotent routes not registered: ${missing.join(', ')}`);
  });

  return {
    /** Deletes keys older than 24 h (run by the hourly housekeeping). */
    purgeExpired: () => repo.deleteKeysBefore(db, new Date(clock().getTime() - IDEMPOTENCY_KEY_TTL_MS)),
  };
}
