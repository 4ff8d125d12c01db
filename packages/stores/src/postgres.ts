/**
 * A {@link RobotsStore} on PostgreSQL, with fleet-wide fetch leases: one row per origin (its fetch history as the
 * engine's JSON, bodies as `bytea`, when the engine fetches again and when the row may go), one row per held lease
 * with its expiry in the database's clock. A claim (read, lease) and a publish (write, release, `pg_notify`) are one
 * statement each; waiters LISTEN on one connection of their own, and a notification carries the record when it fits
 * (under 8,000 bytes). Every call is bounded in time (see `guard.ts`); calls beyond the pool's size wait for a
 * connection without that counting as a failure. Rows past their expiry and expired leases are pruned at start and
 * then every hour (indexed).
 */

import { createHash } from 'node:crypto';
import pg from 'pg';
import type { LeaseClaim, OriginWrittenListener, RobotsStore, RobotsStoreHealth, StoredOrigin } from 'robotskit/fetch';
import { RobotsStoreError } from './errors.js';
import { CallGuard, messageOf, withDeadline } from './guard.js';
import {
  bytesOf,
  expiresAt,
  fetchFromJson,
  fetchToJson,
  nextFetchAt,
  recordFromJson,
  recordToJson,
} from './records.js';
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
   * How long a query (or opening a connection) may take before it fails; the store then counts as stalled and its
   * calls fail at once (the client goes on without it) until PostgreSQL answers again. Waiting for a free connection
   * of the pool is not counted.
   * @default 5000
   */
  readonly queryTimeoutMs?: number;
  /**
   * Connections of the store's own pool (with `url`), and calls run at once (with `pool`: give your pool's size).
   * The default carries the crawl client's default of 64 fetches in flight: each makes four short calls around a
   * fetch that takes far longer, and more calls wait their turn without failing.
   * @default 10
   */
  readonly poolSize?: number;
  /**
   * How often to delete the rows nobody needs any more (records past their expiry, expired leases); 0 never.
   * @default 3600000 (1 h)
   */
  readonly pruneEveryMs?: number;
}

/** A store on PostgreSQL; {@link PostgresRobotsStore.close} ends its own pool. */
export interface PostgresRobotsStore extends Required<RobotsStore> {
  /** Whether PostgreSQL answers, or since when it has not (see {@link RobotsStoreHealth}). */
  health(): RobotsStoreHealth;
  /** Deletes the records past their expiry and the expired leases now; says how many of each went. */
  prune(): Promise<{ records: number; leases: number }>;
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

/** Rows deleted by one prune statement, so pruning a large backlog never holds many locks at once. */
const PRUNE_BATCH = 5000;

/**
 * Connects to PostgreSQL, creates the store's tables when missing, and returns the store.
 * @throws RobotsStoreError when the database cannot be reached (or does not answer) at start or an option is wrong.
 */
export async function createPostgresRobotsStore(options: PostgresRobotsStoreOptions): Promise<PostgresRobotsStore> {
  const timeout = options.queryTimeoutMs ?? 5000;
  const poolSize = options.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new RobotsStoreError(`poolSize must be a positive integer, not ${JSON.stringify(poolSize)}`);
  }
  const schema = identifier(options.schema ?? 'public', 'schema');
  const tableName = options.table ?? 'robotskit_robots';
  const records = `${schema}.${identifier(tableName, 'table')}`;
  const leases = `${schema}.${identifier(`${tableName}_leases`, 'table')}`;
  const index = (suffix: string) => identifier(`${tableName}_${suffix}`, 'table');
  if (options.pool === undefined && options.url === undefined) throw new RobotsStoreError('give url or pool');
  const ownPool =
    options.pool === undefined
      ? new pg.Pool({
          connectionString: options.url,
          // A little longer than the store's own timeout, which decides (and marks the store stalled); pg's then
          // drops the connection whose answer never came.
          connectionTimeoutMillis: timeout + 1000,
          query_timeout: timeout + 1000,
          keepAlive: true,
          max: poolSize,
        })
      : null;
  // An idle connection that breaks (the server restarted) must not end the process; the next query reconnects.
  ownPool?.on('error', () => {});
  const pool: PostgresPool = ownPool ?? options.pool!;
  const where = options.url === undefined ? 'the given pool' : redactUrl(options.url);
  const create = async () => {
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
      // Tables of an older version gain the expiry (their rows expire 31 days after their last write).
      await client.query(
        `ALTER TABLE ${records} ADD COLUMN IF NOT EXISTS expires_at timestamptz NOT NULL DEFAULT now() + interval '31 days'`,
      );
      await client.query(`CREATE INDEX IF NOT EXISTS ${index('expires_at')} ON ${records} (expires_at)`);
      await client.query(`CREATE INDEX IF NOT EXISTS ${index('next_fetch_at')} ON ${records} (next_fetch_at)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${leases} (
        origin text PRIMARY KEY,
        holder text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
      await client.query(`CREATE INDEX IF NOT EXISTS ${index('leases_expires_at')} ON ${leases} (expires_at)`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  try {
    // Connecting and each statement have their own timeouts; this bounds the whole (a pool of the caller's may have none).
    await withDeadline(create(), 4 * timeout, () => new Error(`no answer within ${4 * timeout} ms`));
  } catch (error) {
    await withDeadline(ownPool?.end() ?? Promise.resolve(), timeout, () => new Error('end timed out')).catch(() => {});
    throw new RobotsStoreError(`cannot use PostgreSQL at ${where}: ${messageOf(error)}`, { cause: error });
  }

  const guard = new CallGuard({
    timeoutMs: timeout,
    what: `PostgreSQL at ${where}`,
    probe: () => pool.query('SELECT 1'),
    slots: poolSize,
  });
  const pruneOnce = async (sql: string) => {
    let total = 0;
    for (;;) {
      const { rowCount } = await guard.run(() => pool.query(sql, [PRUNE_BATCH]));
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < PRUNE_BATCH) return total;
    }
  };
  const prune = async () => ({
    records: await pruneOnce(
      `DELETE FROM ${records} WHERE origin IN (SELECT origin FROM ${records} WHERE expires_at < now()
         ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    ),
    leases: await pruneOnce(
      `DELETE FROM ${leases} WHERE origin IN (SELECT origin FROM ${leases} WHERE expires_at < clock_timestamp()
         ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    ),
  });
  const pruneEvery = options.pruneEveryMs ?? 3_600_000;
  let pruneTimer: ReturnType<typeof setTimeout> | null = null;
  const schedulePrune = (ms: number) => {
    if (pruneEvery === 0) return;
    pruneTimer = setTimeout(() => {
      // A failed prune is only a later one's work.
      prune()
        .catch(() => {})
        .finally(() => {
          if (pruneTimer !== null) schedulePrune(pruneEvery);
        });
    }, ms);
    pruneTimer.unref?.();
  };
  schedulePrune(1000);

  const channel = `robotskit_${createHash('sha1').update(records).digest('hex').slice(0, 20)}`;
  const wakes = notifications(channel, options.url, pool);
  const recordOf = (origin: string, row: { history: unknown[]; bodies: (Buffer | null)[] }): StoredOrigin => {
    const history = row.history.map((entry, i) => {
      const body = row.bodies[i] ?? null;
      return fetchFromJson(entry, body === null ? null : bytesOf(body));
    });
    return { origin, history };
  };
  const store: Omit<Required<RobotsStore>, 'subscribe'> = {
    async get(origin) {
      const { rows } = await pool.query(`SELECT history, bodies FROM ${records} WHERE origin = $1`, [origin]);
      const row = rows[0] as { history: unknown[]; bodies: (Buffer | null)[] } | undefined;
      return row === undefined ? undefined : recordOf(origin, row);
    },
    async set(origin, record) {
      const history = JSON.stringify(record.history.map(fetchToJson));
      const bodies = record.history.map((r) =>
        r.body === null ? null : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength),
      );
      await pool.query(
        `INSERT INTO ${records} (origin, history, bodies, next_fetch_at, updated_at, expires_at)
         VALUES ($1, $2::jsonb, $3::bytea[], to_timestamp($4 / 1000.0), now(), to_timestamp($5 / 1000.0))
         ON CONFLICT (origin) DO UPDATE SET history = excluded.history, bodies = excluded.bodies,
           next_fetch_at = excluded.next_fetch_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
        [
          origin,
          history,
          bodies,
          record.nextFetchAt ?? nextFetchAt(record.history),
          expiresAt(record.history, Date.now()),
        ],
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
      await pool.query(
        `WITH gone AS (DELETE FROM ${leases} WHERE origin = $1 AND holder = $2 RETURNING origin)
         SELECT pg_notify($3, origin || chr(10)) FROM gone`,
        [origin, holder, channel],
      );
    },
    async claimLease(origin, holder, ttlMs, now): Promise<LeaseClaim> {
      // The data-modifying part sees the rows as they were before it: the lease's time left is the other holder's.
      const { rows } = await pool.query(
        `WITH rec AS (
           SELECT history, bodies, extract(epoch FROM next_fetch_at)::float8 * 1000 AS due
           FROM ${records} WHERE origin = $1
         ), fresh AS (
           SELECT EXISTS (SELECT 1 FROM rec WHERE due > $4::float8) AS yes
         ), taken AS (
           INSERT INTO ${leases} AS l (origin, holder, expires_at)
           SELECT $1, $2, clock_timestamp() + $3::float8 * interval '1 millisecond' WHERE NOT (SELECT yes FROM fresh)
           ON CONFLICT (origin) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE l.expires_at <= clock_timestamp() OR l.holder = excluded.holder
           RETURNING 1
         )
         SELECT (SELECT yes FROM fresh) AS fresh, EXISTS (SELECT 1 FROM taken) AS held,
           (SELECT extract(epoch FROM expires_at - clock_timestamp())::float8 * 1000 FROM ${leases}
            WHERE origin = $1) AS left_ms,
           (SELECT history FROM rec) AS history, (SELECT bodies FROM rec) AS bodies`,
        [origin, holder, ttlMs, now],
      );
      const row = rows[0] as {
        fresh: boolean;
        held: boolean;
        left_ms: number | null;
        history: unknown[] | null;
        bodies: (Buffer | null)[] | null;
      };
      const record =
        row.history === null || row.bodies === null
          ? undefined
          : recordOf(origin, { history: row.history, bodies: row.bodies });
      if (row.fresh) return { lease: 'fresh', record, leaseLeftMs: 0 };
      if (row.held) {
        // The statement read the record in its snapshot, but took the lease against the newest rows: a holder that
        // published (record written, lease deleted) while this statement waited on its lease row left a lease to take
        // and a record this snapshot cannot see. A second statement sees it; when it is fresh, the lease goes back.
        const again = await pool.query(
          `WITH rec AS (
             SELECT history, bodies FROM ${records}
             WHERE origin = $1 AND extract(epoch FROM next_fetch_at)::float8 * 1000 > $3::float8
           ), gone AS (
             DELETE FROM ${leases} WHERE origin = $1 AND holder = $2 AND EXISTS (SELECT 1 FROM rec)
           )
           SELECT history, bodies FROM rec`,
          [origin, holder, now],
        );
        const published = again.rows[0] as { history: unknown[]; bodies: (Buffer | null)[] } | undefined;
        if (published !== undefined) return { lease: 'fresh', record: recordOf(origin, published), leaseLeftMs: 0 };
        return { lease: 'held', record, leaseLeftMs: 0 };
      }
      return { lease: 'elsewhere', record, leaseLeftMs: Math.max(1, Math.ceil(row.left_ms ?? 1)) };
    },
    async publish(origin, record, holder) {
      const history = JSON.stringify(record.history.map(fetchToJson));
      const bodies = record.history.map((r) =>
        r.body === null ? null : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength),
      );
      const text = `${origin}\n${recordToJson(record)}`;
      // A notification holds less than 8,000 bytes: a larger record is read by the waiters.
      const message = Buffer.byteLength(text) < 7900 ? text : `${origin}\n`;
      await pool.query(
        `WITH written AS (
           INSERT INTO ${records} (origin, history, bodies, next_fetch_at, updated_at, expires_at)
           VALUES ($1, $2::jsonb, $3::bytea[], to_timestamp($4 / 1000.0), now(), to_timestamp($8 / 1000.0))
           ON CONFLICT (origin) DO UPDATE SET history = excluded.history, bodies = excluded.bodies,
             next_fetch_at = excluded.next_fetch_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at
         ), released AS (
           DELETE FROM ${leases} WHERE origin = $1 AND holder = $5
         )
         SELECT pg_notify($6, $7)`,
        [
          origin,
          history,
          bodies,
          record.nextFetchAt ?? nextFetchAt(record.history),
          holder,
          channel,
          message,
          expiresAt(record.history, Date.now()),
        ],
      );
    },
  };

  return {
    health: () => guard.health(),
    prune,
    get: (origin) => guard.run(async () => store.get(origin)),
    set: (origin, record) => guard.run(async () => store.set(origin, record)),
    acquireLease: (origin, holder, ttlMs) => guard.run(async () => store.acquireLease(origin, holder, ttlMs)),
    releaseLease: (origin, holder) => guard.run(async () => store.releaseLease(origin, holder)),
    claimLease: (origin, holder, ttlMs, now, waitMs) =>
      guard.run(async () => store.claimLease(origin, holder, ttlMs, now, waitMs)),
    publish: (origin, record, holder) => guard.run(async () => store.publish(origin, record, holder)),
    // The listening connection is opened again when it breaks; subscribing is bounded like every call (a frozen
    // PostgreSQL accepts the connection and never answers), and the client then waits without wake-ups.
    subscribe: (listener) => guard.run(() => wakes.add(listener)),
    async close() {
      guard.close();
      await withDeadline(wakes.close(), timeout, () => new Error('close timed out')).catch(() => {});
      if (pruneTimer !== null) clearTimeout(pruneTimer);
      pruneTimer = null;
      // Ending waits for the connections' queries, which a stalled server never answers (each has its own timeout).
      await withDeadline(ownPool?.end() ?? Promise.resolve(), 2 * timeout, () => new Error('end timed out')).catch(
        () => {},
      );
    },
  };
}

/** What LISTEN needs of a connection: a `pg.Client` (or a `pg.PoolClient`) is one. */
interface Listening {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
}

/**
 * The store's wake-ups: one connection of its own that LISTENs (opened for the first subscriber from the URL, or
 * taken from the given pool and kept), each notification handed to every listener. When it breaks, it is opened again
 * a second later; notifications lost meanwhile cost the waiters their slow poll, never an answer.
 */
function notifications(channel: string, url: string | undefined, pool: PostgresPool) {
  const listeners = new Set<OriginWrittenListener>();
  let connection: Promise<{ client: Listening; end(): Promise<void> }> | null = null;
  let closed = false;
  const onNotification = (message: { payload?: string }) => {
    const payload = message.payload ?? '';
    const cut = payload.indexOf('\n');
    if (cut < 0) return;
    let record: StoredOrigin | undefined;
    try {
      record = cut + 1 < payload.length ? recordFromJson(payload.slice(cut + 1)) : undefined;
    } catch {
      record = undefined;
    }
    for (const listener of listeners) listener(payload.slice(0, cut), record);
  };
  const open = async () => {
    let client: Listening;
    let end: () => Promise<void>;
    if (url !== undefined) {
      const own = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      await own.connect();
      client = own as unknown as Listening;
      end = () => own.end();
    } else {
      const taken = await pool.connect();
      if (typeof (taken as Partial<Listening>).on !== 'function') {
        taken.release();
        throw new Error('the given pool has no connection that can LISTEN');
      }
      client = taken as unknown as Listening;
      end = async () => taken.release();
    }
    const broken = () => {
      connection = null;
      if (!closed && listeners.size > 0) setTimeout(() => void reopen(), 1000).unref();
    };
    client.on('error', broken);
    client.on('end', broken);
    client.on('notification', onNotification);
    await client.query(`LISTEN "${channel}"`);
    return { client, end };
  };
  const reopen = async () => {
    if (closed || connection !== null) return;
    connection = open();
    await connection.catch(() => {
      connection = null;
    });
  };
  return {
    async add(listener: OriginWrittenListener): Promise<() => void> {
      listeners.add(listener);
      connection ??= open();
      try {
        await connection;
      } catch (error) {
        listeners.delete(listener);
        connection = null;
        throw error;
      }
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      const pending = connection;
      connection = null;
      const c = await pending?.catch(() => null);
      await c?.end().catch(() => {});
    },
  };
}
