/**
 * Migration 0001: the schema as first released, in three parts: what is watched (properties, hosts, robots.txt files
 * with their schedule and lease), what was fetched (bodies, fetches, versions), and alerts with their delivery queue
 * and named leases. Released migrations never change; later changes are new migrations.
 */

import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../config.js';
import { type StorageDialect, storageDialect } from '../storage-dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

/** Foreign keys that point at bigserial ids must be bigint on PostgreSQL; SQLite does not care. */
const ref = 'bigint';

/** Properties, their hosts, the robots.txt files and which host has which file. */
async function watchedTables(db: AnyDb, storage: StorageDialect): Promise<void> {
  const id = storage.withId;
  await db.schema
    .createTable('properties')
    .$call(id)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('hosts')
    .$call(id)
    .addColumn('property_id', ref, (c) => c.notNull().references('properties.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('hosts_property_host', ['property_id', 'host'])
    .execute();

  await db.schema
    .createTable('robots_files')
    .$call(id)
    .addColumn('url', 'text', (c) => c.notNull().unique())
    .addColumn('scheme', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_fetch_at', 'bigint', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('recrawl_requested_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('leased_at', 'bigint')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('last_fetch_id', ref)
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failing_since', 'bigint')
    .addColumn('not_found_since', 'bigint')
    .execute();
  await db.schema.createIndex('robots_files_due').on('robots_files').columns(['priority', 'next_fetch_at']).execute();

  await db.schema
    .createTable('host_files')
    .addColumn('host_id', ref, (c) => c.notNull().references('hosts.id').onDelete('cascade'))
    .addColumn('file_id', ref, (c) => c.notNull().references('robots_files.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('host_files_pk', ['host_id', 'file_id'])
    .execute();
  await db.schema.createIndex('host_files_file').on('host_files').column('file_id').execute();
}

/** Bodies (content-addressed), every fetch, and the versions (fetches whose content changed). */
async function fetchedTables(db: AnyDb, storage: StorageDialect): Promise<void> {
  const id = storage.withId;
  const bytes = storage.bytesType;
  await db.schema
    .createTable('bodies')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('lint_errors', 'integer')
    .addColumn('lint_warnings', 'integer')
    .addColumn('lint_json', 'text')
    .execute();

  await db.schema
    .createTable('fetches')
    .$call(id)
    .addColumn('file_id', ref, (c) => c.notNull().references('robots_files.id').onDelete('cascade'))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('size', 'bigint')
    .addColumn('body_hash', 'text', (c) => c.references('bodies.hash'))
    .addColumn('content_key', 'text', (c) => c.notNull())
    .addColumn('headers_json', 'text', (c) => c.notNull())
    .addColumn('redirects_json', 'text', (c) => c.notNull())
    .addColumn('final_url', 'text')
    .addColumn('error_kind', 'text')
    .addColumn('error_message', 'text')
    .addColumn('timings_json', 'text')
    .addColumn('worker', 'text')
    .execute();
  await db.schema.createIndex('fetches_file').on('fetches').columns(['file_id', 'started_at']).execute();
  await db.schema.createIndex('fetches_started').on('fetches').column('started_at').execute();
  await db.schema.createIndex('fetches_body').on('fetches').column('body_hash').execute();

  await db.schema
    .createTable('versions')
    .$call(id)
    .addColumn('file_id', ref, (c) => c.notNull().references('robots_files.id').onDelete('cascade'))
    .addColumn('fetch_id', ref, (c) => c.references('fetches.id').onDelete('set null'))
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('size', 'bigint')
    .addColumn('body_hash', 'text', (c) => c.references('bodies.hash'))
    .addColumn('headers_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('versions_file').on('versions').columns(['file_id', 'id']).execute();
  await db.schema.createIndex('versions_body').on('versions').column('body_hash').execute();
}

/** Alerts, webhooks and their deliveries, and named leases. */
async function alertTables(db: AnyDb, storage: StorageDialect): Promise<void> {
  const id = storage.withId;
  await db.schema
    .createTable('alerts')
    .$call(id)
    .addColumn('property_id', ref, (c) => c.references('properties.id').onDelete('cascade'))
    .addColumn('file_id', ref, (c) => c.references('robots_files.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('details_json', 'text')
    .addColumn('version_id', ref, (c) => c.references('versions.id').onDelete('set null'))
    .addColumn('previous_version_id', ref, (c) => c.references('versions.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alerts_file').on('alerts').columns(['file_id', 'created_at']).execute();
  await db.schema.createIndex('alerts_property').on('alerts').columns(['property_id', 'created_at']).execute();

  await db.schema
    .createTable('webhooks')
    .$call(id)
    .addColumn('property_id', ref, (c) => c.references('properties.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('kinds_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('disabled_at', 'bigint')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .$call(id)
    .addColumn('webhook_id', ref, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('alert_id', ref, (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Every table, in the order they can be dropped. */
const TABLES = [
  'leases',
  'webhook_deliveries',
  'webhooks',
  'alerts',
  'versions',
  'fetches',
  'bodies',
  'host_files',
  'robots_files',
  'hosts',
  'properties',
];

/** The migration, with the column types of `dialect`. */
export function initialSchema(dialect: DialectName): Migration {
  const storage = storageDialect(dialect);
  return {
    async up(db: AnyDb) {
      await watchedTables(db, storage);
      await fetchedTables(db, storage);
      await alertTables(db, storage);
    },
    async down(db: AnyDb) {
      for (const table of TABLES) await db.schema.dropTable(table).execute();
    },
  };
}
