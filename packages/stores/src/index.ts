/**
 * robotskit-stores: shared robots.txt caches for crawler fleets. Each store keeps, per origin, the fetch history the
 * engine's availability rules read (12 h / 30 days, cache lifetime, retries) and fetch leases for single flight
 * across processes; hand one to `createRobotsClient({ store })`.
 */

export { RobotsStoreError } from './errors.js';
export { type OpenedRobotsStore, openRobotsStore } from './open.js';
export {
  createPostgresRobotsStore,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresRobotsStore,
  type PostgresRobotsStoreOptions,
} from './postgres.js';
export { createRedisRobotsStore, type RedisRobotsStore, type RedisRobotsStoreOptions } from './redis.js';
