/**
 * Migration 0002: indexes on the foreign keys that pruning deletes through. Deleting a fetch or a version makes the
 * database look for the rows that point at it (`ON DELETE SET NULL`); without an index each deleted row scans the
 * whole referring table, so a pruning pass grew with the square of the history (`bench/scale.js`, docs/scale.md).
 */

import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

/** The migration. */
export const foreignKeyIndexes: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex('versions_fetch').on('versions').column('fetch_id').execute();
    await db.schema.createIndex('alerts_version').on('alerts').column('version_id').execute();
    await db.schema.createIndex('alerts_previous_version').on('alerts').column('previous_version_id').execute();
  },
  async down(db: AnyDb) {
    for (const name of ['alerts_previous_version', 'alerts_version', 'versions_fetch']) {
      await db.schema.dropIndex(name).execute();
    }
  },
};
