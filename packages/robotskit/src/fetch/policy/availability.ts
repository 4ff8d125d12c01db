/**
 * What applies to an origin now, given its robots.txt fetch history: the availability timeline of Search Console's
 * robots.txt report (seed 003), on top of RFC 9309's status classes. Pure functions of (history, now, options): no
 * clock, no I/O, so a report service, a crawler and a test can replay any history at any time.
 *
 * The timeline of a run of failed fetches (`disallow-all` outcomes), counted from the first failure:
 * 1. for the first 12 hours, crawling stops (disallow all);
 * 2. then, until 30 days, the last good fetch applies: its rules, or "allow all" if it found no robots.txt; with no
 *    good fetch ever, crawling stays stopped;
 * 3. after 30 days, by default (`afterLastGoodPeriod: 'allow-if-site-reachable'`, seed 003): allow all if the site is
 *    otherwise reachable, else crawling stays stopped. Google's other text (seed 000) says instead: keep using the last
 *    cached copy, and with none assume no restrictions: that is `'keep-last-good-version'`.
 */

import { describeFetchOutcome } from '../retrieval/outcome-words.js';
import { nonNegativeMs } from '../shared/options.js';
import { DEFAULT_DISALLOW_PERIOD, DEFAULT_LAST_GOOD_VERSION_PERIOD, shortSpan } from '../shared/periods.js';
import type { RetrievalErrorKind, RetrievalHeaders, RetrievalOutcome, RetrievalResult } from '../shared/types.js';
import {
  type CacheOptions,
  cacheLifetime,
  type RetryOptions,
  resolveCacheOptions,
  resolveRetryOptions,
  retryDelay,
} from './cache-lifetime.js';

/**
 * The facts of one fetch the timeline reads. A {@link RetrievalResult} is one; a stored row with these columns is one
 * too.
 */
export interface FetchObservation {
  /** When the fetch started, epoch milliseconds. */
  readonly fetchedAt: number;
  readonly outcome: RetrievalOutcome;
  /** HTTP status; null when no response arrived (the site is then taken as unreachable). */
  readonly status: number | null;
  /**
   * Fetches with error kind `aborted` say nothing about the site and are ignored. The code and phase, when known,
   * word the policy's message (`FTP login refused (530)`, not a status taken for HTTP's).
   */
  readonly error: {
    readonly kind: RetrievalErrorKind;
    readonly code?: string | null;
    readonly phase?: 'request' | 'body';
  } | null;
  readonly headers: Pick<RetrievalHeaders, 'cacheControl' | 'retryAfter' | 'date'>;
}

/** What to do after the last good version has been used for `lastGoodVersionPeriod`. */
export type AfterLastGoodPeriod =
  /** Seed 003 (Search Console): allow all if the site is otherwise reachable, else keep crawling stopped. */
  | 'allow-if-site-reachable'
  /** Seed 000: keep using the last good version; with none, allow all. */
  | 'keep-last-good-version';

/** Options of {@link effectivePolicy} and {@link refreshSchedule}. Durations in milliseconds. */
export interface AvailabilityOptions {
  /**
   * How long failures stop crawling before the last good version is used.
   * @default 43200000 (12 h)
   */
  readonly disallowPeriod?: number;
  /**
   * How long after the first failure the last good version may be used.
   * @default 2592000000 (30 days)
   */
  readonly lastGoodVersionPeriod?: number;
  /**
   * What applies once `lastGoodVersionPeriod` has passed.
   * @default 'allow-if-site-reachable'
   */
  readonly afterLastGoodPeriod?: AfterLastGoodPeriod;
  /**
   * Whether the site is otherwise reachable (its pages load), for `'allow-if-site-reachable'`. A crawler knows this
   * from its other fetches. When not given, the site counts as reachable when its server answered the last robots.txt
   * fetch with an HTTP status (5xx, 429), and as unreachable after DNS, connection, TLS and timeout failures.
   */
  readonly siteReachable?: boolean;
  /** Cache lifetime of successful fetches (see {@link cacheLifetime}). */
  readonly cache?: CacheOptions;
  /** Retries of failed fetches (see {@link retryDelay}). */
  readonly retry?: RetryOptions;
}

/**
 * Why a policy applies. Stable kebab-case codes:
 * - `not-fetched`: no fetch yet (disallow-all until the first one).
 * - `fetched`: the latest fetch succeeded; its rules apply.
 * - `not-found`: the latest fetch found no robots.txt (4xx, or redirects that lead nowhere): allow all.
 * - `unreachable`: fetches have failed for less than `disallowPeriod` (12 h): disallow all.
 * - `last-good-version`: failing for 12 h to 30 days; the rules of the last good fetch apply.
 * - `last-good-not-found`: failing for 12 h to 30 days; the last good fetch found no robots.txt: allow all.
 * - `no-good-version`: failing for 12 h to 30 days and no fetch ever succeeded: disallow all.
 * - `long-unreachable-site-up`: failing for over 30 days, the site is otherwise reachable: allow all.
 * - `long-unreachable-site-down`: failing for over 30 days, the site is unreachable too: disallow all.
 * - `long-unreachable-last-good-version`: failing for over 30 days; `'keep-last-good-version'` keeps its rules.
 * - `long-unreachable-no-copy`: failing for over 30 days; `'keep-last-good-version'` with no cached rules: allow all.
 */
export type PolicyReason =
  | 'not-fetched'
  | 'fetched'
  | 'not-found'
  | 'unreachable'
  | 'last-good-version'
  | 'last-good-not-found'
  | 'no-good-version'
  | 'long-unreachable-site-up'
  | 'long-unreachable-site-down'
  | 'long-unreachable-last-good-version'
  | 'long-unreachable-no-copy';

/** What applies to an origin at a given time, and why. */
export interface EffectivePolicy<T extends FetchObservation = RetrievalResult> {
  /** `rules`: the rules of `source` decide; `allow-all`; `disallow-all`. */
  readonly mode: RetrievalOutcome;
  readonly reason: PolicyReason;
  /** The reason in words, with dates. */
  readonly message: string;
  /** The fetch whose outcome applies (the latest, or the last good one during failures); null when none does. */
  readonly source: T | null;
  /** The latest fetch considered; null when none. */
  readonly latest: T | null;
  /**
   * When the current state began: the first fetch of the latest run of fetches with the same outcome (for failures:
   * the first failure). Null when never fetched. "Not found for 30 days" is `reason === 'not-found' && now - since
   * >= 30 days`.
   */
  readonly since: number | null;
  /**
   * When this policy changes by the passage of time alone, if no fetch succeeds before (the 12 h and 30 day
   * boundaries); null when only a new fetch can change it.
   */
  readonly until: number | null;
}

/** When to fetch an origin's robots.txt again. */
export interface RefreshSchedule {
  /** Epoch milliseconds. 0 when the origin was never fetched: due at once. */
  readonly at: number;
  /**
   * `first-fetch`: never fetched; `cache-lifetime`: the good fetch expires (24 h or its `max-age`); `retry-after`: a
   * failed fetch asked for this wait; `backoff`: a failed fetch is retried on the doubling schedule.
   */
  readonly reason: 'first-fetch' | 'cache-lifetime' | 'retry-after' | 'backoff';
}

interface ResolvedOptions {
  readonly disallowPeriod: number;
  readonly lastGoodVersionPeriod: number;
  readonly afterLastGoodPeriod: AfterLastGoodPeriod;
  readonly siteReachable: boolean | undefined;
}

function resolve(options: AvailabilityOptions): ResolvedOptions {
  const after = options.afterLastGoodPeriod ?? 'allow-if-site-reachable';
  if (after !== 'allow-if-site-reachable' && after !== 'keep-last-good-version') {
    throw new RangeError("afterLastGoodPeriod must be 'allow-if-site-reachable' or 'keep-last-good-version'");
  }
  if (options.siteReachable !== undefined && typeof options.siteReachable !== 'boolean') {
    throw new TypeError('siteReachable must be a boolean');
  }
  return {
    disallowPeriod: nonNegativeMs(options.disallowPeriod, DEFAULT_DISALLOW_PERIOD, 'disallowPeriod'),
    lastGoodVersionPeriod: nonNegativeMs(
      options.lastGoodVersionPeriod,
      DEFAULT_LAST_GOOD_VERSION_PERIOD,
      'lastGoodVersionPeriod',
    ),
    afterLastGoodPeriod: after,
    siteReachable: options.siteReachable,
  };
}

function checkTime(now: number): void {
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new TypeError('now must be epoch milliseconds');
}

/** The history in time order, without aborted fetches and (when `now` is given) without fetches after `now`. */
function relevant<T extends FetchObservation>(history: readonly T[], now?: number): T[] {
  if (!Array.isArray(history)) throw new TypeError('history must be an array of fetches');
  const out: T[] = [];
  let sorted = true;
  for (const entry of history) {
    if (entry.error?.kind === 'aborted') continue;
    if (now !== undefined && entry.fetchedAt > now) continue;
    if (out.length > 0 && out[out.length - 1]!.fetchedAt > entry.fetchedAt) sorted = false;
    out.push(entry);
  }
  if (!sorted) out.sort((a, b) => a.fetchedAt - b.fetchedAt);
  return out;
}

/** Index of the first entry of the trailing run of entries with the latest one's outcome. */
function runStart(entries: readonly FetchObservation[]): number {
  let i = entries.length - 1;
  const outcome = entries[i]!.outcome;
  while (i > 0 && entries[i - 1]!.outcome === outcome) i--;
  return i;
}

/** The last time {@link iso} wrote, and what it wrote: a crawl's fetches start within the same milliseconds. */
let lastIsoMs = Number.NaN;
let lastIso = '';

function iso(ms: number): string {
  if (ms === lastIsoMs) return lastIso;
  const text = Number.isFinite(ms) ? new Date(ms).toISOString().replace('.000Z', 'Z') : String(ms);
  lastIsoMs = ms;
  lastIso = text;
  return text;
}

function failureText(entry: FetchObservation): string {
  // Without its phase, a status with an error is taken as an answer that began (HTTP 200) and then failed (a reset, a
  // timeout in the body…); an FTP reply's error says its own phase (`request`) and code.
  const phase: 'request' | 'body' = entry.error?.phase ?? (entry.status === null ? 'request' : 'body');
  // Only the facts the words read (outcome, status, error): not a copy of the whole fetch.
  const error = entry.error === null ? null : { ...entry.error, phase };
  return describeFetchOutcome({ outcome: entry.outcome, status: entry.status, error }).summary;
}

/**
 * What applies to an origin at `now`, and why, from its fetch history (see the module comment for the timeline).
 *
 * `history` is the origin's fetches in any order; fetches after `now` and aborted ones are ignored, so one history can
 * be asked about any moment. Only three fetches matter: the latest, the first of its run of same-outcome fetches, and
 * (during failures) the last good fetch before them; {@link compactHistory} keeps just those.
 *
 * Never fails open: with no fetch, or failures and nothing good to fall back on, the policy is `disallow-all`.
 * @example
 * const policy = effectivePolicy(history, Date.now());
 * if (policy.mode === 'rules') robotsTxtOf(policy.source!)!.isAllowed(url, 'MyBot');
 */
export function effectivePolicy<T extends FetchObservation>(
  history: readonly T[],
  now: number,
  options: AvailabilityOptions = {},
): EffectivePolicy<T> {
  checkTime(now);
  const o = resolve(options);
  const entries = relevant(history, now);
  const latest = entries[entries.length - 1];
  if (latest === undefined) {
    return {
      mode: 'disallow-all',
      reason: 'not-fetched',
      message: 'robots.txt not fetched yet: nothing may be crawled until it is',
      source: null,
      latest: null,
      since: null,
      until: null,
    };
  }
  const start = runStart(entries);
  const since = entries[start]!.fetchedAt;
  // `latest` and `since` are written out in each policy rather than spread from a shared object: a spread followed by
  // more properties takes V8's slow path (about 2 µs a policy, once per origin load).
  if (latest.outcome === 'rules') {
    return {
      latest,
      since,
      mode: 'rules',
      reason: 'fetched',
      // No status: a file read over FTP.
      message: `robots.txt fetched at ${iso(latest.fetchedAt)}${latest.status === null ? '' : ` (HTTP ${latest.status})`}; its rules apply`,
      source: latest,
      until: null,
    };
  }
  if (latest.outcome === 'allow-all') {
    const why = describeFetchOutcome(latest).summary;
    return {
      latest,
      since,
      mode: 'allow-all',
      reason: 'not-found',
      message: `no robots.txt (${why}) since ${iso(since)}: everything may be crawled`,
      source: latest,
      until: null,
    };
  }

  return failingPolicy(entries, start, now, o);
}

/** {@link effectivePolicy} while the latest fetch failed: the run of failures began at `entries[start]`. */
function failingPolicy<T extends FetchObservation>(
  entries: readonly T[],
  start: number,
  now: number,
  o: ResolvedOptions,
): EffectivePolicy<T> {
  const latest = entries[entries.length - 1]!;
  const since = entries[start]!.fetchedAt;
  const lastGood = start > 0 ? entries[start - 1]! : null;
  const failing = `robots.txt unreachable since ${iso(since)} (latest: ${failureText(latest)})`;
  const elapsed = now - since;
  if (elapsed < o.disallowPeriod) {
    return {
      latest,
      since,
      mode: 'disallow-all',
      reason: 'unreachable',
      message: `${failing}: crawling stops for the first ${shortSpan(o.disallowPeriod)}`,
      source: null,
      until: since + o.disallowPeriod,
    };
  }
  if (elapsed >= o.lastGoodVersionPeriod) return longFailingPolicy(latest, since, lastGood, o);
  const until = since + o.lastGoodVersionPeriod;
  const limit = `for up to ${shortSpan(o.lastGoodVersionPeriod)}`;
  if (lastGood === null) {
    return {
      latest,
      since,
      mode: 'disallow-all',
      reason: 'no-good-version',
      message: `${failing}; never fetched successfully, so crawling stays stopped`,
      source: null,
      until,
    };
  }
  if (lastGood.outcome === 'rules') {
    return {
      latest,
      since,
      mode: 'rules',
      reason: 'last-good-version',
      message: `${failing}; the last good version (fetched ${iso(lastGood.fetchedAt)}) applies ${limit}`,
      source: lastGood,
      until,
    };
  }
  return {
    latest,
    since,
    mode: 'allow-all',
    reason: 'last-good-not-found',
    message: `${failing}; the last good fetch (${iso(lastGood.fetchedAt)}) found no robots.txt, so everything may be crawled ${limit}`,
    source: lastGood,
    until,
  };
}

/** {@link failingPolicy} once the failures have lasted `lastGoodVersionPeriod`: what `afterLastGoodPeriod` says. */
function longFailingPolicy<T extends FetchObservation>(
  latest: T,
  since: number,
  lastGood: T | null,
  o: ResolvedOptions,
): EffectivePolicy<T> {
  const long = `robots.txt unreachable for over ${shortSpan(o.lastGoodVersionPeriod)} (since ${iso(since)}, latest: ${failureText(latest)})`;
  if (o.afterLastGoodPeriod === 'keep-last-good-version') {
    if (lastGood !== null && lastGood.outcome === 'rules') {
      return {
        latest,
        since,
        mode: 'rules',
        reason: 'long-unreachable-last-good-version',
        message: `${long}; the last good version (fetched ${iso(lastGood.fetchedAt)}) still applies`,
        source: lastGood,
        until: null,
      };
    }
    return {
      latest,
      since,
      mode: 'allow-all',
      reason: 'long-unreachable-no-copy',
      message: `${long}; no cached rules, so everything may be crawled`,
      source: lastGood,
      until: null,
    };
  }
  const reachable = o.siteReachable ?? latest.status !== null;
  return {
    latest,
    since,
    mode: reachable ? 'allow-all' : 'disallow-all',
    reason: reachable ? 'long-unreachable-site-up' : 'long-unreachable-site-down',
    message: reachable
      ? `${long}; the site is otherwise reachable, so it is treated as having no robots.txt`
      : `${long}; the site is unreachable too, so crawling stays stopped`,
    source: null,
    until: null,
  };
}

/** Options of {@link refreshSchedule}: the availability options, and where the current run of failures began. */
export interface RefreshOptions extends AvailabilityOptions {
  /**
   * When the current run of failed fetches began, for a caller that does not keep the whole run (a report service
   * stores the latest fetch and the run's start). Used only when the latest fetch in `history` failed and the time is
   * earlier than the run `history` shows; the retry backoff doubles from there.
   */
  readonly failingSince?: number | null;
}

/**
 * When to fetch again: a good fetch when its cache lifetime ends (24 h, or its `max-age` within bounds; see
 * {@link cacheLifetime}); a failed one when its retry is due (its `Retry-After`, else the doubling backoff counted
 * from the first failure of the run; see {@link retryDelay}). A report service stores `at` as the file's next due time.
 * @example refreshSchedule([latest], { failingSince: firstFailureAt }).at
 */
export function refreshSchedule(history: readonly FetchObservation[], options: RefreshOptions = {}): RefreshSchedule {
  resolve(options);
  const cache = resolveCacheOptions(options.cache);
  const retry = resolveRetryOptions(options.retry);
  const entries = relevant(history);
  const latest = entries[entries.length - 1];
  if (latest === undefined) return { at: 0, reason: 'first-fetch' };
  if (latest.outcome !== 'disallow-all') {
    return { at: latest.fetchedAt + cacheLifetime(latest, cache).ttl, reason: 'cache-lifetime' };
  }
  let since = entries[runStart(entries)]!.fetchedAt;
  const { failingSince } = options;
  if (failingSince !== undefined && failingSince !== null) {
    checkTime(failingSince);
    if (failingSince < since) since = failingSince;
  }
  const { delay, source } = retryDelay(latest, since, retry);
  return { at: latest.fetchedAt + delay, reason: source };
}

/** The availability timeline's periods as configured, and the timeline in words, for reports that explain it. */
export interface AvailabilityRules {
  /** How long failures stop crawling, milliseconds (`disallowPeriod`, 12 h by default). */
  readonly disallowPeriod: number;
  /** How long after the first failure the last good version may be used, milliseconds (30 days by default). */
  readonly lastGoodVersionPeriod: number;
  readonly afterLastGoodPeriod: AfterLastGoodPeriod;
  /** The periods in words: `12 h`, `30 days`. */
  readonly words: { readonly disallowPeriod: string; readonly lastGoodVersionPeriod: string };
  /** The whole timeline in one paragraph, with the configured periods. */
  readonly summary: string;
}

/**
 * The availability timeline as `options` configure it, with its words: what a report says about failed fetches
 * without writing the periods itself.
 * @example availabilityRules().summary // 'When robots.txt cannot be fetched (a server error, 429, …), crawling stops for 12 h; …'
 */
export function availabilityRules(options: AvailabilityOptions = {}): AvailabilityRules {
  const o = resolve(options);
  const first = shortSpan(o.disallowPeriod);
  const last = shortSpan(o.lastGoodVersionPeriod);
  const after =
    o.afterLastGoodPeriod === 'allow-if-site-reachable'
      ? 'everything may be crawled if the rest of the site is reachable, and crawling stays stopped if it is not'
      : 'the last good version keeps applying (with none, everything may be crawled)';
  return {
    disallowPeriod: o.disallowPeriod,
    lastGoodVersionPeriod: o.lastGoodVersionPeriod,
    afterLastGoodPeriod: o.afterLastGoodPeriod,
    words: { disallowPeriod: first, lastGoodVersionPeriod: last },
    summary:
      `When robots.txt cannot be fetched (a server error, 429, or no answer), crawling stops for ${first}; then the ` +
      `last good version applies (or "allow all" if it found no robots.txt) until ${last} after the first failure; ` +
      `after that, ${after}.`,
  };
}

/**
 * The fetches {@link effectivePolicy} and {@link refreshSchedule} need, in time order: the last good fetch before a
 * run of failures (when the latest failed), the first fetch of the latest run of same-outcome fetches, and the latest
 * fetch. At most three entries, whatever the history's length; aborted fetches are dropped. Both functions give the
 * same answers for the compacted history as for the full one at any time from the latest fetch on (questions about
 * earlier moments need the full history).
 */
export function compactHistory<T extends FetchObservation>(history: readonly T[]): T[] {
  const entries = relevant(history);
  if (entries.length <= 1) return entries;
  const start = runStart(entries);
  const latest = entries[entries.length - 1]!;
  const kept: T[] = [];
  if (latest.outcome === 'disallow-all' && start > 0) kept.push(entries[start - 1]!);
  kept.push(entries[start]!);
  if (start !== entries.length - 1) kept.push(latest);
  return kept;
}

/**
 * An origin's fetch history with the timeline's questions: what applies at a time, and when to fetch next. Keeps only
 * the fetches that matter ({@link compactHistory}), so it stays small however long it runs.
 * @example
 * const timeline = new AvailabilityTimeline();
 * timeline.record(await fetchRobotsTxt(url));
 * timeline.policyAt(Date.now()).mode;
 * timeline.nextFetch().at;
 */
export class AvailabilityTimeline<T extends FetchObservation = RetrievalResult> {
  private entries: T[];

  constructor(
    history: readonly T[] = [],
    private readonly options: AvailabilityOptions = {},
  ) {
    resolve(options);
    this.entries = compactHistory(history);
  }

  /** The fetches kept, in time order (at most three). */
  get history(): readonly T[] {
    return this.entries;
  }

  /** Adds a fetch, normally the newest one (an older one is placed by its time among the few fetches kept). */
  record(fetch: T): this {
    this.entries = compactHistory([...this.entries, fetch]);
    return this;
  }

  /** What applies at `now` ({@link effectivePolicy}). */
  policyAt(now: number): EffectivePolicy<T> {
    return effectivePolicy(this.entries, now, this.options);
  }

  /** When to fetch again ({@link refreshSchedule}). */
  nextFetch(): RefreshSchedule {
    return refreshSchedule(this.entries, this.options);
  }
}
