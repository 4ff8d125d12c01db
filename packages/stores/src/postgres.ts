/**
 * A {@link RobotsStore} on PostgreSQL, with fleet-wide fetch leases: one row per origin (its fetch history as the
 * engine's JSON, bodies as `bytea`, and when the engine fetches again), one row per held lease with its expiry in the
 * database's clock.
 */

import pg from 'pg';
import type { RobotsStore, StoredOrigin } from 'robotskit/fetch';
import { RobotsStoreError } from './errors.js';
import { bytesOf, fetchFromJson, fetchToJson, nextFetchAt } from './records.js';
import { redactUrl } from './redis.js';

/**
 * The part of a connection pool the store uses: a `pg.Pool` is one. Declared here rather than taken from `@types/pg`,
 * so a TypeScript user who passes a URL needs no types package for PostgreSQL (pg ships no types of its own).
 */
export interface PostgresPool {
  /** Runs one statement on any connection of the pool. */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  /** Takes a connection for several statements (a transaction); it goes back with `release`. */
  connect(): Promise<PostgresPoolClient>;
}

/** A connection taken from a {@link PostgresPool}: a `pg.PoolClient` is one. */
export interface PostgresPoolClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
  release(): void;
}

/** Options of {@link createPostgresRobotsStore}. */
export interface PostgresRobotsStoreOptions {
  /** `postgres://user@host:port/database`; or give `pool`. */
  readonly url?: string;
  /** A pool of your own, such as a `pg.Pool` (the store does not end it on `close`). */
  readonly pool?: PostgresPool;
  /**
   * The schema of the store's tables (created when missing).
   * @default 'public'
   */
  readonly schema?: string;
  /**
   * The name of the records table; the leases table is this name with `_leases`.
   * @default 'robotskit_robots'
   */
  readonly table?: string;
  /**
   * How long a query (or getting a connection) may take before it fails (the client then goes on without the store).
   * @default 5000
   */
  readonly queryTimeoutMs?: number;
}

/** A store on PostgreSQL; {@link PostgresRobotsStore.close} ends its own pool. */
export interface PostgresRobotsStore extends Required<RobotsStore> {
  close(): Promise<void>;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,54}$/;

function identifier(value: string, what: string): string {
  if (!IDENTIFIER.test(value)) {
    throw new RobotsStoreError(
      `${what} must be letters, digits and underscores (at most 55), not ${JSON.stringify(value)}`,
    );
  }
  return `"${value}"`;
}

/**
 * Connects to PostgreSQL, creates the store's tables when missing, and returns the store.
 * @throws RobotsStoreError when the database cannot be reached at start or an option is wrong.
 */
export async function createPostgresRobotsStore(options: PostgresRobotsStoreOptions): Promise<PostgresRobotsStore> {
  const timeout = options.queryTimeoutMs ?? 5000;
  const schema = identifier(options.schema ?? 'public', 'schema');
  const tableName = options.table ?? 'robotskit_robots';
  const records = `${schema}.${identifier(tableName, 'table')}`;
  const leases = `${schema}.${identifier(`${tableName}_leases`, 'table')}`;
  if (options.pool === undefined && options.url === undefined) throw new RobotsStoreError('give url or pool');
  const ownPool =
    options.pool === undefined
      ? new pg.Pool({
          connectionString: options.url,
          connectionTimeoutMillis: timeout,
          query_timeout: timeout,
          max: 4,
        })
      : null;
  // An idle connection that breaks (the server restarted) must not end the process; the next query reconnects.
  ownPool?.on('error', () => {});
  const pool: PostgresPool = ownPool ?? options.pool!;
  const where = options.url === undefined ? 'the given pool' : redactUrl(options.url);
  try {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Several processes may start at once: one creates the tables, the others wait for it.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('robotskit-stores:' || $1))", [records]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${records} (
        origin text PRIMARY KEY,
        history jsonb NOT NULL,
        bodies bytea[] NOT NULL,
        next_fetch_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${leases} (
        origin text PRIMARY KEY,
        holder text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  } catch (error) {
    await ownPool?.end().catch(() => {});
    const message = error instanceof Error ? error.message || error.name : String(error);
    throw new RobotsStoreError(`cannot use PostgreSQL at ${where}: ${message}`, { cause: error });
  }

  return {
    async get(origin) {
      const { rows } = await pool.query(`SELECT history, bodies FROM ${records} WHERE origin = $1`, [origin]);
      const row = rows[0] as { history: unknown[]; bodies: (Buffer | null)[] } | undefined;
      if (row === undefined) return undefined;
      const history = row.history.map((entry, i) => {
        const body = row.bodies[i] ?? null;
        return fetchFromJson(entry, body === null ? null : bytesOf(body));
      });
      return { origin, history } satisfies StoredOrigin;
    },
    async set(origin, record) {
      const history = JSON.stringify(record.history.map(fetchToJson));
      const bodies = record.history.map((r) =>
        r.body === null ? null : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength),
      );
      await pool.query(
        `INSERT INTO ${records} (origin, history, bodies, next_fetch_at, updated_at)
         VALUES ($1, $2::jsonb, $3::bytea[], to_timestamp($4 / 1000.0), now())
         ON CONFLICT (origin) DO UPDATE SET history = excluded.history, bodies = excluded.bodies,
           next_fetch_at = excluded.next_fetch_at, updated_at = excluded.updated_at`,
        [origin, history, bodies, nextFetchAt(record.history)],
      );
    },
    async acquireLease(origin, holder, ttlMs) {
      const { rowCount } = await pool.query(
        `INSERT INTO ${leases} AS l (origin, holder, expires_at)
         VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (origin) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE l.expires_at <= clock_timestamp() OR l.holder = excluded.holder`,
        [origin, holder, ttlMs],
      );
      return rowCount === 1;
    },
    async releaseLease(origin, holder) {
      await pool.query(`DELETE FROM ${leases} WHERE origin = $1 AND holder = $2`, [origin, holder]);
    },
    async close() {
      await ownPool?.end();
    },
  };
}
