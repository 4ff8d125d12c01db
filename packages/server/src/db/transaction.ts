/**
 * Write transactions that behave the same on both databases.
 *
 * SQLite's default (deferred) transaction takes the write lock only at its first write; if another connection
 * wrote in between, the upgrade fails at once with SQLITE_BUSY instead of waiting. `BEGIN IMMEDIATE` takes the write
 * lock up front, so the busy timeout applies and read-then-write sequences (claim a due file, record a fetch) are
 * serialised. PostgreSQL's ordinary transaction is right there: row locks do the work.
 */

import { type Kysely, sql, type Transaction } from 'kysely';
import type { DialectName } from './config.js';
import type { Schema } from './schema.js';

/** Runs `work` in one write transaction; commits when it resolves, rolls back when it throws. */
export async function writeTransaction<T>(
  db: Kysely<Schema>,
  dialect: DialectName,
  work: (trx: Kysely<Schema> | Transaction<Schema>) => Promise<T>,
): Promise<T> {
  if (dialect === 'postgres') return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let result: T;
    try {
      result = await work(connection);
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
    await sql`commit`.execute(connection);
    return result;
  });
}
