/**
 * What differs between the two databases, in one object per database: the storage code asks its dialect instead of
 * checking the database's name.
 *
 * Write transactions: SQLite's default (deferred) transaction takes the write lock only at its first write; if another
 * connection wrote in between, the upgrade fails at once with SQLITE_BUSY instead of waiting. `BEGIN IMMEDIATE` takes
 * the write lock up front, so the busy timeout applies and read-then-write sequences (claim a due file, record a
 * fetch) are serialised. PostgreSQL's ordinary transaction is right there: row locks do the work.
 *
 * Claims: on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` in the write transaction, so concurrent claimers pick
 * disjoint rows without waiting on each other; on SQLite the immediate transaction already lets one claimer in at a
 * time, which gives the same guarantee.
 */

import {
  type CreateTableBuilder,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type Transaction,
} from 'kysely';
import type { DialectName } from './config.js';
import type { Schema } from './schema.js';

/** A write transaction's handle. */
type WriteHandle = Kysely<Schema> | Transaction<Schema>;

/** The storage behaviour of one database. */
export interface StorageDialect {
  readonly name: DialectName;
  /** Runs `work` in one write transaction; commits when it resolves, rolls back when it throws. */
  write<T>(db: Kysely<Schema>, work: (trx: WriteHandle) => Promise<T>): Promise<T>;
  /** A claim's select, made to skip rows that concurrent claimers hold (run it inside {@link write}). */
  lockForClaim<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** The column type of raw bytes. */
  readonly bytesType: RawBuilder<unknown>;
  /**
   * Adds an auto-increment primary key `id`: `bigserial` on PostgreSQL (read back as numbers by the connection's type
   * parser), SQLite's `integer primary key autoincrement` (ids never reused, so a deleted file's id never names
   * another).
   */
  // biome-ignore lint/suspicious/noExplicitAny: the builder's table and column types do not matter here.
  withId<T extends CreateTableBuilder<any, any>>(table: T): T;
  /** Whether the migrations' bookkeeping tables are kept per schema (PostgreSQL's schemas; SQLite has none). */
  readonly schemas: boolean;
}

const postgres: StorageDialect = {
  name: 'postgres',
  write: (db, work) => db.transaction().execute(work),
  lockForClaim: (query) => query.forUpdate().skipLocked(),
  bytesType: sql`bytea`,
  withId: (table) => table.addColumn('id', 'bigserial', (c) => c.primaryKey()) as typeof table,
  schemas: true,
};

const sqlite: StorageDialect = {
  name: 'sqlite',
  write: (db, work) =>
    db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(connection);
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
      await sql`commit`.execute(connection);
      return result;
    }),
  lockForClaim: (query) => query,
  bytesType: sql`blob`,
  withId: (table) => table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) as typeof table,
  schemas: false,
};

/** The storage dialect of a database. */
export function storageDialect(name: DialectName): StorageDialect {
  return name === 'postgres' ? postgres : sqlite;
}

/** Runs `work` in one write transaction of `dialect`'s kind. */
export function writeTransaction<T>(
  db: Kysely<Schema>,
  dialect: DialectName,
  work: (trx: WriteHandle) => Promise<T>,
): Promise<T> {
  return storageDialect(dialect).write(db, work);
}
