/**
 * Migration 0004: `sitemap_shares`, the share of a site's sitemap URLs each version of its robots.txt blocks for each
 * watched crawler, measured when the version is recorded (one row per version, gone with it).
 */

import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

/** The migration. */
export const sitemapShares: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('sitemap_shares')
      // bigint: it points at a bigserial id on PostgreSQL.
      .addColumn('version_id', 'bigint', (c) => c.primaryKey().references('versions.id').onDelete('cascade'))
      .addColumn('measured_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('checked', 'integer', (c) => c.notNull())
      .addColumn('capped', 'integer', (c) => c.notNull())
      .addColumn('sitemaps_json', 'text', (c) => c.notNull())
      .addColumn('crawlers_json', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('sitemap_shares').execute();
  },
};
