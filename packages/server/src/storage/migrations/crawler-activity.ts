/**
 * Migration 0004: a property's crawler activity. Each uploaded access log is one `log_uploads` row (its counts, the
 * file whose history judged it, and a capped list of its violations as JSON); each crawler it names is one
 * `log_crawlers` row (requests, disallowed, verification counts, and per version its requests and violations with the
 * deciding lines, as JSON). Deleted with their property.
 */

import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../config.js';
import { storageDialect } from '../storage-dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

const ref = 'bigint';

/** The migration for `dialect`. */
export function crawlerActivity(dialect: DialectName): Migration {
  const id = storageDialect(dialect).withId;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('log_uploads')
        .$call(id)
        .addColumn('property_id', ref, (c) => c.notNull().references('properties.id').onDelete('cascade'))
        .addColumn('file_id', ref, (c) => c.references('robots_files.id').onDelete('set null'))
        .addColumn('file_url', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('lines', 'bigint', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('other_requests', 'bigint', (c) => c.notNull())
        .addColumn('malformed', 'bigint', (c) => c.notNull())
        .addColumn('violations', 'bigint', (c) => c.notNull())
        .addColumn('first_request_at', 'bigint')
        .addColumn('last_request_at', 'bigint')
        .addColumn('versions_json', 'text', (c) => c.notNull())
        .addColumn('malformed_json', 'text', (c) => c.notNull())
        .addColumn('violations_json', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('log_uploads_property')
        .on('log_uploads')
        .columns(['property_id', 'created_at'])
        .execute();
      await db.schema.createIndex('log_uploads_file').on('log_uploads').column('file_id').execute();
      await db.schema
        .createTable('log_crawlers')
        .$call(id)
        .addColumn('upload_id', ref, (c) => c.notNull().references('log_uploads.id').onDelete('cascade'))
        .addColumn('crawler', 'text', (c) => c.notNull())
        .addColumn('known', 'integer', (c) => c.notNull())
        .addColumn('operator', 'text')
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('unjudged', 'bigint', (c) => c.notNull())
        .addColumn('disallowed', 'bigint', (c) => c.notNull())
        .addColumn('verified_disallowed', 'bigint', (c) => c.notNull())
        .addColumn('verification', 'text', (c) => c.notNull())
        .addColumn('verification_reason', 'text')
        .addColumn('verified', 'bigint', (c) => c.notNull())
        .addColumn('spoofed', 'bigint', (c) => c.notNull())
        .addColumn('unverifiable', 'bigint', (c) => c.notNull())
        .addColumn('unchecked', 'bigint', (c) => c.notNull())
        .addColumn('robots_fetches', 'bigint', (c) => c.notNull())
        .addColumn('first_seen', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addColumn('versions_json', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('log_crawlers_upload').on('log_crawlers').column('upload_id').execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('log_crawlers').execute();
      await db.schema.dropTable('log_uploads').execute();
    },
  };
}
