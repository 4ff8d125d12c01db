/**
 * `robotskit serve`: the report service (JSON API, storage, fetch workers in this process), until SIGINT or SIGTERM.
 * The server package loads only when it runs (`../service/server.ts`).
 */

import { openSharedCache, type SharedCache } from '../cache/shared-cache.js';
import type { Io } from '../io.js';
import { integerOption } from '../options/numbers.js';
import { asCliError, databaseOf, loadServer, retentionMs, type ServerModule, untilStopped } from '../service/server.js';

/** Options of `serve` as commander hands them over. */
export interface ServeCliOptions {
  readonly port: string;
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
}

/** Runs the service until SIGINT/SIGTERM; returns the exit code. */
export async function runServe(io: Io, options: ServeCliOptions): Promise<number> {
  const port = integerOption('port', options.port, 0, 65535);
  const workers = integerOption('workers', options.workers, 0, 64);
  const server = await loadServer('serve');
  const database = databaseOf(server, options, io);
  const token = options.token ?? io.env.ROBOTSKIT_TOKEN;
  const cache: SharedCache | null = options.cache === undefined ? null : await openSharedCache(options.cache, io);
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
    });
  } catch (error) {
    await cache?.close().catch(() => {});
    throw asCliError(server, error);
  }
  io.stdout.write(
    `robotskit report service on ${service.url} (${service.database.description}${token ? ', token required for changes' : ''})\n` +
      `open ${service.url}/ for the robots.txt tester, ${service.url}/properties for the report\n` +
      `API: ${service.url}/api/properties, OpenAPI: ${service.url}/api/openapi.json; Ctrl-C stops it\n`,
  );
  await untilStopped();
  await service.close();
  await cache?.close();
  return 0;
}
