import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const VIDEO_EMBED_ORIGIN = 'https://www.youtube-nocookie.com';

/** Strict security headers: CSP without inline script, HSTS, nosniff, referrer and permissions policies. */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { logoUrl: string }) {
  const imgSrc = ["'self'", 'data:'];
  if (/^https:\/\//.test(opts.logoUrl)) imgSrc.push(new URL(opts.logoUrl).origin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix's scroll lock injects a <style> element at run time; scripts stay 'self' only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc,
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: [VIDEO_EMBED_ORIGIN],
        mediaSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header(
      'permissions-policy',
      'microphone=(self), camera=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    );
    if (request.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
  });
}
