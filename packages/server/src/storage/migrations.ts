/**
 * Versioned migrations, kept in code (Kysely's Migrator) so the package needs no migration files on disk. A migration
 * never changes once released; a schema change is a new entry.
 */

import { type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { RobotskitServerError } from '../errors.js';
import type { DialectName } from './config.js';
import { engineVocabulary } from './migrations/engine-vocabulary.js';
import { storageDialect } from './storage-dialect.js';

/* Migration bodies get a `Kysely<any>` because they run against whatever schema exists at that point in history. */
// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

function initial(dialect: DialectName): Migration {
  const storage = storageDialect(dialect);
  const bytes = storage.bytesType;
  const id = storage.withId;
  // Foreign keys that point at bigserial ids must be bigint on PostgreSQL; SQLite does not care.
  const ref = 'bigint';
  return {
    async up(db: AnyDb) {
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
      await db.schema
        .createIndex('robots_files_due')
        .on('robots_files')
        .columns(['priority', 'next_fetch_at'])
        .execute();

      await db.schema
        .createTable('host_files')
        .addColumn('host_id', ref, (c) => c.notNull().references('hosts.id').onDelete('cascade'))
        .addColumn('file_id', ref, (c) => c.notNull().references('robots_files.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('host_files_pk', ['host_id', 'file_id'])
        .execute();
      await db.schema.createIndex('host_files_file').on('host_files').column('file_id').execute();

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
    },
    async down(db: AnyDb) {
      for (const table of [
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
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/**
 * Indexes on the foreign keys that pruning deletes through. Deleting a fetch or a version makes the database look for
 * the rows that point at it (`ON DELETE SET NULL`); without an index each deleted row scans the whole referring table,
 * so a pruning pass grew with the square of the history (`bench/scale.js`, docs/scale.md).
 */
const foreignKeyIndexes: Migration = {
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

/** Every migration, by name; names sort in the order they apply. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_initial': initial(dialect),
    '0002_foreign_key_indexes': foreignKeyIndexes,
    '0003_engine_vocabulary': engineVocabulary,
  };
}

/**
 * Builds Kysely's Migrator over the in-code migrations. On PostgreSQL the bookkeeping tables live in the connection's
 * current schema: Kysely would otherwise find them in any schema of the database and skip creating its own.
 */
export async function migrator(db: AnyDb, dialect: DialectName): Promise<Migrator> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  if (!storageDialect(dialect).schemas) return new Migrator({ db, provider });
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  return new Migrator({ db: scopedToSchema(db), provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/**
 * The database as the Migrator should see it on PostgreSQL: its table lookups limited to the current schema. Kysely's
 * own introspector lists the columns of every table of every schema and resolves each schema by name; a schema
 * dropped by someone else during that scan fails it (`schema "…" does not exist`, 3F000), and with many schemas it
 * is slow. The Migrator only asks which tables exist (and which schemas), which one schema answers.
 */
function scopedToSchema(db: AnyDb): AnyDb {
  const introspector: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    async getTables() {
      const { rows } = await sql<{ name: string; schema: string; is_view: boolean }>`
        select c.relname as name, n.nspname as schema, c.relkind = 'v' as is_view
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(db);
      return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.is_view, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspector;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Thrown when migrating fails; says which migration and why. */
export class MigrationError extends RobotskitServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('migration-failed', message, options);
  }
}

/** Applies every pending migration; returns the names applied now. Safe to run from several processes at once. */
export async function migrateToLatest(db: AnyDb, dialect: DialectName): Promise<string[]> {
  let outcome = await (await migrator(db, dialect)).migrateToLatest();
  // Kysely's migrator looks for its table by listing the tables of every schema; a schema dropped by someone else at
  // that moment fails the catalog scan with 3F000 (invalid_schema_name). That says nothing about ours: try again.
  for (let attempt = 1; attempt < 5 && outcome.error && isOtherSchemaVanished(outcome.error); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    outcome = await (await migrator(db, dialect)).migrateToLatest();
  }
  const { error, results } = outcome;
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`database migration ${failed ?? ''} failed: ${reason}`.replace('  ', ' '), {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether a migration failed only because some schema vanished during a catalog scan (PostgreSQL 3F000). */
function isOtherSchemaVanished(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === '3F000') return true;
  }
  return false;
}
