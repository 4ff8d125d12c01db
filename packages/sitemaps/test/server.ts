/**
 * A real HTTP server on 127.0.0.1 for the tests: each test registers handlers by path.
 */

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Handles one request. */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** The requests received, as `METHOD /path`. */
  readonly requests: string[];
  route(path: string, handler: Handler): void;
  /** Serves `body` with status 200 and `headers`. */
  serve(path: string, body: string | Uint8Array, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

/** Starts a server; unknown paths answer 404. */
export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const requests: string[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    open.add(res);
    res.on('close', () => open.delete(res));
    const handler = routes.get(req.url ?? '');
    if (handler === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    serve: (path, body, headers = {}) =>
      void routes.set(path, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml', ...headers }).end(body);
      }),
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A urlset with the given locations (and optional extra child elements per url). */
export function urlset(locs: readonly string[], extra = ''): string {
  const urls = locs.map((loc) => `<url><loc>${loc}</loc>${extra}</url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** A sitemap index with the given locations. */
export function sitemapIndex(locs: readonly string[]): string {
  const maps = locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${maps}\n</sitemapindex>\n`;
}

/**
 * Writes the chunks of `source` to `res` with backpressure, and stops when the client goes away. Resolves with the
 * bytes written.
 */
export async function stream(
  res: import('node:http').ServerResponse,
  source: Iterable<string | Uint8Array>,
): Promise<number> {
  let written = 0;
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  for (const chunk of source) {
    if (gone) return written;
    written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!gone) res.end();
  return written;
}
