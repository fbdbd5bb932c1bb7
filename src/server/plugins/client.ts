import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { parseCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGES, LANGUAGE_COOKIE, type Language, SIGNED_IN_COOKIE, isLanguage } from '#shared/i18n/languages';
import { paths } from '#shared/paths';
import { type DrawnScreen, drawnDocument } from '#shared/drawn-screens';
import { requestLanguage } from '../lib/language';
import { type SecurityHeaders, useApiHeaders } from './security';

/** Cache life of hashed build output: the name changes with the content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

function cookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[name] : undefined;
}

/**
 * The language /login's HTML comes in: the device's saved choice (the app shares it in a
 * cookie for that address), else the browser's preferred languages, as the app itself decides.
 */
function signInLanguage(request: FastifyRequest): Language {
  const saved = cookie(request, LANGUAGE_COOKIE);
  return isLanguage(saved) ? saved : requestLanguage(request);
}

/**
 * Serves the built client (when there is one) and answers what no route matched: a page
 * path gets the app shell (index.html, the document header set), anything else the JSON 404
 * with the API header set.
 *
 * Files are served as the build left them: `scripts/precompress.mjs` wrote a `.br` and a
 * `.gz` next to every text file where that is smaller, and `preCompressed` picks the one the
 * client accepts (with `Vary: Accept-Encoding`), so nothing is compressed per request.
 * Register this before @fastify/compress: its per-route hooks then never see these routes.
 */
export async function registerClient(
  app: FastifyInstance,
  opts: { serve: boolean; clientDir: string; headers: SecurityHeaders },
): Promise<void> {
  const clientDir = path.resolve(opts.clientDir);
  // eslint-disable-next-line security/detect-non-literal-fs-filename -- CLIENT_DIR from configuration, not a request
  const serveClient = opts.serve && existsSync(path.join(clientDir, 'index.html'));
  /** A page: the document header set, revalidated on every use; `vary` for one chosen by the request. */
  const sendDocument = (reply: FastifyReply, file: string, vary?: string) => {
    reply.headers(opts.headers.document).header('cache-control', 'no-cache').type('text/html');
    if (vary) reply.header('vary', vary);
    return reply.sendFile(file);
  };
  if (serveClient) {
    // The compressed copies are reached through their originals only, never as files of their own.
    const compressedCopies = ['**/*.br', '**/*.gz'];
    // Hashed build output: its name changes with its content and it is cached for a year, so a
    // browser never revalidates it or asks for a part of it. It goes without ETag, Last-Modified
    // and Accept-Ranges (about 75 bytes on each script of a first visit, which the /login budget
    // counts: docs/decisions/initial-js-budget.md).
    await app.register(async (assets) => {
      // Scripts go as `text/javascript` (the type RFC 9239 names), without a charset (a module
      // script is read as UTF-8 whatever it says): 23 bytes fewer on each script's answer than
      // `application/javascript; charset=utf-8`, which @fastify/static writes over setHeaders.
      assets.addHook('onSend', (request, reply, payload, done) => {
        if (request.url.endsWith('.js')) void reply.header('content-type', 'text/javascript');
        done(null, payload);
      });
      await assets.register(fastifyStatic, {
        root: path.join(clientDir, 'assets'),
        prefix: '/assets/',
        wildcard: false,
        index: false,
        preCompressed: true,
        globIgnore: compressedCopies,
        etag: false,
        lastModified: false,
        acceptRanges: false,
        decorateReply: false,
        setHeaders: (reply) => void reply.header('cache-control', IMMUTABLE),
      });
    });
    // Everything else (the worker, the manifest's icons, index.html): revalidated on every use.
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: [...compressedCopies, 'assets/**'],
      setHeaders: (reply) => void reply.header('cache-control', 'no-cache'),
    });
    // eslint-disable-next-line security/detect-non-literal-fs-filename -- names from the screen and language lists, not a request
    const drawn = (screen: DrawnScreen) => LANGUAGES.every((language) => existsSync(path.join(clientDir, drawnDocument(screen, language))));
    // /login with its screen already drawn, in the visitor's language, where the build made them.
    if (drawn('login')) {
      app.get(paths.login, { schema: { hide: true } }, (request, reply) =>
        sendDocument(reply, drawnDocument('login', signInLanguage(request)), 'accept-language, cookie'),
      );
    }
    // /home drawn on a device that says it holds a session (and in which language its pages
    // are); anyone else gets the app shell, which leads a visitor with no session to /login.
    if (drawn('home')) {
      app.get(paths.home, { schema: { hide: true } }, (request, reply) => {
        const language = cookie(request, SIGNED_IN_COOKIE);
        return sendDocument(reply, isLanguage(language) ? drawnDocument('home', language) : 'index.html', 'cookie');
      });
    }
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    if (serveClient && isPage && !path.extname(request.url.split('?')[0] ?? '')) {
      return sendDocument(reply, 'index.html');
    }
    return useApiHeaders(reply).status(404).send({ error: 'Not found', code: 'not_found' });
  });
}
