/**
 * What `serve` and `worker` share: the report service package (robotskit-server, an optional peer dependency) loaded
 * when one of them runs, so the other commands start fast and work without it; its configuration and database errors
 * as one-line CLI errors; the database named by `--db`, `--database-url` or `DATABASE_URL`; the history kept; and
 * running until SIGINT or SIGTERM.
 */

import { CliError, type Io } from '../io.js';
import { integerOption } from '../options/numbers.js';

/** The report service's module. */
export type ServerModule = typeof import('robotskit-server');

/** Where `serve` keeps its SQLite database unless told otherwise. */
const DEFAULT_SQLITE_FILE = 'data/robotskit.sqlite';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The server package; when it is missing, `command` says in one line how to add it. */
export async function loadServer(command: 'serve' | 'worker'): Promise<ServerModule> {
  try {
    return await import('robotskit-server');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes("'robotskit-server'")) {
      throw new CliError(
        `${command} needs the report service, which is not installed: npm install robotskit-server`,
        2,
        { cause: error },
      );
    }
    throw new CliError(`cannot load the report service (robotskit-server): ${message.split('\n')[0]}`, 2, {
      cause: error,
    });
  }
}

/** The server's configuration and database errors as one-line CLI errors; anything else as it is. */
export function asCliError(server: ServerModule, error: unknown): unknown {
  if (
    error instanceof server.ServiceConfigError ||
    error instanceof server.DatabaseConfigError ||
    error instanceof server.DatabaseOpenError
  ) {
    return new CliError(error.message, 2, { cause: error });
  }
  return error;
}

/** The database `--db` or `--database-url` (else `DATABASE_URL`, else the default SQLite file) names. */
export function databaseOf(server: ServerModule, options: { db?: string; databaseUrl?: string }, io: Io) {
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

/** `--retention-days` in milliseconds (at least the 30 days Google's availability rule looks back). */
export function retentionMs(text: string): number {
  return integerOption('retention-days', text, 30, 36500) * DAY_MS;
}

/** Resolves on SIGINT or SIGTERM. */
export function untilStopped(): Promise<string> {
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
