/**
 * `createMemoryRobotsStore`: a {@link RobotsStore} in one process's memory, bounded by origin count, with fetch leases,
 * so that several clients of one process share their fetches (and tests have a store with every method).
 */

import { LruMap } from '../shared/lru.js';
import { positiveInteger } from '../shared/options.js';
import type { RobotsStore, StoredOrigin } from './store.js';

/** Options of {@link createMemoryRobotsStore}. */
export interface MemoryRobotsStoreOptions {
  /**
   * Keep at most this many origins, forgetting the least recently used.
   * @default 10000
   */
  readonly maxOrigins?: number;
}

/**
 * A {@link RobotsStore} in memory, bounded by origin count (LRU). Records are kept as given, not copied. It has fetch
 * leases too, so clients of one process sharing it fetch each origin once between them.
 */
export function createMemoryRobotsStore(
  options: MemoryRobotsStoreOptions = {},
): Required<RobotsStore> & { readonly size: number } {
  const maxOrigins = positiveInteger(options.maxOrigins, 10_000, 'maxOrigins');
  const records = new LruMap<string, StoredOrigin>(maxOrigins, Number.POSITIVE_INFINITY);
  const leases = new Map<string, { holder: string; expires: number }>();
  return {
    get size() {
      return records.size;
    },
    get: (origin) => records.get(origin),
    set: (origin, record) => {
      records.set(origin, record, 0);
    },
    acquireLease(origin, holder, ttlMs) {
      const now = Date.now();
      const lease = leases.get(origin);
      if (lease !== undefined && lease.holder !== holder && lease.expires > now) return false;
      leases.set(origin, { holder, expires: now + ttlMs });
      if (leases.size > maxOrigins) {
        for (const [key, value] of leases) if (value.expires <= now) leases.delete(key);
      }
      return true;
    },
    releaseLease(origin, holder) {
      if (leases.get(origin)?.holder === holder) leases.delete(origin);
    },
  };
}
