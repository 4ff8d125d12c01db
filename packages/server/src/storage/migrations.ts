/**
 * Versioned migrations, kept in code (Kysely's Migrator) so the package needs no migration files on disk. A migration
 * never changes once released; a schema change is a new entry.
 */

import { type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { RobotskitServerError } from '../errors.js';
import type { DialectName } from './config.js';
import { crawlerActivity } from './migrations/crawler-activity.js';
import { engineVocabulary } from './migrations/engine-vocabulary.js';
import { foreignKeyIndexes } from './migrations/foreign-key-indexes.js';
import { initialSchema } from './migrations/initial.js';
import { sitemapShares } from './migrations/sitemap-shares.js';
import { storageDialect } from './storage-dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

/** Every migration, by name; names sort in the order they apply. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_initial': initialSchema(dialect),
    '0002_foreign_key_indexes': foreignKeyIndexes,
    '0003_engine_vocabulary': engineVocabulary,
    '0004_sitemap_shares': sitemapShares,
    '0005_crawler_activity': crawlerActivity(dialect),
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
class MigrationError extends RobotskitServerError {
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
