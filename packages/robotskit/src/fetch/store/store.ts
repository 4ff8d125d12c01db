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
  /**
   * When the client that wrote the record will fetch the origin again (epoch ms, its `refreshSchedule`), given by
   * the crawl client on every write. A store with {@link RobotsStore.claimLease} compares it with the caller's `now`
   * and nothing else: the policy stays the engine's. Absent in records written by other tools.
   */
  readonly nextFetchAt?: number;
}

/**
 * What {@link RobotsStore.claimLease} found: the origin's record, and whether the caller now holds its lease.
 * - `fresh`: the record's `nextFetchAt` is after `now`; no lease was taken (use the record).
 * - `held`: the caller holds the lease now (fetch, then {@link RobotsStore.publish}).
 * - `elsewhere`: another holder's lease has `leaseLeftMs` milliseconds to live (unless renewed); wait for its record.
 */
export interface LeaseClaim {
  readonly lease: 'fresh' | 'held' | 'elsewhere';
  /** The record as it was when the claim was made (undefined when there is none). */
  readonly record: StoredOrigin | undefined;
  /** With `elsewhere`: how long the other holder's lease lives unless renewed (ms); else 0. */
  readonly leaseLeftMs: number;
}

/**
 * Called by a store with wake-ups when another process's record of an origin reaches it or its lease is given up:
 * `record` is the record written when the store's message carried it, else undefined (read it with `get`).
 */
export type OriginWrittenListener = (origin: string, record: StoredOrigin | undefined) => void;

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
  /**
   * Optional, with {@link acquireLease}: gives the lease up if `holder` still holds it; else does nothing. A store with
   * {@link subscribe} wakes the processes that wait for the origin.
   */
  releaseLease?(origin: string, holder: string): Promise<void> | void;
  /**
   * Optional, with the lease methods, so a fleet needs one store call per origin and process: reads the origin's
   * record and, unless its `nextFetchAt` is after `now` (`fresh`), takes the lease for `holder` and `ttlMs` as
   * {@link acquireLease} does, all in one round trip. With `elsewhere`, the store remembers that someone waits, so
   * that {@link publish} or {@link releaseLease} wakes them for at least `waitMs`. Without it the client calls
   * {@link get} and {@link acquireLease}.
   */
  claimLease?(
    origin: string,
    holder: string,
    ttlMs: number,
    now: number,
    waitMs: number,
  ): Promise<LeaseClaim> | LeaseClaim;
  /**
   * Optional, with the lease methods: {@link set}, then gives up `holder`'s lease, then wakes the processes waiting
   * for the origin ({@link subscribe}), handing them the record where the store's messages can carry it; one round
   * trip. Without it the client calls {@link set} and {@link releaseLease}.
   */
  publish?(origin: string, record: StoredOrigin, holder: string): Promise<void> | void;
  /**
   * Optional: wake-ups. Calls `listener` whenever a waited-for origin's record is published or its lease released,
   * by any process sharing the store (Redis pub/sub, PostgreSQL LISTEN/NOTIFY), until the returned function is
   * called. Resolves once messages flow. A client with it waits for the wake-up and reads the store only as a slow
   * fallback (`fleet.pollMs`); a message lost (a broken connection) costs time, never an answer.
   */
  subscribe?(listener: OriginWrittenListener): Promise<() => void> | (() => void);
}

/**
 * What a store on a server says of itself, from a `health()` method beside the {@link RobotsStore} ones (the stores of
 * robotskit-stores have it; a report service shows it).
 */
export interface RobotsStoreHealth {
  /** `ok`: calls go to the server; `stalled`: a call got no answer in time, and calls fail at once until it answers. */
  readonly state: 'ok' | 'stalled';
  /** When the current state began, epoch ms (for `ok`, when the store opened or last came back). */
  readonly since: number;
  /** How many times the store stalled since it opened. */
  readonly stalls: number;
  /** Calls that failed since the store opened: timed out, refused while stalled, or failed by the server or network. */
  readonly failedCalls: number;
  /** When the store last came back after a stall, epoch ms; null when it never stalled or has not come back yet. */
  readonly cameBackAt: number | null;
  /** The latest failure in words; null when none. */
  readonly lastError: string | null;
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
