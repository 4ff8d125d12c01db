/**
 * The client's questions: may this URL be crawled, why, the crawl-delay, the sitemaps, the policy of an origin. An
 * origin in memory is answered without suspending (one resolved promise, or none for `peek`): the fast path of a crawl,
 * a URL's origin located once, its entry's matcher asked with the path sliced from the URL string.
 */

import { type CrawlerInput, explainPath, matcherOf } from '../../robots-txt/robots-txt.js';
import { canonicalHref, canonicalPath } from '../../url/http-url.js';
import { pathToMatch } from '../../url/path.js';
import { crawlDelayOf } from '../policy/crawl-delay.js';
import type { OriginPolicy, UrlVerdict } from './api.js';
import type { ClientCounters } from './counters.js';
import type { Locator } from './locator.js';
import { type CachedOrigin, latestOf, type OriginCache } from './origin-cache.js';
import type { OriginState, OriginStates } from './origin-states.js';

const ALLOWED = Promise.resolve(true);
const REFUSED = Promise.resolve(false);

/** The serialised URL of a located target: the parser adds the `/` of an empty path. */
function hrefOf(target: string | URL, origin: string): string {
  return typeof target === 'string' ? canonicalHref(target, origin.length) : target.href;
}

/** The path to match of a located target: a string is sliced after its origin, not read again. */
function pathOf(target: string | URL, originEnd: number): string {
  return typeof target === 'string' ? canonicalPath(target, originEnd) : pathToMatch(target);
}

/** The answers of a client, from its origins' states. */
export class Questions {
  constructor(
    private readonly locator: Locator,
    private readonly states: OriginStates,
    private readonly cache: OriginCache,
    private readonly counters: Pick<ClientCounters, 'hits'>,
    private readonly hitClock: { now(): number },
  ) {}

  /** Whether `ua` may crawl the URL (see {@link RobotsClient.isAllowed}). Not async: a hit does not suspend. */
  isAllowed(url: string | URL, ua: CrawlerInput): Promise<boolean> {
    try {
      const origin = this.locator.locate(url);
      const target = this.locator.target;
      const state = this.stateOfLocated(origin);
      if (state instanceof Promise) return this.allowedLater(state, target, ua);
      // Resolved promises hold no state: two serve every answer from memory.
      return this.allowedBy(state, target, ua, this.states.hitNow) ? ALLOWED : REFUSED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The verdict on a URL, with the rule, the policy and the fetch behind it. */
  explain(url: string | URL, ua: CrawlerInput): Promise<UrlVerdict> {
    try {
      const origin = this.locator.locate(url);
      const target = this.locator.target;
      const state = this.stateOfLocated(origin);
      if (state instanceof Promise) return this.verdictLater(state, origin, target, ua);
      return Promise.resolve(this.verdictOf(state, origin, target, ua, this.states.hitNow));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * {@link explain} from memory, or null when the origin is not in memory, is being loaded, or is due again.
   * @throws RobotsUrlError when the URL is not an absolute http, https or ftp URL.
   */
  peek(url: string | URL, ua: CrawlerInput): UrlVerdict | null {
    const locator = this.locator;
    const origin = locator.locate(url);
    const target = locator.target;
    const load = locator.load;
    const entry = locator.entry;
    locator.load = undefined;
    locator.entry = undefined;
    if (load !== undefined) return null;
    const inflight = this.states.inflight;
    if (entry === undefined && inflight.size !== 0 && inflight.has(origin)) return null;
    const known = entry ?? this.cache.entries.get(origin);
    if (known === undefined) return null;
    const now = this.hitClock.now();
    if (now >= known.nextFetchAt) return null;
    this.counters.hits++;
    return this.verdictOf(known, origin, target, ua, now);
  }

  /** The crawl-delay of the groups that apply to `ua` in the file in force, or null. */
  async crawlDelay(url: string | URL, ua: CrawlerInput): Promise<number | null> {
    const entry = await this.states.stateOf(this.locator.locate(url), false);
    this.cache.policyOf(entry);
    const robots = entry.robots;
    return robots === null ? null : crawlDelayOf(robots, ua);
  }

  /** The sitemaps of the latest good file of the origin. */
  async sitemaps(originOrUrl: string | URL): Promise<readonly string[]> {
    const entry = await this.states.stateOf(this.locator.locate(originOrUrl), false);
    for (let i = entry.history.length - 1; i >= 0; i--) {
      const robots = this.cache.robotsOf(entry.history[i]!);
      if (robots !== null) return robots.sitemaps;
    }
    return [];
  }

  /** The policy of an origin; `force` fetches it first whatever its cache lifetime (a recrawl). */
  async policyFor(originOrUrl: string | URL, force: boolean): Promise<OriginPolicy> {
    return this.originPolicy(await this.states.stateOf(this.locator.locate(originOrUrl), force));
  }

  /** The state of the origin {@link Locator.locate} has just returned, without looking it up again. */
  private stateOfLocated(origin: string): OriginState {
    const locator = this.locator;
    const load = locator.load;
    const entry = locator.entry;
    locator.load = undefined;
    locator.entry = undefined;
    if (load !== undefined) return this.states.joined(origin, load, false);
    if (entry !== undefined) return this.states.cachedState(origin, entry, false);
    return this.states.stateOf(origin, false);
  }

  private allowedBy(entry: CachedOrigin, target: string | URL, ua: CrawlerInput, now?: number): boolean {
    const policy = this.cache.policyOf(entry, now);
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

  private verdictOf(
    entry: CachedOrigin,
    origin: string,
    target: string | URL,
    ua: CrawlerInput,
    now?: number,
  ): UrlVerdict {
    const policy = this.cache.policyOf(entry, now);
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

  // The answers once a load ends, made in methods of their own: a function whose variables a closure keeps gets them a
  // context object on every call, so `isAllowed` and `explain` would allocate one even when answering from memory.
  private allowedLater(state: Promise<CachedOrigin>, target: string | URL, ua: CrawlerInput): Promise<boolean> {
    return state.then((entry) => this.allowedBy(entry, target, ua));
  }

  private verdictLater(
    state: Promise<CachedOrigin>,
    origin: string,
    target: string | URL,
    ua: CrawlerInput,
  ): Promise<UrlVerdict> {
    return state.then((entry) => this.verdictOf(entry, origin, target, ua));
  }

  private originPolicy(entry: CachedOrigin): OriginPolicy {
    const policy = this.cache.policyOf(entry);
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
}
