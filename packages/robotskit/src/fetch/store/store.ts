/**
 * Where a {@link RobotsClient} keeps what it fetched beyond its in-memory cache: a small async key-value interface, one
 * record per origin, so a crawler can share fetches across restarts or processes (Redis, SQLite, PostgreSQL…).
 */

import { LruMap } from '../shared/lru.js';
import { positiveInteger } from '../shared/options.js';
import type { RetrievalResult } from '../shared/types.js';

/**
 * What a store keeps for an origin: its fetch history, compacted to the (at most three) fetches the availability
 * timeline needs (see {@link compactHistory}). Each is a {@link RetrievalResult} whose `body` is a `Uint8Array`; a store
 * that writes JSON converts with {@link retrievalToJson} and {@link retrievalFromJson}.
 */
export interface StoredOrigin {
  /** `scheme://host[:port]`, as {@link originOf} gives it. */
  readonly origin: string;
  /** Fetches in time order. */
  readonly history: readonly RetrievalResult[];
}

/**
 * A pluggable store. Two methods, keyed by origin; either may return a value or a promise. The client reads an origin
 * when it is not in its memory cache, and writes it after every fetch. A store shared by several processes may be
 * written concurrently: the last write wins, and any recent record is good enough (each holds a whole, valid history).
 * Errors thrown by the store reject the client call that needed it, unless the client has an `onStoreError` handler.
 */
export interface RobotsStore {
  /** The record of an origin, or undefined when there is none. */
  get(origin: string): Promise<StoredOrigin | undefined> | StoredOrigin | undefined;
  /** Replaces the record of an origin. */
  set(origin: string, record: StoredOrigin): Promise<void> | void;
  /**
   * Optional, for fleets (several processes sharing the store): takes the fetch lease of an origin for `holder` and
   * `ttlMs` milliseconds, unless another holder has one that has not expired. Resolves true when `holder` now holds
   * it (taking it again extends it). With both lease methods, clients sharing the store make one robots.txt fetch per
   * origin between them: the holder fetches and writes the record, the others wait for it (see
   * the crawl client's `fleet` option). The expiry is kept by the store, so a fetcher that dies cannot block the rest.
   */
  acquireLease?(origin: string, holder: string, ttlMs: number): Promise<boolean> | boolean;
  /** Optional, with {@link acquireLease}: gives the lease up if `holder` still holds it; else does nothing. */
  releaseLease?(origin: string, holder: string): Promise<void> | void;
}

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
