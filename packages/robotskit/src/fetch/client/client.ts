/**
 * The crawl client: robots.txt fetched once per origin, cached as Google caches it, and asked about URLs. What a
 * crawler embeds so it does not have to write the fetch, cache and failure handling around a parser itself. This file
 * only wires the parts together: the options (`options.ts`), the fetch slots (`limiter.ts`), the origins in memory
 * (`origin-cache.ts`), the store and its fleet leases (`store-access.ts`, `fleet.ts`), loads (`loader.ts`,
 * `origin-states.ts`), and the questions with their fast path (`locator.ts`, `questions.ts`, `turn-clock.ts`).
 */

import { fetchRobotsTxt } from '../retrieval/retrieve.js';
import type { RobotsClient } from './api.js';
import { newCounters } from './counters.js';
import { Leases, leasingStore, Wakes } from './fleet.js';
import { Limiter } from './limiter.js';
import { Loader } from './loader.js';
import { Locator } from './locator.js';
import { type RobotsClientOptions, resolveClientOptions } from './options.js';
import { OriginCache } from './origin-cache.js';
import { OriginStates } from './origin-states.js';
import { Questions } from './questions.js';
import { StoreAccess } from './store-access.js';

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
  const settings = resolveClientOptions(options);
  const { crawler, clock, store, retrieval } = settings;
  const counters = newCounters();
  const cache = new OriginCache(settings, settings.availability, settings.dialect, clock);
  const limiter = new Limiter(settings.maxConcurrentFetches);
  const access = store === undefined ? null : new StoreAccess(store, settings.onStoreError, counters);
  const leasing = leasingStore(store);
  const loader = new Loader({
    cache,
    store: access,
    fleet:
      leasing === null || access === null
        ? null
        : {
            leases: new Leases(leasing, settings.fleet, access),
            wakes: new Wakes(leasing, access),
            settings: settings.fleet,
          },
    limiter,
    retrieve: (origin) => fetchRobotsTxt(origin, retrieval),
    availability: settings.availability,
    clock,
    counters,
  });
  const states = new OriginStates(cache, settings.hitClock, counters, loader, store !== undefined);
  const questions = new Questions(
    new Locator(cache.entries, states.inflight),
    states,
    cache,
    counters,
    settings.hitClock,
  );
  return {
    userAgent: settings.userAgent,
    crawler,
    isAllowed: (url, ua = crawler) => questions.isAllowed(url, ua),
    explain: (url, ua = crawler) => questions.explain(url, ua),
    peek: (url, ua = crawler) => questions.peek(url, ua),
    crawlDelay: (url, ua = crawler) => questions.crawlDelay(url, ua),
    sitemaps: (originOrUrl) => questions.sitemaps(originOrUrl),
    policyFor: (originOrUrl) => questions.policyFor(originOrUrl, false),
    refresh: (originOrUrl) => questions.policyFor(originOrUrl, true),
    stats: () => ({
      origins: cache.entries.size,
      cachedBytes: cache.entries.weight,
      evictions: cache.entries.evictions,
      activeFetches: limiter.active,
      queuedFetches: limiter.queued,
      ...counters,
    }),
  };
}
