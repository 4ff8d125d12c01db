/** One entry point for a store named by URL, as a command line or a configuration file gives it. */

import { RobotsStoreError } from './errors.js';
import { createPostgresRobotsStore, type PostgresRobotsStore } from './postgres.js';
import { createRedisRobotsStore, type RedisRobotsStore } from './redis.js';

/** A store opened by {@link openRobotsStore}. */
export type OpenedRobotsStore = RedisRobotsStore | PostgresRobotsStore;

const SENTINEL = /^(rediss?)\+sentinel:\/\/(?:([^@/?#]*)@)?([^/?#]+)\/([^/?#]+)(\/\d+)?(\?[^#]*)?$/;

/**
 * Opens the store a URL names:
 * - `redis://…` / `rediss://…`: a server, or a node of a Redis Cluster (the whole cluster is used); the database
 *   number as its path, e.g. `redis://127.0.0.1:6379/7`.
 * - `redis+sentinel://[user:password@]host:port[,host:port…]/<master name>[/db]`: the master Sentinel names.
 * - `postgres://…` / `postgresql://…`.
 *
 * Query parameters (taken off before the URL reaches the driver): `prefix` (Redis: the key prefix), `schema`
 * (PostgreSQL: the tables' schema), `pool_size` (PostgreSQL: connections of the store's pool, default 10),
 * `timeout_ms` (both: how long connecting and each call may take, default 5000).
 * @throws RobotsStoreError for another scheme or a bad parameter, or when the store cannot be reached in time.
 */
export async function openRobotsStore(url: string): Promise<OpenedRobotsStore> {
  const sentinel = SENTINEL.exec(url);
  if (sentinel !== null) return openSentinel(sentinel);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RobotsStoreError(
      `not a store URL: ${JSON.stringify(url)} (use redis://…, redis+sentinel://… or postgres://…)`,
    );
  }
  switch (parsed.protocol) {
    case 'redis:':
    case 'rediss:': {
      const keyPrefix = take(parsed.searchParams, 'prefix');
      const timeout = positive(parsed.searchParams, 'timeout_ms');
      return createRedisRobotsStore({
        url: parsed.href,
        ...(keyPrefix === null ? {} : { keyPrefix }),
        ...(timeout === null ? {} : { commandTimeoutMs: timeout, connectTimeoutMs: timeout }),
      });
    }
    case 'postgres:':
    case 'postgresql:': {
      const schema = take(parsed.searchParams, 'schema');
      const poolSize = positive(parsed.searchParams, 'pool_size');
      const timeout = positive(parsed.searchParams, 'timeout_ms');
      return createPostgresRobotsStore({
        url: parsed.href,
        ...(schema === null ? {} : { schema }),
        ...(poolSize === null ? {} : { poolSize }),
        ...(timeout === null ? {} : { queryTimeoutMs: timeout }),
      });
    }
    default:
      throw new RobotsStoreError(
        `unsupported store ${parsed.protocol}// (use redis://…, redis+sentinel://… or postgres://…)`,
      );
  }
}

function openSentinel(match: RegExpExecArray): Promise<RedisRobotsStore> {
  const [, scheme, userinfo, hosts, name, db, query] = match;
  const params = new URLSearchParams(query ?? '');
  const sentinels = hosts!.split(',').map((hostPort) => {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostPort);
    if (m === null) throw new RobotsStoreError(`not a sentinel address: ${JSON.stringify(hostPort)} (host:port)`);
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2] ?? 26379) };
  });
  const keyPrefix = take(params, 'prefix');
  const timeout = positive(params, 'timeout_ms');
  // The master's address comes from Sentinel; the URL carries its credentials and database number.
  const nodeUrl = `${scheme}://${userinfo === undefined ? '' : `${userinfo}@`}localhost${db ?? ''}`;
  return createRedisRobotsStore({
    url: nodeUrl,
    sentinel: { name: decodeURIComponent(name!), sentinels },
    ...(keyPrefix === null ? {} : { keyPrefix }),
    ...(timeout === null ? {} : { commandTimeoutMs: timeout, connectTimeoutMs: timeout }),
  });
}

/** A query parameter's value, taken off the URL. */
function take(params: URLSearchParams, name: string): string | null {
  const value = params.get(name);
  params.delete(name);
  return value;
}

/** A query parameter that must be a positive integer, taken off the URL. */
function positive(params: URLSearchParams, name: string): number | null {
  const text = take(params, name);
  if (text === null) return null;
  if (!/^[1-9][0-9]{0,8}$/.test(text)) {
    throw new RobotsStoreError(`the store URL's ${name} must be a positive integer, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}
