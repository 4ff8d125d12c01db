/**
 * The crawl client: robots.txt fetched once per origin, cached as Google caches it, and asked about URLs. What a
 * crawler embeds so it does not have to write the fetch, cache and failure handling around a parser itself.
 */

import type { DialectName, PoolMatcher } from '../../model/dialect.js';
import type { DecidingRule, Explanation } from '../../model/types.js';
import type { CrawlerInput, RobotsTxt } from '../../robots-txt/robots-txt.js';
import { explainPath, matcherOf, parseRobotsTxt } from '../../robots-txt/robots-txt.js';
import { canonicalAfter, canonicalHref, canonicalPath, originEndIfKnown, simpleOriginEnd } from '../../url/http-url.js';
import { parseRobotsScopedUrl } from '../../url/origin.js';
import { pathToMatch } from '../../url/path.js';
import {
  type AvailabilityOptions,
  compactHistory,
  type EffectivePolicy,
  effectivePolicy,
  refreshSchedule,
} from '../policy/availability.js';
import { crawlDelayOf } from '../policy/crawl-delay.js';
import { fetchRobotsTxt, type RetrievalOptions } from '../retrieval/retrieve.js';
import { LruMap } from '../shared/lru.js';
import { type AnyFetchLike, type Clock, NO_HEADERS, type RetrievalResult, systemClock } from '../shared/types.js';
import type { RobotsStore, StoredOrigin } from '../store/store.js';
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
  readonly onStoreError?: (error: unknown, operation: 'get' | 'set' | 'lease', origin: string) => void;
  /**
   * Single flight across processes, used when the store has fetch leases ({@link RobotsStore.acquireLease}): before
   * fetching an origin the client takes its lease; when another process holds it, the client waits for that
   * process's record to reach the store (reading it every `pollMs`), takes the lease over when it expires (its
   * holder died), and after `waitMs` gives up waiting and applies the policy for an unreachable robots.txt (the fetch
   * counts as failed: disallow-all at first, then the 12 h / 30 day rules), never allow-all. When the store cannot be
   * reached and `onStoreError` is given, the client fetches on its own and keeps answering from memory.
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

/** Options of the fleet-wide single flight (see {@link RobotsClientOptions.fleet}). */
export interface FleetOptions {
  /**
   * How long a fetch lease lasts: longer than a fetch may take (the retrieval's total timeout).
   * @default 60000
   */
  readonly leaseMs?: number;
  /**
   * The longest a question waits for another process's fetch before the origin counts as unreachable.
   * @default 45000
   */
  readonly waitMs?: number;
  /**
   * How often a waiting client reads the store.
   * @default 250
   */
  readonly pollMs?: number;
  /** Who holds the leases this client takes, as the store records it; a random id by default. */
  readonly holder?: string;
}

/** What applies to an origin now. */
export interface OriginPolicy {
  /** `scheme://host[:port]`. */
  readonly origin: string;
  /** `${origin}/robots.txt`. */
  readonly robotsUrl: string;
  /** What applies and why (see {@link effectivePolicy}). */
  readonly policy: EffectivePolicy<RetrievalResult>;
  /** The parsed file whose rules apply, when `policy.mode` is `rules`; else null. */
  readonly robots: RobotsTxt | null;
  /** The most recent fetch. */
  readonly latest: RetrievalResult;
  /** The fetches kept for the timeline, in time order (at most three). */
  readonly history: readonly RetrievalResult[];
  /** When the client will fetch this robots.txt again (epoch ms): its cache lifetime or retry time. */
  readonly nextFetchAt: number;
}

/** The verdict on one URL, and why. */
export interface UrlVerdict {
  /** The URL matched, as the WHATWG parser normalises it (percent-encoded): what a crawler would request. */
  readonly url: string;
  readonly allowed: boolean;
  readonly origin: string;
  readonly robotsUrl: string;
  /** 1-based line of the deciding rule; 0 when no rule decided (also for allow-all and disallow-all policies). */
  readonly line: number;
  /** The deciding rule, or null. */
  readonly rule: DecidingRule | null;
  /** The engine's explanation when the rules of a file decided; null for allow-all and disallow-all policies. */
  readonly explanation: Explanation | null;
  /** What applied to the origin and why. */
  readonly policy: EffectivePolicy<RetrievalResult>;
  /** The most recent fetch of the robots.txt. */
  readonly latest: RetrievalResult;
}

/** Counters, for monitoring and tests. */
export interface RobotsClientStats {
  /** Origins in memory. */
  readonly origins: number;
  /** Approximate bytes of robots.txt held in memory. */
  readonly cachedBytes: number;
  /** robots.txt fetches made. */
  readonly fetches: number;
  /** robots.txt fetches in flight now (at most `maxConcurrentFetches`). */
  readonly activeFetches: number;
  /** robots.txt fetches waiting for a slot now. */
  readonly queuedFetches: number;
  /** Questions answered from memory without waiting. */
  readonly hits: number;
  /** Questions that joined a load already in flight for their origin. */
  readonly joined: number;
  /** Loads started (store read and/or fetch). */
  readonly loads: number;
  readonly storeReads: number;
  readonly storeWrites: number;
  /** Store reads, writes and lease calls that failed (reported to `onStoreError`; the client went on without). */
  readonly storeErrors: number;
  /** Loads that waited for another process's fetch of their origin (a lease held elsewhere). */
  readonly fleetWaits: number;
  /** Of those, the ones that gave up after `fleet.waitMs` and applied the unreachable policy. */
  readonly fleetTimeouts: number;
  /** Origins forgotten to stay within `maxOrigins` and `maxCachedBytes`. */
  readonly evictions: number;
}

/** A caching robots.txt client. Create one with {@link createRobotsClient}. */
export interface RobotsClient {
  /** The `User-Agent` the client sends (and asks for by default unless `crawler` was given). */
  readonly userAgent: string;
  /** The crawler questions are asked for by default. */
  readonly crawler: CrawlerInput;
  /**
   * Whether the crawler may fetch the URL, under the policy that applies to its origin now: the current file's rules,
   * allow-all, or disallow-all (see {@link effectivePolicy}). Fetches the origin's robots.txt first when it is not
   * cached or has expired.
   * @param userAgent Another crawler to ask for (token, full User-Agent, several names, or a crawler profile).
   * @throws RobotsUrlError (as a rejection) when the URL is not an absolute http, https or ftp URL.
   */
  isAllowed(url: string | URL, userAgent?: CrawlerInput): Promise<boolean>;
  /** Like {@link isAllowed}, with the deciding rule, the policy and the fetch behind it. */
  explain(url: string | URL, userAgent?: CrawlerInput): Promise<UrlVerdict>;
  /**
   * {@link explain} answered from memory, synchronously, or null when it cannot be: the origin's robots.txt is not in
   * memory, is being fetched or read from the store, or is due to be fetched again. Never fetches; call
   * {@link explain} when it returns null. For hot loops over many URLs of origins already loaded (no promise per URL).
   * @throws RobotsUrlError when the URL is not an absolute http, https or ftp URL.
   * @example
   * const verdict = client.peek(url) ?? (await client.explain(url));
   */
  peek(url: string | URL, userAgent?: CrawlerInput): UrlVerdict | null;
  /**
   * The `crawl-delay` (seconds) of the groups that apply to the crawler in the file in force; null when there is
   * none or no file's rules apply. For a profile, its fallback order selects the groups (whether the crawler honours
   * the value is {@link CrawlerProfile.honoursCrawlDelay}).
   */
  crawlDelay(url: string | URL, userAgent?: CrawlerInput): Promise<number | null>;
  /**
   * The sitemap URLs listed by the origin's most recently fetched robots.txt (the latest good version, also while
   * later fetches fail); empty when it has none or was never fetched successfully.
   */
  sitemaps(originOrUrl: string | URL): Promise<readonly string[]>;
  /** The policy in force for an origin, its file and fetch history (fetching first when needed). */
  policyFor(originOrUrl: string | URL): Promise<OriginPolicy>;
  /**
   * Fetches the origin's robots.txt now, whatever its cache lifetime (a "recrawl"); joins a fetch already in flight.
   */
  refresh(originOrUrl: string | URL): Promise<OriginPolicy>;
  /** Counters since creation. */
  stats(): RobotsClientStats;
}

const noop = (): void => {};

const ALLOWED = Promise.resolve(true);
const REFUSED = Promise.resolve(false);

type LeasingStore = Required<Pick<RobotsStore, 'acquireLease' | 'releaseLease'>>;

interface FleetSettings {
  readonly leaseMs: number;
  readonly waitMs: number;
  readonly pollMs: number;
  readonly holder: string;
}

function fleetSettings(options: FleetOptions | undefined): FleetSettings {
  if (options === undefined) {
    return { leaseMs: 60_000, waitMs: 45_000, pollMs: 250, holder: randomHolder() };
  }
  return {
    leaseMs: positiveInteger(options.leaseMs, 60_000, 'fleet.leaseMs'),
    waitMs: positiveInteger(options.waitMs, 45_000, 'fleet.waitMs'),
    pollMs: positiveInteger(options.pollMs, 250, 'fleet.pollMs'),
    holder: options.holder ?? randomHolder(),
  };
}

function randomHolder(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The fetch a waiting client records when another process's fetch did not reach the store in time: a failure. */
function unanswered(origin: string, at: number, waitMs: number): RetrievalResult {
  const robotsUrl = `${origin}/robots.txt`;
  return {
    origin,
    robotsUrl,
    finalUrl: robotsUrl,
    outcome: 'disallow-all',
    status: null,
    redirects: [],
    headers: NO_HEADERS,
    body: null,
    size: 0,
    truncated: false,
    html: false,
    error: {
      kind: 'timeout',
      message: `another process fetching ${robotsUrl} gave no answer within ${waitMs} ms`,
      phase: 'request',
      code: null,
    },
    fetchedAt: at,
    timings: { headersMs: null, totalMs: waitMs },
  };
}

interface CachedOrigin {
  readonly origin: string;
  readonly robotsUrl: string;
  readonly history: readonly RetrievalResult[];
  /**
   * The most recent fetch, also when the timeline ignores it (an aborted one: it says nothing about the site, so it is
   * not kept in `history` and the origin is fetched again at the next question).
   */
  readonly lastFetch: RetrievalResult | null;
  readonly nextFetchAt: number;
  /** The policy last computed; it holds until its `until` (or a new fetch, which makes a new entry). */
  policy: EffectivePolicy<RetrievalResult> | null;
  /**
   * `policy` holds while the clock reads less than this: its `until` (infinity when it has none), or -infinity when
   * there is no policy yet or the latest fetch is not before its `until` (the history counts as known now).
   */
  policyUntil: number;
  /** The parsed file of `policy` when its mode is `rules`, else null. */
  robots: RobotsTxt | null;
  /**
   * The crawler (a string) whose matcher for `robots` is `matcher`, or null: the last one asked about, so that the next
   * URL it asks about here goes straight to the matcher. Reset whenever `robots` changes.
   */
  matcherFor: string | null;
  matcher: PoolMatcher | null;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/** Bytes an origin costs in memory: each distinct body twice (bytes and parsed copy), plus bookkeeping. */
function weightOf(history: readonly RetrievalResult[]): number {
  if (history.length === 1) return 1024 + 2 * (history[0]!.body?.length ?? 0);
  const bodies = new Set<Uint8Array>();
  for (const entry of history) if (entry.body !== null) bodies.add(entry.body);
  let weight = 1024 * history.length;
  for (const body of bodies) weight += 2 * body.length;
  return weight;
}

function checkStored(record: unknown, origin: string): StoredOrigin {
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

/**
 * Creates a crawl client: `isAllowed`, `explain`, `crawlDelay` and `sitemaps` for any URL, with each origin's
 * robots.txt fetched when first needed and again when its cache lifetime ends.
 *
 * - **One fetch at a time per origin**: concurrent questions about an origin share its in-flight fetch (10,000
 *   parallel `isAllowed` calls over 100 origins make 100 requests).
 * - **Caching as Google does**: 24 h by default, `Cache-Control: max-age` within bounds; failed fetches retried with
 *   backoff (sooner for 503, `Retry-After` respected); see {@link refreshSchedule}.
 * - **Never fails open**: a robots.txt that answers 5xx or 429, times out or cannot be reached disallows everything at
 *   first; after 12 h of failures the last good version applies, and after 30 days the configured choice (see
 *   {@link effectivePolicy}).
 * - **Bounded memory**: at most `maxOrigins` origins and about `maxCachedBytes` of files, least recently used
 *   forgotten (and fetched again, or read from the store, when needed).
 * - **Pluggable store** ({@link RobotsStore}) behind the memory cache, for persistence or sharing.
 *
 * Questions wait for their origin's fetch, which is bounded by the retrieval timeouts (30 s in total by default).
 * @example
 * const client = createRobotsClient({ userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)' });
 * if (await client.isAllowed('https://example.com/page')) crawl('https://example.com/page');
 */
export function createRobotsClient(options: RobotsClientOptions): RobotsClient {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const userAgent = options.userAgent;
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    throw new TypeError('userAgent must be a non-empty string (a product token or a full User-Agent)');
  }
  const clock = options.clock ?? systemClock;
  /** The clock of answers from memory (see {@link RobotsClientOptions.clock}). */
  const hitClock = options.clock ?? systemTurnClock();
  const store = options.store;
  const onStoreError = options.onStoreError;
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
  // Check the option objects now rather than at the first question.
  effectivePolicy([], 0, availability);
  refreshSchedule([], availability);
  parseRobotsTxt('', { dialect });

  const cache = new LruMap<string, CachedOrigin>(maxOrigins, maxCachedBytes);
  const inflight = new Map<string, Load>();
  const parsed = new WeakMap<RetrievalResult, RobotsTxt>();
  const counters = {
    fetches: 0,
    hits: 0,
    joined: 0,
    loads: 0,
    storeReads: 0,
    storeWrites: 0,
    storeErrors: 0,
    fleetWaits: 0,
    fleetTimeouts: 0,
  };
  const fleet = fleetSettings(options.fleet);
  // The fetch slots: `active` fetches run, the rest wait in `waiting` (FIFO) for one to end.
  let active = 0;
  const waiting: (() => void)[] = [];
  let waitingHead = 0;

  async function limitedFetch(origin: string): Promise<RetrievalResult> {
    if (active >= maxConcurrentFetches) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      active++;
    }
    try {
      return await fetchRobotsTxt(origin, retrieval);
    } finally {
      // Hand the slot to the next waiter (it counts as active already), or free it.
      if (waitingHead < waiting.length) {
        const next = waiting[waitingHead]!;
        waiting[waitingHead++] = noop;
        if (waitingHead > 1024 && waitingHead * 2 > waiting.length) {
          waiting.splice(0, waitingHead);
          waitingHead = 0;
        }
        next();
      } else {
        active--;
      }
    }
  }

  function robotsOf(result: RetrievalResult | null): RobotsTxt | null {
    if (result === null || result.outcome !== 'rules' || result.body === null) return null;
    let robots = parsed.get(result);
    if (robots === undefined) {
      robots = parseRobotsTxt(result.body, { maxBytes: result.body.length, dialect });
      parsed.set(result, robots);
    }
    return robots;
  }

  async function readStore(origin: string): Promise<readonly RetrievalResult[]> {
    if (store === undefined) return [];
    counters.storeReads++;
    try {
      const record = await store.get(origin);
      return record === undefined ? [] : checkStored(record, origin).history;
    } catch (error) {
      if (onStoreError === undefined) throw error;
      counters.storeErrors++;
      onStoreError(error, 'get', origin);
      return [];
    }
  }

  async function writeStore(origin: string, history: readonly RetrievalResult[]): Promise<void> {
    if (store === undefined) return;
    counters.storeWrites++;
    try {
      await store.set(origin, { origin, history });
    } catch (error) {
      if (onStoreError === undefined) throw error;
      counters.storeErrors++;
      onStoreError(error, 'set', origin);
    }
  }

  function remember(
    origin: string,
    history: readonly RetrievalResult[],
    lastFetch: RetrievalResult | null = history[history.length - 1] ?? null,
  ): CachedOrigin {
    const entry: CachedOrigin = {
      origin,
      robotsUrl: `${origin}/robots.txt`,
      history,
      lastFetch,
      nextFetchAt: refreshSchedule(history, availability).at,
      policy: null,
      policyUntil: Number.NEGATIVE_INFINITY,
      robots: null,
      matcherFor: null,
      matcher: null,
    };
    cache.set(origin, entry, weightOf(history));
    return entry;
  }

  interface Load {
    readonly promise: Promise<CachedOrigin>;
    /** `fetching` is set once the load has decided to fetch (rather than use what the store had). */
    readonly flags: { fetching: boolean };
  }

  const isFresh = (history: readonly RetrievalResult[]): boolean =>
    history.length > 0 && clock.now() < refreshSchedule(history, availability).at;
  const latestAt = (history: readonly RetrievalResult[]): number =>
    history[history.length - 1]?.fetchedAt ?? Number.NEGATIVE_INFINITY;

  async function load(
    origin: string,
    known: CachedOrigin | undefined,
    force: boolean,
    flags: { fetching: boolean },
  ): Promise<CachedOrigin> {
    counters.loads++;
    // Without a store, nothing to wait for before fetching.
    let history = known?.history ?? (store === undefined ? [] : await readStore(origin));
    if (!force && isFresh(history)) return remember(origin, history);
    if (store?.acquireLease !== undefined && store.releaseLease !== undefined) {
      if (known !== undefined) {
        // Another process may have fetched since this one did.
        const stored = await readStore(origin);
        if (latestAt(stored) > latestAt(history)) history = stored;
        if (!force && isFresh(history)) return remember(origin, history);
      }
      return fleetLoad(origin, history, force, flags, fleet, store as RobotsStore & LeasingStore);
    }
    return fetchAndKeep(origin, history, flags);
  }

  async function fetchAndKeep(
    origin: string,
    history: readonly RetrievalResult[],
    flags: { fetching: boolean },
  ): Promise<CachedOrigin> {
    flags.fetching = true;
    counters.fetches++;
    const result = await limitedFetch(origin);
    const next = compactHistory([...history, result]);
    // Keep the fetch in memory even if the store write fails: it is what applies now.
    const entry = remember(origin, next, result);
    if (store !== undefined) await writeStore(origin, next);
    return entry;
  }

  /** Fetches under the origin's lease, or waits for the process that holds it (see {@link FleetOptions}). */
  async function fleetLoad(
    origin: string,
    history: readonly RetrievalResult[],
    force: boolean,
    flags: { fetching: boolean },
    settings: FleetSettings,
    leasing: LeasingStore,
  ): Promise<CachedOrigin> {
    const since = latestAt(history);
    const answered = (stored: readonly RetrievalResult[]): boolean =>
      latestAt(stored) > since || (!force && isFresh(stored));
    const giveUpAt = Date.now() + settings.waitMs;
    let waited = false;
    for (;;) {
      let held: boolean;
      try {
        held = await leasing.acquireLease(origin, settings.holder, settings.leaseMs);
      } catch (error) {
        if (onStoreError === undefined) throw error;
        counters.storeErrors++;
        onStoreError(error, 'lease', origin);
        return fetchAndKeep(origin, history, flags);
      }
      if (held) {
        try {
          // The holder before may have written its record between this process's read and its lease.
          const stored = await readStore(origin);
          if (answered(stored)) return remember(origin, stored);
          return await fetchAndKeep(origin, latestAt(stored) > since ? stored : history, flags);
        } finally {
          try {
            await leasing.releaseLease(origin, settings.holder);
          } catch (error) {
            // The lease expires on its own; only report it.
            counters.storeErrors++;
            onStoreError?.(error, 'lease', origin);
          }
        }
      }
      if (!waited) counters.fleetWaits++;
      waited = true;
      if (Date.now() >= giveUpAt) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(settings.pollMs, giveUpAt - Date.now())));
      const stored = await readStore(origin);
      if (answered(stored)) return remember(origin, stored);
    }
    counters.fleetTimeouts++;
    const gaveUp = unanswered(origin, clock.now(), settings.waitMs);
    return remember(origin, compactHistory([...history, gaveUp]), gaveUp);
  }

  function startLoad(origin: string, known: CachedOrigin | undefined, force: boolean): Promise<CachedOrigin> {
    // Without a store read to make first, the load fetches at once.
    const flags = { fetching: force || known !== undefined || store === undefined };
    const settled = (): void => {
      if (inflight.get(origin) === self) inflight.delete(origin);
    };
    // Two handlers rather than `finally`, which costs a promise and two reactions more per load.
    const promise = Promise.resolve()
      .then(() => load(origin, known, force, flags))
      .then(
        (entry) => {
          settled();
          return entry;
        },
        (error: unknown) => {
          settled();
          throw error;
        },
      );
    const self: Load = { promise, flags };
    inflight.set(origin, self);
    return promise;
  }

  /** {@link stateOf} for the origin {@link locate} has just returned, without looking it up again in memory. */
  function stateOfLocated(origin: string): Promise<CachedOrigin> | CachedOrigin {
    const load = locatedLoad;
    const entry = locatedEntry;
    // Not kept past the question (an origin forgotten since must not stay in memory through them).
    locatedLoad = undefined;
    locatedEntry = undefined;
    if (load !== undefined) return joined(origin, load, false);
    if (entry !== undefined) return cachedState(origin, entry, false);
    return stateOf(origin, false);
  }

  function stateOf(origin: string, force: boolean): Promise<CachedOrigin> | CachedOrigin {
    const pending = inflight.size === 0 ? undefined : inflight.get(origin);
    if (pending !== undefined) return joined(origin, pending, force);
    return cachedState(origin, cache.get(origin), force);
  }

  /** {@link stateOf} when a load of the origin is in flight. */
  function joined(origin: string, pending: Load, force: boolean): Promise<CachedOrigin> {
    counters.joined++;
    // A recrawl joins a fetch in flight, but not a load that is only reading the store.
    if (force && !pending.flags.fetching) {
      return pending.promise.then(
        () => stateOf(origin, true),
        () => stateOf(origin, true),
      );
    }
    return pending.promise;
  }

  /** {@link stateOf} when no load of the origin is in flight; `known` is what memory holds. */
  function cachedState(
    origin: string,
    known: CachedOrigin | undefined,
    force: boolean,
  ): Promise<CachedOrigin> | CachedOrigin {
    if (known !== undefined && !force) {
      const now = hitClock.now();
      if (now < known.nextFetchAt) {
        counters.hits++;
        hit.now = now;
        return known;
      }
    }
    return startLoad(origin, known, force);
  }

  /**
   * The origin of a URL string when it is in memory or being loaded and the rest of the string (path, query, fragment)
   * is in the WHATWG parser's form; else null. The origin in memory vouches for the string's start: every key of
   * `cache` and `inflight` is an origin the parser wrote, so the host is not read again (and no `new URL`). The start is
   * looked up before the rest is read: a start that is no key (not an origin the client keeps, or not an origin at all)
   * costs a failed lookup, and a known one is not read a second time.
   */
  function knownOrigin(url: string): string | null {
    const end = originEndIfKnown(url);
    const origin = url.slice(0, end);
    // Looked up once for the whole question: what is found is kept for {@link stateOfLocated} (an entry is marked
    // used, as the question is about to use it; a URL whose rest needs the parser has the same origin).
    const pending = inflight.size === 0 ? undefined : inflight.get(origin);
    if (pending !== undefined) {
      if (!canonicalAfter(url, end)) return null;
      locatedLoad = pending;
      return origin;
    }
    const entry = cache.get(origin);
    if (entry === undefined || !canonicalAfter(url, end)) return null;
    locatedEntry = entry;
    return origin;
  }

  /**
   * The clock's reading when {@link stateOf} last answered from memory (so a hit reads the clock once). A field, not a
   * variable of this closure: V8 boxes each new time stored in a closure's variable (a time is no small integer), but
   * writes a number field in place.
   */
  const hit = { now: 0 };

  /** `clockNow`: the clock's reading, when the caller has just read it (one read per URL). */
  function policyOf(entry: CachedOrigin, clockNow = clock.now()): EffectivePolicy<RetrievalResult> {
    if (clockNow < entry.policyUntil) return entry.policy!;
    // Everything in the history is known now, even if the clock says otherwise (a store written by another machine).
    const latest = entry.history[entry.history.length - 1];
    const latestAt = latest === undefined ? 0 : latest.fetchedAt;
    const now = Math.max(clockNow, latestAt);
    const cached = entry.policy;
    if (cached !== null && (cached.until === null || now < cached.until)) return cached;
    const policy = effectivePolicy(entry.history, now, availability);
    entry.policy = policy;
    // The policy holds while max(clock, latestAt) < until, that is while the clock is below `policyUntil`.
    const until = policy.until ?? Number.POSITIVE_INFINITY;
    entry.policyUntil = latestAt < until ? until : Number.NEGATIVE_INFINITY;
    entry.robots = policy.mode === 'rules' ? robotsOf(policy.source) : null;
    entry.matcherFor = null;
    return policy;
  }

  /** The fetch to report as the latest: the timeline's, or the last one made when the timeline ignores it. */
  function latestOf(entry: CachedOrigin, policy: EffectivePolicy<RetrievalResult>): RetrievalResult {
    return policy.latest ?? entry.lastFetch!;
  }

  function originPolicy(entry: CachedOrigin): OriginPolicy {
    const policy = policyOf(entry);
    return {
      origin: entry.origin,
      robotsUrl: entry.robotsUrl,
      policy,
      robots: entry.robots,
      latest: latestOf(entry, policy),
      history: entry.history,
      nextFetchAt: entry.nextFetchAt,
    };
  }

  /** What {@link locate} found to match: the URL string itself when it is in canonical form, else the parsed URL. */
  let located: string | URL = '';
  /**
   * What {@link locate} found for the origin it returned, when it looked: its load in flight, or else its cache entry
   * (both undefined when it did not look, or found neither).
   */
  let locatedLoad: Load | undefined;
  let locatedEntry: CachedOrigin | undefined;

  /**
   * The origin of a URL; sets {@link located}. A string already in the WHATWG parser's form (most URLs a crawler has)
   * is sliced rather than parsed: the same origin and the same path to match (see {@link knownOrigin} for an origin in
   * memory, else {@link simpleOriginEnd}).
   * @throws RobotsUrlError when the URL is not an absolute http, https or ftp URL.
   */
  function locate(url: string | URL): string {
    locatedLoad = undefined;
    locatedEntry = undefined;
    if (typeof url === 'string') {
      const known = knownOrigin(url);
      if (known !== null) {
        located = url;
        return known;
      }
      const end = simpleOriginEnd(url);
      if (end > 0) {
        located = url;
        return url.slice(0, end);
      }
    }
    const parsedUrl = parseRobotsScopedUrl(url);
    located = parsedUrl;
    return `${parsedUrl.protocol}//${parsedUrl.host}`;
  }

  /** The serialised URL of a target from {@link locate}: the parser adds the `/` of an empty path. */
  function hrefOf(target: string | URL, origin: string): string {
    return typeof target === 'string' ? canonicalHref(target, origin.length) : target.href;
  }

  /** The path to match of a target from {@link locate}: a string is sliced after its origin, not read again. */
  function pathOf(target: string | URL, originEnd: number): string {
    return typeof target === 'string' ? canonicalPath(target, originEnd) : pathToMatch(target);
  }

  function allowedBy(entry: CachedOrigin, target: string | URL, ua: CrawlerInput, now?: number): boolean {
    const policy = policyOf(entry, now);
    // `robots` is set exactly when the policy is to follow rules: the policy object itself is not read then.
    const robots = entry.robots;
    if (robots === null) return policy.mode === 'allow-all';
    if (entry.matcherFor !== ua) {
      entry.matcher = matcherOf(robots, ua);
      entry.matcherFor = typeof ua === 'string' ? ua : null;
    }
    const matcher = entry.matcher;
    // The entry is the one of the target's origin, whose length is where a string target's path starts.
    return matcher === null || matcher.allows(pathOf(target, entry.origin.length));
  }

  function verdictOf(
    entry: CachedOrigin,
    origin: string,
    target: string | URL,
    ua: CrawlerInput,
    now?: number,
  ): UrlVerdict {
    const policy = policyOf(entry, now);
    const robots = entry.robots;
    const explanation = robots === null ? null : explainPath(robots, pathOf(target, origin.length), ua);
    return {
      url: hrefOf(target, origin),
      allowed: explanation === null ? policy.mode === 'allow-all' : explanation.allowed,
      origin,
      robotsUrl: entry.robotsUrl,
      line: explanation === null ? 0 : explanation.line,
      rule: explanation === null ? null : explanation.rule,
      explanation,
      policy,
      latest: latestOf(entry, policy),
    };
  }

  // The answers once a load ends, made in functions of their own: a function whose variables a closure keeps gets them a
  // context object on every call, so `isAllowed` and `verdict` would allocate one even when answering from memory.
  function allowedLater(state: Promise<CachedOrigin>, target: string | URL, ua: CrawlerInput): Promise<boolean> {
    return state.then((entry) => allowedBy(entry, target, ua));
  }

  function verdictLater(
    state: Promise<CachedOrigin>,
    origin: string,
    target: string | URL,
    ua: CrawlerInput,
  ): Promise<UrlVerdict> {
    return state.then((entry) => verdictOf(entry, origin, target, ua));
  }

  function verdict(url: string | URL, ua: CrawlerInput): Promise<UrlVerdict> {
    try {
      const origin = locate(url);
      const target = located;
      const state = stateOfLocated(origin);
      if (state instanceof Promise) return verdictLater(state, origin, target, ua);
      return Promise.resolve(verdictOf(state, origin, target, ua, hit.now));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  return {
    userAgent,
    crawler,
    // Not async: an origin in memory is answered at once, without suspending (one resolved promise per call).
    isAllowed(url, ua = crawler) {
      try {
        const origin = locate(url);
        const target = located;
        const state = stateOfLocated(origin);
        if (state instanceof Promise) return allowedLater(state, target, ua);
        // Resolved promises hold no state: two serve every answer from memory.
        return allowedBy(state, target, ua, hit.now) ? ALLOWED : REFUSED;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    explain: (url, ua = crawler) => verdict(url, ua),
    peek(url, ua = crawler) {
      const origin = locate(url);
      const target = located;
      const load = locatedLoad;
      const entry = locatedEntry;
      locatedLoad = undefined;
      locatedEntry = undefined;
      if (load !== undefined) return null;
      if (entry === undefined && inflight.size !== 0 && inflight.has(origin)) return null;
      const known = entry ?? cache.get(origin);
      if (known === undefined) return null;
      const now = hitClock.now();
      if (now >= known.nextFetchAt) return null;
      counters.hits++;
      return verdictOf(known, origin, target, ua, now);
    },
    async crawlDelay(url, ua = crawler) {
      const entry = await stateOf(locate(url), false);
      policyOf(entry);
      const robots = entry.robots;
      return robots === null ? null : crawlDelayOf(robots, ua);
    },
    async sitemaps(originOrUrl) {
      const entry = await stateOf(locate(originOrUrl), false);
      for (let i = entry.history.length - 1; i >= 0; i--) {
        const robots = robotsOf(entry.history[i]!);
        if (robots !== null) return robots.sitemaps;
      }
      return [];
    },
    async policyFor(originOrUrl) {
      return originPolicy(await stateOf(locate(originOrUrl), false));
    },
    async refresh(originOrUrl) {
      return originPolicy(await stateOf(locate(originOrUrl), true));
    },
    stats() {
      return {
        origins: cache.size,
        cachedBytes: cache.weight,
        evictions: cache.evictions,
        activeFetches: active,
        queuedFetches: waiting.length - waitingHead,
        ...counters,
      };
    },
  };
}
