/**
 * The MCP endpoint (`/mcp`): the service mounts a handler it is given (the CLI's `serve` gives robotskit's MCP tools,
 * so this package needs no MCP SDK) and hands it the service's network: the SSRF-guarded fetch as the engine's fetch
 * (a refused address is the engine's `blocked`), its FTP client, and the guard's checks for page GETs. Requests pass
 * the same checks as the API (the Host check; the token, which every POST needs when the service has one) and get
 * its security headers. The tools are stateless: POST only (GET, which would open an event stream, is a 405).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { FetchLike, FtpGet } from 'robotskit/fetch';
import { engineFetchOf, SERVICE_USER_AGENT } from '../net/robots-fetch.js';
import type { ApiContext } from './context.js';
import { errorBody } from './errors.js';
import { SECURITY_HEADERS } from './host-check.js';

/** What the service hands an MCP handler: its network, every connection checked by its SSRF guard. */
export interface McpNetwork {
  /** The guarded fetch as the engine's `fetch` (a refused address throws the engine's `BlockedFetchError`). */
  readonly fetch: FetchLike;
  /** `ftp://` under the same address rules. */
  readonly ftp?: FtpGet | undefined;
  /** The service's `User-Agent`. */
  readonly userAgent: string;
  /** Name resolution that refuses names resolving to a forbidden address (for a handler's own connections). */
  readonly lookup: LookupFunction;
  /** Why a URL would be refused (its IP literal, or its name's addresses now), else null. */
  readonly refusalOf: (url: string) => Promise<Error | null>;
}

/** Answers one request of `/mcp`; `body` is the parsed JSON body. */
export type McpHandler = (request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;

/** Builds the `/mcp` handler once, from the service's network. */
export type McpMount = (network: McpNetwork) => McpHandler;

const NO_GUARD = new Error('this fetch has no address guard: pages are not fetched');

/** The service's network, as MCP handlers get it. */
function networkOf(context: ApiContext): McpNetwork {
  const guarded = context.fetch;
  const refusalOf = guarded.refusalOf;
  return {
    fetch: engineFetchOf(guarded),
    ftp: guarded.ftp,
    userAgent: SERVICE_USER_AGENT,
    // Without the guard's own lookup (a fetch given by an embedder), every name is refused rather than let through.
    lookup:
      guarded.lookup ??
      (((_host: string, _options: unknown, callback: (error: Error) => void) => callback(NO_GUARD)) as LookupFunction),
    refusalOf: refusalOf === undefined ? async () => NO_GUARD : (url) => refusalOf(url),
  };
}

/** Registers `POST /mcp` (and a 405 for its other methods). */
export function registerMcpRoute(app: FastifyInstance, context: ApiContext, mount: McpMount): void {
  const handle = mount(networkOf(context));
  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(name, value);
    reply.hijack();
    await handle(request.raw, reply.raw, request.body);
  });
  const notAllowed = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'POST')
      .send(errorBody('method-not-allowed', 'the MCP endpoint is stateless: send its JSON-RPC messages by POST'));
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}
