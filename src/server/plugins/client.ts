import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { type SecurityHeaders, useApiHeaders } from './security';

/** Cache life of hashed build output: the name changes with the content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

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
  const assetsDir = `${path.sep}assets${path.sep}`;
  if (serveClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are reached through their originals only, never as files of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (reply, filePath) => {
        void reply.header('cache-control', filePath.includes(assetsDir) ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    if (serveClient && isPage && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.headers(opts.headers.document).header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return useApiHeaders(reply).status(404).send({ error: 'Not found', code: 'not_found' });
  });
}
