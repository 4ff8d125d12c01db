/**
 * `robotskit mcp [--timeout <s>]`: the MCP server (`../mcp/tools.ts`) over standard input and output, for an agent
 * that starts it as a process; it runs until its input ends (the client closes it) or SIGINT/SIGTERM. The SDK loads
 * only here and in `serve` (which mounts the same tools at `/mcp`), so the other commands never pay for it.
 * Standard output carries the protocol alone; notes go to standard error.
 */

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { cliNetwork } from '../crawl/network.js';
import type { Io } from '../io.js';
import { buildMcpServer, callsSettled, toolContext } from '../mcp/tools.js';
import { userCatalogue } from '../options/catalogue.js';
import { parseTimeout } from '../options/numbers.js';

/** Options of `mcp`, as commander parsed them. */
export interface McpOptions {
  /** Seconds, as typed. */
  readonly timeout: string;
}

/** Serves MCP over the process's standard streams until the input ends; returns the exit code. */
export async function runMcp(io: Io, options: McpOptions, version: string): Promise<number> {
  const timeoutMs = parseTimeout(options.timeout);
  // Crawler names are read in the catalogue with the list `crawlers update` merged, when there is one.
  const context = toolContext(cliNetwork(version), timeoutMs, version, (await userCatalogue(io)).crawlers);
  const server = buildMcpServer(context);
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  const ended = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    transport.onclose = stop;
  });
  await server.connect(transport);
  // A line that is not a JSON-RPC message is said on standard error, in one line, and the server reads on.
  server.server.onerror = (error) => io.stderr.write(`robotskit: mcp: ${error.message.split('\n')[0]}\n`);
  if (io.stderr.isTTY === true)
    io.stderr.write('robotskit: MCP server on standard input and output; Ctrl-C stops it\n');
  await ended;
  // Input that ends right after its requests (`… | robotskit mcp`) still gets their answers.
  await callsSettled(context);
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  return 0;
}
