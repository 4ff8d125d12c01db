/**
 * `robotskit worker`: fetch workers only, for the database a `serve` uses (any number of them share one PostgreSQL
 * database), until SIGINT or SIGTERM. The server package loads only when it runs (`../service/server.ts`).
 */

import { CliError, type Io } from '../io.js';
import { integerOption } from '../options/numbers.js';
import { favourMemory } from '../service/memory.js';
import { asCliError, databaseOf, loadServer, retentionMs, type ServerModule, untilStopped } from '../service/server.js';

/** Options of `worker`. */
export interface WorkerCliOptions {
  readonly db?: string;
  readonly databaseUrl?: string;
  readonly workers: string;
  readonly retentionDays: string;
  readonly allowPrivateAddresses?: boolean;
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
  favourMemory();
  const server = await loadServer('worker');
  const database = databaseOf(server, options, io);
  let workers: Awaited<ReturnType<ServerModule['runWorkers']>>;
  try {
    workers = await server.runWorkers({
      database,
      count,
      retentionMs: retentionMs(options.retentionDays),
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
      log: (line) => io.stderr.write(`robotskit: ${line}\n`),
    });
  } catch (error) {
    throw asCliError(server, error);
  }
  // Listening for Ctrl-C and SIGTERM before saying the workers run: a supervisor may stop them as soon as it reads that.
  const stopped = untilStopped();
  io.stdout.write(`robotskit: ${count} fetch worker(s) on ${server.describeDatabase(database)}; Ctrl-C stops them\n`);
  await stopped;
  await workers.close();
  return 0;
}
