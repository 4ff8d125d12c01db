/**
 * `robotskit serve` and `robotskit worker`: the report service and its fetch workers. The server package (database
 * drivers, HTTP framework) is imported only here, when one of these commands runs, so `robotskit test` and the other
 * commands start as fast as before and work without it.
 */

import { type BatchCache, openBatchCache } from '../batch/cache.js';
import { CliError, type Io } from '../io.js';

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

/** Options of `worker`. */
export interface WorkerCliOptions {
  readonly db?: string;
  readonly databaseUrl?: string;
  readonly workers: string;
  readonly retentionDays: string;
  readonly allowPrivateAddresses?: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where `serve` keeps its SQLite database unless told otherwise. */
export const DEFAULT_SQLITE_FILE = 'data/robotskit.sqlite';

function integerOption(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(value) || value < min || value > max) {
    throw new CliError(`--${name} must be an integer from ${min} to ${max} (got '${text}')`);
  }
  return value;
}

type ServerModule = typeof import('robotskit-server');

/** The server package, an optional peer dependency: `serve` and `worker` say in one line how to add it. */
async function loadServer(command: 'serve' | 'worker'): Promise<ServerModule> {
  try {
    return await import('robotskit-server');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes("'robotskit-server'")) {
      throw new CliError(
        `${command} needs the report service, which is not installed: npm install robotskit-server`,
        2,
        {
          cause: error,
        },
      );
    }
    throw new CliError(`cannot load the report service (robotskit-server): ${message.split('\n')[0]}`, 2, {
      cause: error,
    });
  }
}

/** Turns the server's configuration and database errors into one-line CLI errors. */
function asCliError(server: ServerModule, error: unknown): unknown {
  if (
    error instanceof server.ServiceConfigError ||
    error instanceof server.DatabaseConfigError ||
    error instanceof server.DatabaseOpenError
  ) {
    return new CliError(error.message, 2, { cause: error });
  }
  return error;
}

/** Resolves on SIGINT or SIGTERM. */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function databaseOf(server: ServerModule, options: { db?: string; databaseUrl?: string }, io: Io) {
  try {
    return server.databaseConfigFrom({
      db: options.db,
      databaseUrl: options.databaseUrl ?? (options.db === undefined ? io.env.DATABASE_URL : undefined),
      defaultFile: DEFAULT_SQLITE_FILE,
    });
  } catch (error) {
    throw asCliError(server, error);
  }
}

/** Runs the service until SIGINT/SIGTERM; returns the exit code. */
export async function runServe(io: Io, options: ServeCliOptions): Promise<number> {
  const port = integerOption('port', options.port, 0, 65535);
  const workers = integerOption('workers', options.workers, 0, 64);
  const server = await loadServer('serve');
  const database = databaseOf(server, options, io);
  const token = options.token ?? io.env.ROBOTSKIT_TOKEN;
  const cache: BatchCache | null = options.cache === undefined ? null : await openBatchCache(options.cache, io);
  let service: Awaited<ReturnType<ServerModule['startService']>>;
  try {
    service = await server.startService({
      host: options.host,
      port,
      database,
      token,
      workers,
      retentionMs: integerOption('retention-days', options.retentionDays, 30, 36500) * DAY_MS,
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

/** Runs fetch workers until SIGINT/SIGTERM; returns the exit code. */
export async function runWorker(io: Io, options: WorkerCliOptions): Promise<number> {
  const count = integerOption('workers', options.workers, 1, 64);
  // A worker fetches for the database `serve` uses; a default of its own would create an empty one and do nothing.
  if (options.db === undefined && options.databaseUrl === undefined && !io.env.DATABASE_URL) {
    throw new CliError(
      'worker needs the database the service uses: --database-url postgres://… (or DATABASE_URL), ' +
        'or --db <sqlite-file> on the machine that runs serve',
    );
  }
  const server = await loadServer('worker');
  const database = databaseOf(server, options, io);
  let workers: Awaited<ReturnType<ServerModule['runWorkers']>>;
  try {
    workers = await server.runWorkers({
      database,
      count,
      retentionMs: integerOption('retention-days', options.retentionDays, 30, 36500) * DAY_MS,
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
      log: (line) => io.stderr.write(`robotskit: ${line}\n`),
    });
  } catch (error) {
    throw asCliError(server, error);
  }
  io.stdout.write(`robotskit: ${count} fetch worker(s) on ${server.describeDatabase(database)}; Ctrl-C stops them\n`);
  await untilStopped();
  await workers.close();
  return 0;
}
