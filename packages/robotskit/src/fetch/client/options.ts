/**
 * The options of {@link createRobotsClient}, and their checks: what a caller may set, each default written once, and a
 * bad value refused when the client is made rather than at its first question.
 */

import type { DialectName } from '../../model/dialect.js';
import { type CrawlerInput, parseRobotsTxt, type RobotsTxt } from '../../robots-txt/robots-txt.js';
import { type AvailabilityOptions, effectivePolicy, refreshSchedule } from '../policy/availability.js';
import { DEFAULT_TIMEOUTS, type RetrievalOptions } from '../retrieval/retrieve.js';
import { positiveInteger } from '../shared/options.js';
import { type AnyFetchLike, type Clock, systemClock } from '../shared/types.js';
import type { RobotsStore } from '../store/store.js';
import { type FleetOptions, type FleetSettings, fleetSettings } from './fleet.js';
import type { StoreErrorHandler } from './store-access.js';
import { systemTurnClock } from './turn-clock.js';

/** Options of {@link createRobotsClient}. */
export interface RobotsClientOptions {
  /**
   * The crawler: a product token (`MyBot`) or a full User-Agent string (`Mozilla/5.0 (compatible; MyBot/1.0;
   * +https://example.com/bot)`). Sent as the `User-Agent` of robots.txt requests (unless `retrieval.userAgent` says
   * otherwise) and matched against the files' groups like {@link RobotsTxt.isAllowed} does (a full string is reduced
   * to its product token). Every question may name another crawler instead.
   */
  readonly userAgent: string;
  /**
   * Who questions are asked for when a call names no crawler: a product token, several, or a {@link CrawlerProfile}
   * (whose tokens are tried in fallback order, e.g. `crawlerByName('Googlebot-Image')`). `userAgent` still says what
   * is sent in the `User-Agent` header.
   * @default userAgent
   */
  readonly crawler?: CrawlerInput;
  /**
   * At most this many robots.txt fetches in flight at once, over all origins; more wait their turn (first come, first
   * served). Each origin has at most one in any case. The retrieval timeouts start when a fetch leaves the queue.
   * @default 64
   */
  readonly maxConcurrentFetches?: number;
  /**
   * The `fetch` to use. Its bodies may be web streams or async iterables of chunks ({@link AnyFetchResponseLike}).
   * @default globalThis.fetch
   */
  readonly fetch?: AnyFetchLike;
  /**
   * A second-level store behind the in-memory cache (see {@link RobotsStore}). Without one, the in-memory cache is
   * the only one.
   */
  readonly store?: RobotsStore;
  /**
   * Called when the store throws; the client then goes on with what it has in memory (a failed read counts as "not
   * stored", a failed write is skipped). Without it, a store error rejects the call that needed the store.
   */
  readonly onStoreError?: StoreErrorHandler;
  /**
   * Single flight across processes, used when the store has fetch leases ({@link RobotsStore.acquireLease}): the
   * client takes an origin's lease once one of its fetch slots is free (so the fetch starts at once), renews it while
   * the fetch runs, and gives it up with the record's write. When another process holds it, the client waits for
   * that process's record (woken by the store when it has {@link RobotsStore.subscribe}, else reading it every
   * `pollMs`), takes the lease over when it expires (its holder died), and after `waitMs` fetches the origin itself:
   * waiting never counts as a failed fetch. When the store cannot be reached and `onStoreError` is given, the client
   * fetches on its own and keeps answering from memory.
   */
  readonly fleet?: FleetOptions;
  /**
   * The clock for cache lifetimes, the availability timeline and fetch times. A clock given here is read at every
   * question. The default, the system clock, is read at most once every 64 answers from memory within one turn of the
   * event loop (a reading costs about a twentieth of such an answer), so such an answer may use a reading taken up to
   * 63 answers earlier in the same turn: an origin due again meanwhile is fetched at the first question after that.
   * @default systemClock
   */
  readonly clock?: Clock;
  /**
   * Keep at most this many origins in memory, forgetting the least recently used.
   * @default 10000
   */
  readonly maxOrigins?: number;
  /**
   * Keep at most about this many bytes of robots.txt bodies in memory (each origin's kept bodies, counted twice for
   * the parsed copy), forgetting the least recently used origins.
   * @default 67108864 (64 MiB)
   */
  readonly maxCachedBytes?: number;
  /** How robots.txt is fetched: timeouts, size limit, redirects, request headers (see {@link fetchRobotsTxt}). */
  readonly retrieval?: Omit<RetrievalOptions, 'fetch' | 'clock' | 'signal'>;
  /** The availability timeline, cache lifetimes and retries (see {@link effectivePolicy}). */
  readonly availability?: AvailabilityOptions;
  /**
   * How files are read.
   * @default 'google'
   */
  readonly dialect?: DialectName;
}

/** The options with their defaults applied and checked: what the parts of a client are made from. */
interface ClientSettings {
  readonly userAgent: string;
  readonly crawler: CrawlerInput;
  /** The clock of fetches, cache lifetimes and the policy. */
  readonly clock: Clock;
  /** The clock of answers from memory (see {@link RobotsClientOptions.clock}). */
  readonly hitClock: Clock;
  readonly store: RobotsStore | undefined;
  readonly onStoreError: StoreErrorHandler | undefined;
  readonly availability: AvailabilityOptions;
  readonly dialect: DialectName;
  /** What every robots.txt fetch is given: the retrieval options with the client's `User-Agent`, clock and `fetch`. */
  readonly retrieval: RetrievalOptions;
  readonly maxOrigins: number;
  readonly maxCachedBytes: number;
  readonly maxConcurrentFetches: number;
  readonly fleet: FleetSettings;
}

/**
 * The settings of a client, or a `TypeError` / `RangeError` naming the first bad option.
 * @throws TypeError when `options` is no object, `userAgent` is empty, or `crawler` names no crawler.
 * @throws RangeError when a count, a period or the dialect is out of range.
 */
export function resolveClientOptions(options: RobotsClientOptions): ClientSettings {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const userAgent = options.userAgent;
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    throw new TypeError('userAgent must be a non-empty string (a product token or a full User-Agent)');
  }
  const clock = options.clock ?? systemClock;
  const availability = options.availability ?? {};
  const dialect = options.dialect ?? 'google';
  const retrieval: RetrievalOptions = {
    ...options.retrieval,
    userAgent: options.retrieval?.userAgent ?? userAgent,
    clock,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  const maxOrigins = positiveInteger(options.maxOrigins, 10_000, 'maxOrigins');
  const maxCachedBytes = positiveInteger(options.maxCachedBytes, 64 * 1024 * 1024, 'maxCachedBytes');
  const maxConcurrentFetches = positiveInteger(options.maxConcurrentFetches, 64, 'maxConcurrentFetches');
  const crawler: CrawlerInput = options.crawler ?? userAgent;
  if (options.crawler !== undefined) parseRobotsTxt('').isAllowed('/', crawler); // throws TypeError on a bad crawler
  effectivePolicy([], 0, availability);
  refreshSchedule([], availability);
  parseRobotsTxt('', { dialect });
  return {
    userAgent,
    crawler,
    clock,
    hitClock: options.clock ?? systemTurnClock(),
    store: options.store,
    onStoreError: options.onStoreError,
    availability,
    dialect,
    retrieval,
    maxOrigins,
    maxCachedBytes,
    maxConcurrentFetches,
    fleet: fleetSettings(
      options.fleet,
      options.retrieval?.timeouts?.total ?? DEFAULT_TIMEOUTS.total,
      options.store?.subscribe !== undefined,
    ),
  };
}
