/** One entry point for a store named by URL, as a command line or a configuration file gives it. */

import { RobotsStoreError } from './errors.js';
import { createPostgresRobotsStore, type PostgresRobotsStore } from './postgres.js';
import { createRedisRobotsStore, type RedisRobotsStore } from './redis.js';

/** A store opened by {@link openRobotsStore}. */
export type OpenedRobotsStore = RedisRobotsStore | PostgresRobotsStore;

/**
 * Opens the store a URL names: `redis://…` / `rediss://…` (the database number as its path, e.g.
 * `redis://127.0.0.1:6379/7`; a `prefix` query parameter sets the key prefix) or `postgres://…` / `postgresql://…` (a `schema` query parameter picks the schema).
 * @throws RobotsStoreError for another scheme, or when the store cannot be reached.
 */
export async function openRobotsStore(url: string): Promise<OpenedRobotsStore> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RobotsStoreError(`not a store URL: ${JSON.stringify(url)} (use redis://… or postgres://…)`);
  }
  switch (parsed.protocol) {
    case 'redis:':
    case 'rediss:': {
      const keyPrefix = parsed.searchParams.get('prefix');
      parsed.searchParams.delete('prefix');
      return createRedisRobotsStore({ url: parsed.href, ...(keyPrefix === null ? {} : { keyPrefix }) });
    }
    case 'postgres:':
    case 'postgresql:': {
      const schema = parsed.searchParams.get('schema');
      parsed.searchParams.delete('schema');
      return createPostgresRobotsStore({ url: parsed.href, ...(schema === null ? {} : { schema }) });
    }
    default:
      throw new RobotsStoreError(`unsupported store ${parsed.protocol}// (use redis://… or postgres://…)`);
  }
}
