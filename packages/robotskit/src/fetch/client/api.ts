/**
 * The crawl client's public face: the {@link RobotsClient} interface and what its questions return (a verdict on a URL,
 * the policy of an origin, the counters). Types only; `client.ts` builds a client from the parts beside this file.
 */

import type { DecidingRule, Explanation } from '../../model/types.js';
import type { CrawlerInput, RobotsTxt } from '../../robots-txt/robots-txt.js';
import type { EffectivePolicy } from '../policy/availability.js';
import type { RetrievalResult } from '../shared/types.js';

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
  /** Of those, the ones whose wait ran out (`fleet.waitMs`), so that this client fetched the origin itself. */
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
