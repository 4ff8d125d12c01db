/**
 * Where a {@link RobotsClient} keeps what it fetched beyond its in-memory cache: a small async key-value interface, one
 * record per origin, so a crawler can share fetches across restarts or processes (Redis, SQLite, PostgreSQL…).
 */

import { LruMap } from './lru.js';
import type { RetrievalResult } from './types.js';

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
}

/** Options of {@link createMemoryRobotsStore}. */
export interface MemoryRobotsStoreOptions {
  /**
   * Keep at most this many origins, forgetting the least recently used.
   * @default 10000
   */
  readonly maxOrigins?: number;
}

/** A {@link RobotsStore} in memory, bounded by origin count (LRU). Records are kept as given, not copied. */
export function createMemoryRobotsStore(
  options: MemoryRobotsStoreOptions = {},
): RobotsStore & { readonly size: number } {
  const maxOrigins = options.maxOrigins ?? 10_000;
  if (!Number.isInteger(maxOrigins) || maxOrigins < 1) throw new RangeError('maxOrigins must be a positive integer');
  const records = new LruMap<string, StoredOrigin>(maxOrigins, Number.POSITIVE_INFINITY);
  return {
    get size() {
      return records.size;
    },
    get: (origin) => records.get(origin),
    set: (origin, record) => {
      records.set(origin, record, 0);
    },
  };
}
