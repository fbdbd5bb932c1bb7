import { type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { type DestinationStream, stdSerializers } from 'pino';
import type { Database } from '#db/client';
import { messages } from '#shared/messages/index';
import type { Config } from './config';
import { type Clock, systemClock } from './lib/clock';
import { openapiDocument, openapiTransform } from './openapi';
import { type CounterStore, MemoryCounterStore, RedisCounterStore } from './lib/counter-store';
import { type PasswordHasher, createHashPool } from './lib/hash-pool';
import { responseSerializerCompiler } from './lib/response-serializer';
import { accountRoutes } from './modules/account/account.routes';
import { createAccountService } from './modules/account/account.service';
import { adminRoutes } from './modules/admin/admin.routes';
import { cardsRoutes } from './modules/cards/cards.routes';
import { createCardsService } from './modules/cards/cards.service';
import { createCardSigner, ephemeralCardSigningKey, parseCardSigningKey } from './modules/cards/signing-key';
import { createAdminService } from './modules/admin/admin.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { type SessionTokensSource, sessionTokensOf } from './modules/auth/session-tokens';
import { registerSessionCache } from './modules/auth/session-cache';
import { hashPassword, verifyPassword } from './modules/auth/passwords';
import { enrolmentRoutes } from './modules/enrolment/enrolment.routes';
import { createEnrolmentService } from './modules/enrolment/enrolment.service';
import { mfaRoutes } from './modules/auth/mfa.routes';
import { createMfaService } from './modules/auth/mfa.service';
import { membersRoutes } from './modules/members/members.routes';
import { createMembersService, familyListsOptions } from './modules/members/members.service';
import { popupsRoutes } from './modules/popups/popups.routes';
import { registerMail } from './modules/mail/register';
import { LivePopups } from './modules/popups/live-popups';
import { audienceFactsOptions, MemberPopupStates, memberShowsOptions, type ShowsSince } from './modules/popups/member-popup-states';
import type { AudienceFacts } from './modules/popups/live-popups';
import { HeldPerMember } from './lib/held-per-member';
import type { FamilyMember } from '#shared/schemas/family';
import { allMemberStates, loadLivePopups, memberStates } from './modules/popups/popups.repository';
import { createPopupsService } from './modules/popups/popups.service';
import { systemRoutes } from './modules/system/system.routes';
import { registerAuthGuards, type RouteEntry } from './plugins/auth';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors';
import { registerIdempotency } from './plugins/idempotency';
import { registerInputHygiene } from './plugins/input-hygiene';
import { registerMetrics } from './plugins/metrics';
import { parseAllowList } from './lib/allow-list';
import { registerSecurityHeaders } from './plugins/security';
import { registerClient } from './plugins/client';
import { registerBodyDeadline, serverTimeouts } from './plugins/transport';
import { RequestLog, lazyChildLogger } from './plugins/request-log';
import { asArray } from './lib/as-array';

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  counters?: CounterStore;
  logger?: FastifyServerOptions['logger'];
  /** The hasher behind the bounded hash pool (argon2id; tests give a fake). */
  passwordHasher?: PasswordHasher;
  /** ID cards' Ed25519 key (main.ts: CARD_SIGNING_KEY, else DATA_DIR's); unset: CARD_SIGNING_KEY, else one for this process. */
  cardSigningKey?: KeyObject;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
    sessionTokens: SessionTokensSource;
  }
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Never log credentials, tokens or bodies. */
export const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.passwordHash',
  // Second factor: the TOTP secret (also inside the otpauth URL), recovery codes, the sign-in
  // challenge, and a code as typed (a recovery code works until used: it is long-lived).
  '*.secret',
  '*.otpauthUrl',
  '*.recoveryCodes',
  '*.challenge',
  '*.code',
  // Password change (the reset's new password is `password`, its link `token`, above).
  '*.currentPassword',
  '*.newPassword',
];

/** A URL as logged: query values could be a misplaced token, a password or a search for a person. */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const keys = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]!.slice(0, 40)}=~`);
  return `${url.slice(0, at)}?${keys.join('&')}`;
}

/**
 * Fastify's error serializer, with the error's own code (ECONNREFUSED, a SQLSTATE) as `errorCode`:
 * `*.code` is redacted (a second-factor code), and an error's code is nothing anyone typed.
 * Serializers run before redaction.
 */
function loggedError(err: Error) {
  const { code, ...rest } = stdSerializers.err(err) as ReturnType<typeof stdSerializers.err> & { code?: unknown };
  return code === undefined ? rest : { ...rest, errorCode: code };
}

/** The server's logger: the configured level, credentials redacted, query values dropped; `stream` for tests. */
export function loggerOptions(config: Config, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: logRedactPaths,
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactQuery(req.url), host: req.host, remoteAddress: req.ip }),
      err: loggedError,
    },
    ...(stream ? { stream } : {}),
  };
}

/** Builds the whole HTTP application around an open database. Listening is the caller's job. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const counters =
    deps.counters ?? (config.REDIS_URL ? new RedisCounterStore(config.REDIS_URL) : new MemoryCounterStore(clock));

  const requestLog = new RequestLog(redactQuery);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    // One access line per request at info, `incoming request` at debug; request loggers made on first use.
    logController: requestLog,
    childLoggerFactory: lazyChildLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // A hop count trusts exactly that many proxies in front of the app, no more.
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
    // Headers within 10 s, bodies within 20 s (plugins/transport.ts), silent sockets closed.
    ...serverTimeouts(config),
  });
  requestLog.attach(app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.addHook('onClose', async () => {
    if (!deps.counters) await counters.close();
  });

  registerErrorHandling(app);
  registerBodyDeadline(app, config);
  registerInputHygiene(app);
  const securityHeaders = registerSecurityHeaders(app, { logoUrl: config.BRAND_LOGO_URL });
  // Before any route: every route gets its own metrics hook as it is added (plugins/metrics.ts).
  const metrics = registerMetrics(app, { allow: parseAllowList(config.METRICS_ALLOW), ...(database.poolStats ? { pool: database.poolStats } : {}) });
  // Before compress: the built client is served precompressed, never compressed per request.
  await registerClient(app, { serve: config.SERVE_CLIENT, clientDir: config.CLIENT_DIR, headers: securityHeaders });
  // Answers of 1 KiB or more are compressed. Routes whose answers never reach that say
  // `compress: false` (health, configuration, the signed-in user): the plugin's two hooks
  // per request were a tenth of such a route's time. Requests without a body get no
  // decompression hook either: there is nothing for it to inflate.
  app.addHook('onRoute', (route) => {
    if (asArray(route.method).every((method) => method === 'GET' || method === 'HEAD' || method === 'DELETE')) route.decompress ??= false;
  });
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // The document is generated from the route table (summary, operationId, security from config.access): src/server/openapi.ts.
  await app.register(swagger, { openapi: openapiDocument({ brandName: config.BRAND_NAME, publicUrl: config.PUBLIC_URL }), transform: openapiTransform });

  // The mailer queues in the caller's transaction; the outbox worker sends (started on listen, stopped on close).
  const mailer = registerMail(app, { config, database, clock });
  // Every argon2id hash and check on a request path takes a place in this pool (lib/hash-pool.ts).
  const passwords = createHashPool(deps.passwordHasher ?? { hash: hashPassword, verify: verifyPassword }, {
    concurrency: config.PASSWORD_HASH_CONCURRENCY,
    queue: config.PASSWORD_HASH_QUEUE,
    busyMessage: messages.auth.server.busy,
  }).hasher;
  // Popups that are on, and members' states of them, held in memory for every member's next-popup
  // call; the sessions' channel keeps all three honest.
  const livePopups = new LivePopups((now) => loadLivePopups(database.db, now), { ttlMs: config.POPUPS_CACHE_TTL_MS });
  const memberPopupStates = new MemberPopupStates({ all: (userId) => allMemberStates(database.db, userId), of: (userId, popupIds) => memberStates(database.db, userId, popupIds) }, {
    ttlMs: config.POPUPS_CACHE_TTL_MS,
    max: config.SESSION_CACHE_MAX,
  });
  const audienceFacts = new HeldPerMember<AudienceFacts>(audienceFactsOptions(config));
  const memberShows = new HeldPerMember<ShowsSince>(memberShowsOptions(config));
  // Members' family lists too (GET /api/family-members), with the sessions' TTL and bound.
  const familyLists = new HeldPerMember<FamilyMember[]>(familyListsOptions(config));
  const sessionCache = registerSessionCache(app, { config, database, copies: [livePopups, memberPopupStates, audienceFacts, memberShows, familyLists] });
  app.decorate('livePopups', livePopups);
  app.decorate('memberPopupStates', memberPopupStates);
  app.decorate('audienceFacts', audienceFacts);
  app.decorate('memberShows', memberShows);
  app.decorate('familyLists', familyLists);
  // Signed bearer tokens: the shared key and whether unsigned ones can still name a session, read on first need and every minute.
  const sessionTokens = sessionTokensOf(database.db, clock, (err) => app.log.warn({ err }, 'session token key refresh failed'));
  app.decorate('sessionTokens', sessionTokens);
  app.addHook('onClose', async () => sessionTokens.close());
  const auth = createAuthService({
    db: database.db,
    sessionTokens,
    sessionCache,
    clock,
    counters,
    passwords,
    auditSecret: config.AUDIT_HMAC_SECRET ?? randomBytes(32).toString('hex'),
    ipLimitPerMinute: config.AUTH_RATE_LIMIT_PER_IP,
    onSignIn: metrics.signIn,
    mailer,
    brandName: config.BRAND_NAME,
    newEmployerMode: config.ENROLMENT_MODE,
  });
  app.decorate('routeTable', [] as RouteEntry[]);
  const idempotency = registerIdempotency(app, { db: database.db, clock });
  // Housekeeping: ended sessions (and idempotency keys past 24 h) are deleted hourly so the tables do not grow forever.
  const purge = setInterval(() => {
    auth.purgeEndedSessions().catch((err: unknown) => app.log.warn({ err }, 'session purge failed'));
    idempotency.purgeExpired().catch((err: unknown) => app.log.warn({ err }, 'idempotency key purge failed'));
  }, 60 * 60 * 1000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
  // Refused sign-ins counted in memory since the last flush are written before the database closes.
  app.addHook('onClose', async () => {
    await auth.closeRefusedAttempts().catch((err: unknown) => app.log.warn({ err }, 'refused sign-in counts not written'));
  });
  registerAuthGuards(app, auth, app.routeTable);

  systemRoutes(app, { config, ping: () => database.ping() });
  authRoutes(app, { auth });
  mfaRoutes(app, { auth, mfa: createMfaService({ db: database.db, clock, counters, passwords, brandName: config.BRAND_NAME }) });
  membersRoutes(app, { members: createMembersService({ db: database.db, clock, familyLists }) });
  popupsRoutes(app, {
    popups: createPopupsService({
      db: database.db,
      livePopups,
      memberPopupStates,
      audienceFacts,
      memberShows,
      clock,
      counters,
      settings: {
        vitalScanUrl: config.VITAL_SCAN_URL,
        actionUrls: config.POPUP_ACTION_URLS,
        programme: { dailyCap: config.POPUPS_DAILY_CAP ?? null, quietHours: config.POPUPS_QUIET_HOURS ?? null },
        nextPerMinute: config.POPUPS_NEXT_RATE_LIMIT_PER_MINUTE,
      },
    }),
  });
  adminRoutes(app, { admin: createAdminService({ db: database.db, clock }) });
  const cardKey = deps.cardSigningKey ?? (config.CARD_SIGNING_KEY ? parseCardSigningKey(config.CARD_SIGNING_KEY) : ephemeralCardSigningKey());
  cardsRoutes(app, {
    cards: createCardsService({ db: database.db, clock, counters, signer: createCardSigner(cardKey), verifyPerMinute: config.AUTH_RATE_LIMIT_PER_IP }),
  });
  enrolmentRoutes(app, {
    enrolment: createEnrolmentService({
      db: database.db,
      clock,
      counters,
      suggestLimitPerMinute: config.AUTH_RATE_LIMIT_PER_IP,
      newEmployerMode: config.ENROLMENT_MODE,
      hiddenEmployer: config.ADMIN_COMPANY,
    }),
  });
  accountRoutes(app, {
    account: createAccountService({ db: database.db, clock, counters, passwords, mailer, brandName: config.BRAND_NAME, ipLimitPerMinute: config.AUTH_RATE_LIMIT_PER_IP }),
  });

  return app;
}
