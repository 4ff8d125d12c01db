/**
 * The databases every contract test runs against, as kysely's own test setup does: SQLite in a temporary file and
 * PostgreSQL at 127.0.0.1:5432, database `test`, each run in a schema of its own (dropped afterwards) so parallel runs
 * never collide. In CI (`CI=true`) PostgreSQL is required: an unreachable server fails the run. Elsewhere its tests
 * are skipped with the reason printed.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig, DialectName } from '../src/storage/config.js';
import { type Database, openDatabase } from '../src/storage/connect.js';

/** The PostgreSQL server the tests use; `ROBOTSKIT_TEST_PG` overrides it. */
export const PG_URL = process.env.ROBOTSKIT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const pgProblem = await probePostgres();
if (pgProblem !== null) {
  if (process.env.CI === 'true') {
    throw new Error(`PostgreSQL at ${PG_URL} is required in CI and unreachable: ${pgProblem}`);
  }
  console.warn(`skipping PostgreSQL tests: ${PG_URL} is unreachable (${pgProblem})`);
}

/** One database to test against. */
export interface TestDatabase {
  readonly dialect: DialectName;
  /** Why this database's tests are skipped in this run, or null. */
  readonly skip: string | null;
  /** A fresh configuration: a new SQLite file or a new PostgreSQL schema. */
  config(): DatabaseConfig;
  /** Removes what `config()` created. */
  cleanup(): Promise<void>;
}

function sqliteTarget(): TestDatabase {
  const dirs: string[] = [];
  return {
    dialect: 'sqlite',
    skip: null,
    config() {
      const dir = mkdtempSync(join(tmpdir(), 'robotskit-db-'));
      dirs.push(dir);
      return { dialect: 'sqlite', file: join(dir, 'test.sqlite') };
    },
    async cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresTarget(): TestDatabase {
  const schemas: string[] = [];
  return {
    dialect: 'postgres',
    skip: pgProblem === null ? null : `PostgreSQL unreachable: ${pgProblem}`,
    config() {
      const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
      schemas.push(schema);
      return { dialect: 'postgres', url: PG_URL, schema, poolSize: 4 };
    },
    async cleanup() {
      if (schemas.length === 0) return;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        for (const schema of schemas.splice(0)) await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The databases of the contract suite; PostgreSQL's tests are skipped (outside CI only) when it is unreachable. */
export const testDatabases: TestDatabase[] = [sqliteTarget(), postgresTarget()];

/** Opens a fresh, migrated database of `target`. */
export function openTestDatabase(target: TestDatabase): Promise<Database> {
  return openDatabase(target.config());
}
