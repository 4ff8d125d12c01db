/**
 * The MCP tools over streamable HTTP, as the report service mounts them at `/mcp` (`robotskit serve`): stateless, a
 * server and a transport per request (the SDK's stateless form: no session to keep, any instance answers), JSON
 * answers rather than event streams, all sharing one crawl client over the service's SSRF-guarded network.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CrawlerProfile } from 'robotskit';
import { type GuardedNetwork, guardedNetwork } from '../crawl/network.js';
import { buildMcpServer, toolContext } from './tools.js';

/** Answers one HTTP request of the MCP endpoint (its body already parsed as JSON). */
type McpHttpHandler = (request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;

/** The handler of `/mcp` over the service's guarded network; each robots.txt fetch bounded by `timeoutMs`. */
export function mcpHttpHandler(
  net: GuardedNetwork,
  timeoutMs: number,
  version: string,
  catalogue?: readonly CrawlerProfile[],
): McpHttpHandler {
  const context = toolContext(guardedNetwork(net), timeoutMs, version, catalogue);
  return async (request, response, body) => {
    const server = buildMcpServer(context);
    // No sessionIdGenerator: stateless.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
}
