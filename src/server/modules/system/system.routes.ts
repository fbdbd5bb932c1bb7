import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '#shared/errors';
import { PublicConfigSchema } from '#shared/schemas/config';
import type { Config } from '../../config';
import { JSON_TYPE, checkedJson } from '../../lib/checked-json';

const StatusSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

/** Liveness, readiness, the public configuration and the OpenAPI document. */
export function systemRoutes(app: FastifyInstance, deps: { config: Config; ping: () => Promise<void> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = deps;
  // Answers that cannot change while the server runs, written once, at start (lib/checked-json.ts):
  // each request sends the same string (for `/api/config`, 0.6 µs of schema check and 0.13 µs of
  // JSON.stringify saved of a request's 25-30 µs).
  const healthy = checkedJson(StatusSchema, { status: 'ok' });
  const publicConfig = checkedJson(PublicConfigSchema, {
    brandName: config.BRAND_NAME,
    brandLogoUrl: config.BRAND_LOGO_URL,
    brandPrimaryColor: config.BRAND_PRIMARY_COLOR,
    vitalScanUrl: config.VITAL_SCAN_URL,
    wellnessProgramUrl: config.WELLNESS_PROGRAM_URL,
    helpVideoIds: config.HELP_VIDEO_IDS,
  });

  // `compress: false` here: these answers are a few hundred bytes at most, under compression's
  // 1 KiB threshold, so its per-request hooks would only look and pass (app.ts).
  // The two constant answers are sent as their written string, through the untyped `app`.
  app.get('/healthz', { compress: false, schema: { hide: true, response: { 200: StatusSchema } } }, (_request, reply) => reply.type(JSON_TYPE).send(healthy));

  r.get('/readyz', { compress: false, schema: { hide: true, response: { 200: StatusSchema, 503: StatusSchema } } }, async (_request, reply) => {
    try {
      await deps.ping();
      return { status: 'ok' as const };
    } catch {
      return reply.status(503).send({ status: 'unavailable' as const });
    }
  });

  app.get('/api/config', {
    config: { access: 'public' },
    compress: false,
    schema: { summary: 'Get the brand and links the app starts with', operationId: 'getPublicConfig', tags: ['config'], response: { 200: PublicConfigSchema, 500: ErrorBodySchema } },
    handler: (_request, reply) => reply.type(JSON_TYPE).send(publicConfig),
  });

  // The web app manifest, from the runtime brand (so a rebrand needs a restart, not a rebuild).
  const manifest = JSON.stringify({
    id: '/',
    name: config.BRAND_NAME,
    short_name: config.BRAND_NAME,
    start_url: '/home',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: config.BRAND_PRIMARY_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  });
  r.get('/manifest.webmanifest', { compress: false, schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/manifest+json').send(manifest),
  );

  r.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
}
