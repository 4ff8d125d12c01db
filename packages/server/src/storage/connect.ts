/**
 * Opens the database chosen by configuration and brings its schema up to date.
 */

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { RobotskitServerError } from '../errors.js';
import { type DatabaseConfig, DatabaseConfigError, type DialectName, describeDatabase } from './config.js';
import { migrateToLatest } from './migrations.js';
import type { Schema } from './schema.js';

/** An open database: the Kysely instance, which dialect it speaks, and how to close it. */
export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** For messages: `SQLite ./data/robotskit.sqlite`, `PostgreSQL postgres://…` (password hidden). */
  readonly description: string;
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface OpenOptions {
  /**
   * Apply pending migrations before returning.
   * @default true
   */
  readonly migrate?: boolean;
}

/** A database that cannot be opened or reached; the message says which and why, without the password. */
export class DatabaseOpenError extends RobotskitServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('database-unavailable', message, options);
  }
}

const INT8_OID = 20;

/** PostgreSQL returns int8 as strings (it may exceed 2^53); our int8 values are ids and epoch ms, well below that. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Creates the folders of `dir` that are missing, one level at a time from the nearest existing one. Node 20's
 * `mkdirSync(…, { recursive: true })` never returns when the parent exists but refuses the child with ENOENT (as
 * /proc does), so it is not used.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      // Another process (a second worker starting) may have created it meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function openSqlite(file: string, busyTimeoutMs: number): Kysely<Schema> {
  if (file !== ':memory:') {
    try {
      makeDirectory(dirname(file));
    } catch (error) {
      throw new DatabaseOpenError(
        `cannot create the folder of SQLite database '${file}': ${error instanceof Error ? error.message : error}`,
        { cause: error },
      );
    }
  }
  let database: BetterSqlite3.Database;
  try {
    database = new BetterSqlite3(file, { timeout: busyTimeoutMs });
  } catch (error) {
    throw new DatabaseOpenError(
      `cannot open SQLite database '${file}': ${error instanceof Error ? error.message : error}`,
      {
        cause: error,
      },
    );
  }
  // WAL: readers never block the writer; NORMAL sync is durable across a process crash (kill -9), which is what a
  // worker must survive; foreign keys are off by default in SQLite.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  database.pragma('foreign_keys = ON');
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database }) });
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function openPostgres(url: string, schema: string | undefined, poolSize: number): Promise<Kysely<Schema>> {
  if (schema !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new DatabaseConfigError(`PostgreSQL schema name '${schema}' must be a plain identifier`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query(`create schema if not exists ${quoteIdentifier(schema)}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: pgTypes,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // A client's error (server restart, failover, pg_terminate_backend, network drop) must not crash the process. pg
  // emits it on the client, idle or checked out; the pool only listens while the client is idle, so every client
  // gets a listener of its own for its whole life. The query in flight fails (the API answers 503, see
  // connection-errors.ts), the pool drops the broken client when it is released, and the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}

/** Opens the configured database, migrated to the latest schema unless `migrate: false`. */
export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  const description = describeDatabase(config);
  let db: Kysely<Schema>;
  try {
    db =
      config.dialect === 'sqlite'
        ? openSqlite(config.file, config.busyTimeoutMs ?? 5000)
        : await openPostgres(config.url, config.schema, config.poolSize ?? 10);
  } catch (error) {
    if (error instanceof DatabaseOpenError || error instanceof DatabaseConfigError) throw error;
    throw new DatabaseOpenError(`cannot open ${description}: ${reasonOf(error)}`, { cause: error });
  }
  if (options.migrate ?? true) {
    try {
      await migrateToLatest(db, config.dialect);
    } catch (error) {
      await db.destroy().catch(() => {});
      throw new DatabaseOpenError(`cannot use ${description}: ${reasonOf(error)}`, { cause: error });
    }
  }
  return { db, dialect: config.dialect, description, close: () => db.destroy() };
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}
