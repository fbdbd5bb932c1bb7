import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const VIDEO_EMBED_ORIGIN = 'https://www.youtube-nocookie.com';

/** A header set: lower-case names, values computed once at start, written as they are. */
export type HeaderSet = Readonly<Record<string, string>>;

export type HeaderKind = 'api' | 'document' | 'asset';

const HSTS = 'max-age=31536000; includeSubDomains';
const PERMISSIONS_POLICY = 'microphone=(self), camera=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/**
 * Machine answers (`/api/*`, `/healthz`, `/readyz`, `/metrics`, `/.well-known/*`, and every
 * JSON error): nothing in them may run, load, be framed or be cached. The document-only
 * policies (permissions, opener, referrer, the legacy X-* switches) do nothing for a JSON
 * body, and each header is work on every answer (docs/decisions/http-headers-and-transport.md).
 */
export const API_HEADERS: HeaderSet = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': HSTS,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

/**
 * Hashed build output (`/assets/*.js`, `.css`): subresources, never documents. Their cache life
 * is set where they are served (a year, immutable); here only what keeps them from being
 * sniffed into something else or read by another site.
 */
export const ASSET_HEADERS: HeaderSet = Object.freeze({
  'strict-transport-security': HSTS,
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
});

/** The page's Content-Security-Policy: no inline or foreign script, nothing may frame it. */
export function documentCsp(logoUrl: string): string {
  const imgSrc = ["'self'", 'data:'];
  if (/^https:\/\//.test(logoUrl)) imgSrc.push(new URL(logoUrl).origin);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // Radix's scroll lock injects a <style> element at run time; scripts stay 'self' only.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': imgSrc,
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'frame-src': [VIDEO_EMBED_ORIGIN],
    'media-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

/** HTML documents (the app shell, and any other file that is not a hashed asset): the full set. */
export function documentHeaders(opts: { logoUrl: string }): HeaderSet {
  return Object.freeze({
    'content-security-policy': documentCsp(opts.logoUrl),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'strict-transport-security': HSTS,
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    'permissions-policy': PERMISSIONS_POLICY,
  });
}

/**
 * Which set a URL gets, from its path alone (so it is known before routing and the same for
 * a 404): machine paths the API set, hashed scripts and styles the asset set, anything
 * else (the SPA's pages, index.html, the logo, an asset that could be opened as a document)
 * the document set.
 */
export function headerKindOf(url: string): HeaderKind {
  if (url.startsWith('/api/') || url.startsWith('/.well-known/')) return 'api';
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  if (path === '/healthz' || path === '/readyz' || path === '/metrics' || path === '/api') return 'api';
  if (path.startsWith('/assets/') && (path.endsWith('.js') || path.endsWith('.css') || path.endsWith('.woff2'))) return 'asset';
  return 'document';
}

export interface SecurityHeaders {
  api: HeaderSet;
  document: HeaderSet;
  asset: HeaderSet;
}

/**
 * The security headers (and the request's id), computed once here and written on every answer by one onRequest hook
 * (before routing work, so refusals and 404s carry them too). Replaces @fastify/helmet, which
 * rebuilt the CSP and every header on every request. A JSON error answer anywhere takes the
 * API set (`useApiHeaders`), whatever its path.
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: { logoUrl: string }): SecurityHeaders {
  const sets: SecurityHeaders = { api: API_HEADERS, document: documentHeaders(opts), asset: ASSET_HEADERS };
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const kind = headerKindOf(request.url);
    // The request's id, to quote when reporting a problem (the access log has it), on every
    // answer but hashed build output: a script never reports, and /login's first download
    // counts each of their headers (docs/decisions/initial-js-budget.md).
    if (kind !== 'asset') void reply.header('x-request-id', request.id);
    void reply.headers(sets[kind]);
    done();
  });
  return sets;
}

/** Headers of the document set that a machine answer does not carry. */
const DOCUMENT_ONLY = Object.keys(documentHeaders({ logoUrl: '/' })).filter((name) => !(name in API_HEADERS));

/** Turns an answer into a machine answer (a JSON 404 on a page path): the API set instead of whatever its path gave it. */
export function useApiHeaders(reply: FastifyReply): FastifyReply {
  for (const name of DOCUMENT_ONLY) reply.removeHeader(name);
  // A hashed asset's path gave it no request id; an error answer quotes one.
  return reply.header('x-request-id', reply.request.id).headers(API_HEADERS);
}
