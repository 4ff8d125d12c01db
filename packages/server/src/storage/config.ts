/**
 * Which database to use. SQLite in one file is the default (nothing to set up); PostgreSQL is for several workers on
 * several machines sharing one database.
 */

import { RobotskitServerError } from '../errors.js';

/** The two supported databases. */
export type DialectName = 'sqlite' | 'postgres';

/** Where the data lives. */
export type DatabaseConfig =
  | {
      readonly dialect: 'sqlite';
      /** Path of the database file; its folder is created when missing. */
      readonly file: string;
      /**
       * How long a writer waits for another connection's write lock before giving up.
       * @default 5000
       */
      readonly busyTimeoutMs?: number;
    }
  | {
      readonly dialect: 'postgres';
      /** `postgres://user:password@host:port/database`. */
      readonly url: string;
      /**
       * Schema to keep the tables in (created when missing); the connection's `search_path` is set to it.
       * @default the server's default search path (normally `public`)
       */
      readonly schema?: string;
      /**
       * Connections in the pool.
       * @default 10
       */
      readonly poolSize?: number;
    };

/** A configuration mistake the user can fix; the message says how. */
export class DatabaseConfigError extends RobotskitServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('invalid-database-config', message, options);
  }
}

/**
 * Reads the command-line choice: `--db <file>` or `--database-url postgres://…` (not both). Neither: SQLite at
 * `defaultFile`.
 */
export function databaseConfigFrom(options: {
  db?: string | undefined;
  databaseUrl?: string | undefined;
  defaultFile: string;
}): DatabaseConfig {
  if (options.db !== undefined && options.databaseUrl !== undefined) {
    throw new DatabaseConfigError('give either --db <sqlite-file> or --database-url postgres://…, not both');
  }
  if (options.databaseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.databaseUrl);
    } catch {
      throw new DatabaseConfigError(`--database-url is not a URL: '${options.databaseUrl}'`);
    }
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
      throw new DatabaseConfigError(
        `--database-url must start with postgres:// (got '${url.protocol}'); use --db <file> for SQLite`,
      );
    }
    return { dialect: 'postgres', url: options.databaseUrl };
  }
  const file = options.db ?? options.defaultFile;
  if (file.trim() === '') throw new DatabaseConfigError('--db needs a file name');
  return { dialect: 'sqlite', file };
}

/** The URL without its password, for log lines and messages. */
export function describeDatabase(config: DatabaseConfig): string {
  if (config.dialect === 'sqlite') return `SQLite ${config.file}`;
  try {
    const url = new URL(config.url);
    if (url.password) url.password = '***';
    return `PostgreSQL ${url.toString()}${config.schema ? ` (schema ${config.schema})` : ''}`;
  } catch {
    return 'PostgreSQL';
  }
}
