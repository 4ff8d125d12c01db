/**
 * Opens the database chosen by configuration and brings its schema up to date.
 */

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { RobotskitServerError } from '../errors.js';
import { type DatabaseConfig, DatabaseConfigError, type DialectName, describeDatabase } from './config.js';
import { isDatabaseTimeout } from './connection-errors.js';
import { migrateToLatest } from './migrations.js';
import type { Schema } from './schema.js';

/** An open database: the Kysely instance, which dialect it speaks, and how to close it. */
export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** For messages: `SQLite ./data/robotskit.sqlite`, `PostgreSQL postgres://…` (password hidden). */
  readonly description: string;
  /**
   * Whether the database answers a trivial query within `ms` (for `GET /api/health`).
   * @throws the query's error, or a {@link DatabaseTimeoutError} when no answer came in time.
   */
  check(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A database that did not answer a query in time (a stalled server, a partition); the API answers it with a 503. */
class DatabaseTimeoutError extends RobotskitServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('database-timeout', message, options);
  }
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

/** How long opening a connection may take, unless the URL's `connect_timeout` (seconds, as libpq reads it) says. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** How long one query of the service may take, unless the URL's `query_timeout` (whole seconds) says. */
const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** The URL's time limits, taken out of it (pg would otherwise read `query_timeout` as milliseconds). */
interface PostgresLimits {
  readonly url: string;
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
}

/** A whole number of seconds from the URL's parameter `name`, in ms; 0 means no limit, as libpq's connect_timeout. */
function secondsParameter(parsed: URL, name: string, fallbackMs: number): number {
  const text = parsed.searchParams.get(name);
  if (text === null) return fallbackMs;
  if (!/^[0-9]{1,6}$/.test(text)) {
    throw new DatabaseConfigError(`--database-url's ${name} must be whole seconds, not '${text}'`);
  }
  parsed.searchParams.delete(name);
  return Number(text) * 1000;
}

/**
 * The URL without `connect_timeout` and `query_timeout`, and those limits in ms. A server that accepts connections and
 * never answers (stalled, or not PostgreSQL) then fails the connection instead of hanging it, and a server that stalls
 * once connected fails each query after the query timeout (its wait in a pooled connection's queue included);
 * waiting for a pooled connection is not bounded by the connect timeout (a busy pool is not a broken database).
 */
function postgresLimitsOf(url: string): PostgresLimits {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS, queryTimeoutMs: DEFAULT_QUERY_TIMEOUT_MS };
  }
  const connectTimeoutMs = secondsParameter(parsed, 'connect_timeout', DEFAULT_CONNECT_TIMEOUT_MS);
  const queryTimeoutMs = secondsParameter(parsed, 'query_timeout', DEFAULT_QUERY_TIMEOUT_MS);
  return { url: parsed.href, connectTimeoutMs, queryTimeoutMs };
}

/** The PostgreSQL connections of the service, and those of migrations (no query limit: a migration may take long). */
interface PostgresOpened {
  readonly db: Kysely<Schema>;
  readonly queryTimeoutMs: number;
  /** A pool of one connection without the query limit, for migrations; destroy it after use. */
  forMigrations(): Kysely<Schema>;
}

async function openPostgres(givenUrl: string, schema: string | undefined, poolSize: number): Promise<PostgresOpened> {
  const { url, connectTimeoutMs, queryTimeoutMs } = postgresLimitsOf(givenUrl);
  if (schema !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new DatabaseConfigError(`PostgreSQL schema name '${schema}' must be a plain identifier`);
    }
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectTimeoutMs,
      ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
    });
    // The connection's error (a timeout while connecting) is the connect call's; the event must not end the process.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query(`create schema if not exists ${quoteIdentifier(schema)}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  const pool = (max: number, queryTimeout: number) => {
    // Each new connection bounded by the connect timeout (the pool's own connectionTimeoutMillis would also bound the
    // wait for a busy pool's next free connection, which is not a failure), each query by the query timeout.
    class TimedClient extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({
          ...config,
          connectionTimeoutMillis: connectTimeoutMs,
          ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
        });
        // A query that timed out may still be sent or held on the way: the connection is cut at once, so the server
        // rolls back whatever it began (an open transaction would otherwise swallow the next requests' writes, and a
        // held write would land after its request was answered 503). pg's end() cuts a connection whose query hangs,
        // and marks the client ending at once, so the pool drops it on release and opens a new one.
        const query = this.query.bind(this) as (...args: unknown[]) => unknown;
        Object.assign(this, {
          query: (...args: unknown[]) => {
            const result = query(...args);
            if (result instanceof Promise) {
              result.catch((error: unknown) => {
                if (isDatabaseTimeout(error)) this.end().catch(() => {});
              });
            }
            return result;
          },
        });
      }
    }
    const p = new pg.Pool({
      connectionString: url,
      Client: TimedClient,
      keepAlive: true,
      max,
      types: pgTypes,
      ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    });
    // A client's error (server restart, failover, pg_terminate_backend, network drop) must not crash the process. pg
    // emits it on the client, idle or checked out; the pool only listens while the client is idle, so every client
    // gets a listener of its own for its whole life. The query in flight fails (the API answers 503, see
    // connection-errors.ts), the pool drops the broken client when it is released, and the next query reconnects.
    p.on('error', () => {});
    p.on('connect', (client) => {
      client.on('error', () => {});
    });
    return new Kysely<Schema>({ dialect: new PostgresDialect({ pool: p }) });
  };
  return { db: pool(poolSize, queryTimeoutMs), queryTimeoutMs, forMigrations: () => pool(1, 0) };
}

/** Resolves when `promise` does within `ms`, else rejects with a {@link DatabaseTimeoutError}. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens the configured database, migrated to the latest schema unless `migrate: false`. */
export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  const description = describeDatabase(config);
  let db: Kysely<Schema>;
  let migrationDb: (() => Kysely<Schema>) | undefined;
  try {
    if (config.dialect === 'sqlite') {
      db = openSqlite(config.file, config.busyTimeoutMs ?? 5000);
    } else {
      const opened = await openPostgres(config.url, config.schema, config.poolSize ?? 10);
      db = opened.db;
      migrationDb = opened.forMigrations;
    }
  } catch (error) {
    if (error instanceof DatabaseOpenError || error instanceof DatabaseConfigError) throw error;
    throw new DatabaseOpenError(`cannot open ${description}: ${reasonOf(error)}`, { cause: error });
  }
  if (options.migrate ?? true) {
    // PostgreSQL's migrations run on a connection of their own, without the query limit of the service's queries.
    const migrating = migrationDb?.() ?? db;
    try {
      await migrateToLatest(migrating, config.dialect);
    } catch (error) {
      await db.destroy().catch(() => {});
      throw new DatabaseOpenError(`cannot use ${description}: ${reasonOf(error)}`, { cause: error });
    } finally {
      if (migrating !== db) await migrating.destroy().catch(() => {});
    }
  }
  return {
    db,
    dialect: config.dialect,
    description,
    check: async (ms) => {
      try {
        await within(sql`select 1`.execute(db), ms);
      } catch (error) {
        // The query's own limit may come first (pg's terse message): either way, said with the database's name.
        if (isDatabaseTimeout(error)) {
          throw new DatabaseTimeoutError(`${description} did not answer in time (stalled or overloaded)`, {
            cause: error,
          });
        }
        throw new DatabaseOpenError(`${description}: ${reasonOf(error)}`, { cause: error });
      }
    },
    close: () => db.destroy(),
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}
