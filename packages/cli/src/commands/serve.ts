/**
 * `robotskit serve`: the report service (JSON API, storage, fetch workers in this process), until SIGINT or SIGTERM.
 * It listens on `--port`, else on the `PORT` environment variable (as hosting platforms and `PORT=… npm start` set it),
 * else on 8787.
 * The server package loads only when it runs (`../service/server.ts`).
 */

import type { RangesByCrawler } from 'robotskit/logs';
import { openSharedCache, type SharedCache } from '../cache/shared-cache.js';
import { CliError, type Io } from '../io.js';
import { dnsResolver } from '../logs/dns.js';
import { loadRanges } from '../logs/load-ranges.js';
import { userCacheDir } from '../logs/range-cache.js';
import { userCatalogue } from '../options/catalogue.js';
import { integerOption } from '../options/numbers.js';
import { favourMemory } from '../service/memory.js';
import { asCliError, databaseOf, loadServer, retentionMs, type ServerModule, untilStopped } from '../service/server.js';

/** Options of `serve` as commander hands them over. */
export interface ServeCliOptions {
  /** `--port`, else the `PORT` environment variable, else 8787. */
  readonly port?: string;
  readonly host: string;
  readonly db?: string;
  readonly databaseUrl?: string;
  readonly token?: string;
  readonly workers: string;
  readonly retentionDays: string;
  readonly allowPrivateAddresses?: boolean;
  /** `--allowed-hosts a.example,*.b.example` */
  readonly allowedHosts?: string;
  /** A shared robots.txt cache for POST /api/decide: redis://… or postgres://… (robotskit-stores). */
  readonly cache?: string;
  /** Crawler activity: the DNS server uploaded logs' crawlers are verified with (`host:port`). */
  readonly logDnsServer?: string;
  /** Crawler activity: published range files, as `logs --ranges` reads them. */
  readonly logRanges?: readonly string[];
}

/** How long an MCP tool of the service waits for one robots.txt or page (as the commands' default `--timeout`). */
const MCP_TIMEOUT_MS = 10_000;

/** The port without `--port` or `PORT`. */
const DEFAULT_PORT = '8787';

/** `PORT`, as platforms that start services set it. @throws CliError naming the variable. */
function portFromEnvironment(text: string): number {
  try {
    return integerOption('port', text, 0, 65535);
  } catch {
    throw new CliError(`the PORT environment variable must be an integer from 0 to 65535 (got '${text}')`);
  }
}

/** The range messages name `--ranges`, as `logs` takes them; here the option is `--log-ranges`. */
function asServeOption(message: string): string {
  return message.replaceAll('--ranges', '--log-ranges');
}

/**
 * `--log-ranges`: read once now (a file that cannot be read or a URL that cannot be fetched is a usage error), then
 * again for each uploaded log, so that a service running for weeks follows the files as their publishers change them:
 * a URL's copy in the user cache is used while it is fresh and revalidated when not (`range-cache.ts`); a file is
 * read again. When a new reading fails, the last good one is used and standard error says why. Null for no ranges.
 */
async function rangeSource(io: Io, args: readonly string[]): Promise<(() => Promise<RangesByCrawler>) | null> {
  if (args.length === 0) return null;
  const warn = (message: string) => void io.stderr.write(`robotskit: ${asServeOption(message)}\n`);
  const read = () => loadRanges(args, { dir: userCacheDir(io.env), offline: false, timeoutMs: 10_000, warn });
  let last = await read().catch((error: unknown) => {
    throw error instanceof CliError ? new CliError(asServeOption(error.message), 2) : error;
  });
  return async () => {
    try {
      last = await read();
    } catch (error) {
      // `warn` says the option as `serve` takes it.
      warn(`${error instanceof Error ? error.message : String(error)}; the ranges read before are used`);
    }
    return last;
  };
}

/** Runs the service until SIGINT/SIGTERM; returns the exit code. */
export async function runServe(io: Io, options: ServeCliOptions, version: string): Promise<number> {
  const port =
    options.port !== undefined || io.env.PORT === undefined || io.env.PORT === ''
      ? integerOption('port', options.port ?? DEFAULT_PORT, 0, 65535)
      : portFromEnvironment(io.env.PORT);
  const workers = integerOption('workers', options.workers, 0, 64);
  // Said now, as a usage error, rather than by the service when it first verifies a crawler.
  if (options.logDnsServer !== undefined) dnsResolver(options.logDnsServer, 2000, '--log-dns-server');
  const logRanges = await rangeSource(io, options.logRanges ?? []);
  favourMemory();
  const server = await loadServer('serve');
  const database = databaseOf(server, options, io);
  const token = options.token ?? io.env.ROBOTSKIT_TOKEN;
  const cache: SharedCache | null = options.cache === undefined ? null : await openSharedCache(options.cache, io);
  // The MCP tools at /mcp, over the service's guarded network (the SDK loads here, not for the other commands).
  const { mcpHttpHandler } = await import('../mcp/http.js');
  const { crawlers: catalogue } = await userCatalogue(io);
  let service: Awaited<ReturnType<ServerModule['startService']>>;
  try {
    service = await server.startService({
      host: options.host,
      port,
      database,
      token,
      workers,
      retentionMs: retentionMs(options.retentionDays),
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
      allowedHosts: (options.allowedHosts ?? io.env.ROBOTSKIT_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h !== ''),
      log: (line) => io.stderr.write(`robotskit: ${line}\n`),
      ...(cache === null ? {} : { robotsStore: cache.store }),
      mcp: (network) => mcpHttpHandler(network, MCP_TIMEOUT_MS, version, catalogue),
      ...(options.logDnsServer === undefined ? {} : { logDnsServers: [options.logDnsServer] }),
      ...(logRanges === null ? {} : { logRanges }),
    });
  } catch (error) {
    await cache?.close().catch(() => {});
    throw asCliError(server, error);
  }
  // Listening for Ctrl-C and SIGTERM before saying the service is up: a supervisor may stop it as soon as it reads that.
  const stopped = untilStopped();
  io.stdout.write(
    `robotskit report service on ${service.url} (${service.database.description}${token ? ', token required for changes' : ''})\n` +
      `open ${service.url}/ for the robots.txt tester, ${service.url}/properties for the report\n` +
      `API: ${service.url}/api/properties, OpenAPI: ${service.url}/api/openapi.json, MCP: ${service.url}/mcp; Ctrl-C stops it\n`,
  );
  await stopped;
  await service.close();
  await cache?.close();
  return 0;
}
