/**
 * Serves the contract's cases over real HTTP on 127.0.0.1, each case at the root of an origin of its own (a server per
 * case), its bytes exactly as they are, for the surfaces that fetch (`check`, the service's live and stored tests,
 * the browser tester).
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractCase } from './cases.js';

export interface CaseOrigins {
  /** `http://127.0.0.1:<port>` of each case, by id. */
  readonly origin: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/** Starts one server per case; `/robots.txt` is the case's bytes, every other path a small page. */
export async function serveCases(cases: readonly ContractCase[]): Promise<CaseOrigins> {
  const servers: Server[] = [];
  const origin = new Map<string, string>();
  for (const c of cases) {
    const server = createServer((request, response) => {
      if ((request.url ?? '').split('?')[0] === '/robots.txt') {
        response.writeHead(200, { 'content-type': c.contentType ?? 'text/plain', 'content-length': c.bytes.length });
        response.end(Buffer.from(c.bytes));
      } else {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><title>page</title>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origin.set(c.id, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return {
    origin,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
