/**
 * The web UI: the files Vite builds into `dist/web/` served as they are, and `index.html` for every other GET outside
 * `/api/` so client-side routes (`/`, `/properties/3`…) survive a reload. Hashed assets are cached for a year;
 * `index.html` is revalidated on every load, so a new build shows at once. Assets are sent brotli- or gzip-compressed
 * from the `.br` / `.gz` files the build writes, when the browser accepts them.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where `npm run build` puts the UI: the package's `dist/web/` (this module sits two folders below the package root
 * both as source and compiled, so tests running the sources serve the same build).
 */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>robotskit</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The web UI is not built</h1>
<p>This service runs from a checkout whose UI has not been built. Run <code>npm run build</code> in the repository
and restart the service. The JSON API works without it: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
</body></html>
`;

/** Answers a GET that matched no route: the UI's `index.html`, or false when the request is not the UI's. */
type UiFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

function isUiRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0]!;
  return path !== '/api' && !path.startsWith('/api/');
}

/**
 * Serves the built UI from `root` (or nothing when `root` is false) and returns the fallback the not-found handler
 * calls for client routes.
 */
export async function registerWebUi(app: FastifyInstance, root: string | false): Promise<UiFallback> {
  if (root === false) return () => false;
  if (!existsSync(join(root, 'index.html'))) {
    return (request, reply) => {
      if (!isUiRequest(request)) return false;
      void reply.status(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT_PAGE);
      return true;
    };
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: ['index.html'],
    // Files that are not there fall through to the not-found handler, which answers client routes with index.html.
    wildcard: true,
    // The headers below decide caching; send's own Cache-Control (max-age=0) would override them.
    cacheControl: false,
    // The build writes .br and .gz beside each asset; browsers that accept them get those.
    preCompressed: true,
    setHeaders(res, path) {
      if (path.includes(`${join('/', 'assets')}/`))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
    },
  });
  return (request, reply) => {
    if (!isUiRequest(request)) return false;
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}
