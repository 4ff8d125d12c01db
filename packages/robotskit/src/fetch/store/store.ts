/**
 * Where a {@link RobotsClient} keeps what it fetched beyond its in-memory cache: a small async key-value interface, one
 * record per origin, so a crawler can share fetches across restarts or processes (Redis, SQLite, PostgreSQL…).
 */

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

/**
 * The record a store gave back for an origin, checked: a history of fetches, each with a time and one of the three
 * outcomes, and the bytes of every `rules` fetch.
 * @throws TypeError when the record is no such thing (a store that lost bodies, or a row read back wrong).
 */
export function checkStoredOrigin(record: unknown, origin: string): StoredOrigin {
  const r = record as Partial<StoredOrigin> | null;
  const valid =
    typeof r === 'object' &&
    r !== null &&
    Array.isArray(r.history) &&
    r.history.every(
      (e) =>
        typeof e === 'object' &&
        e !== null &&
        typeof e.fetchedAt === 'number' &&
        (e.outcome === 'rules' || e.outcome === 'allow-all' || e.outcome === 'disallow-all') &&
        (e.outcome !== 'rules' || e.body instanceof Uint8Array),
    );
  if (!valid) throw new TypeError(`the robots store returned an invalid record for ${origin}`);
  return r as StoredOrigin;
}
