/**
 * What the client knows of each origin, in memory: its fetch history, when to fetch it again, and the policy in force
 * with its parsed file and matcher, each computed once and kept until it changes. Bounded by origin count and by the
 * bytes of the files kept, the least recently used origin forgotten first.
 */

import type { DialectName, PoolMatcher } from '../../model/dialect.js';
import { parseRobotsTxt, type RobotsTxt } from '../../robots-txt/robots-txt.js';
import {
  type AvailabilityOptions,
  type EffectivePolicy,
  effectivePolicy,
  refreshSchedule,
} from '../policy/availability.js';
import { LruMap } from '../shared/lru.js';
import type { Clock, RetrievalResult } from '../shared/types.js';

/** One origin in memory. */
export interface CachedOrigin {
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

/** Bytes an origin costs in memory: each distinct body twice (bytes and parsed copy), plus bookkeeping. */
export function weightOf(history: readonly RetrievalResult[]): number {
  if (history.length === 1) return 1024 + 2 * (history[0]!.body?.length ?? 0);
  const bodies = new Set<Uint8Array>();
  for (const entry of history) if (entry.body !== null) bodies.add(entry.body);
  let weight = 1024 * history.length;
  for (const body of bodies) weight += 2 * body.length;
  return weight;
}

/** The fetch to report as the latest: the timeline's, or the last one made when the timeline ignores it. */
export function latestOf(entry: CachedOrigin, policy: EffectivePolicy<RetrievalResult>): RetrievalResult {
  return policy.latest ?? entry.lastFetch!;
}

/** The bounds of an {@link OriginCache}. */
interface OriginCacheLimits {
  readonly maxOrigins: number;
  readonly maxCachedBytes: number;
}

/** The origins in memory, with their policies. */
export class OriginCache {
  /** Origin → entry, least recently used first out; `get` marks an entry used. */
  readonly entries: LruMap<string, CachedOrigin>;
  private readonly parsed = new WeakMap<RetrievalResult, RobotsTxt>();

  constructor(
    limits: OriginCacheLimits,
    private readonly availability: AvailabilityOptions,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {
    this.entries = new LruMap<string, CachedOrigin>(limits.maxOrigins, limits.maxCachedBytes);
  }

  /** Keeps a history as the origin's (replacing what was there) and returns its entry. */
  keep(
    origin: string,
    history: readonly RetrievalResult[],
    lastFetch: RetrievalResult | null = history[history.length - 1] ?? null,
  ): CachedOrigin {
    const entry: CachedOrigin = {
      origin,
      robotsUrl: `${origin}/robots.txt`,
      history,
      lastFetch,
      nextFetchAt: refreshSchedule(history, this.availability).at,
      policy: null,
      policyUntil: Number.NEGATIVE_INFINITY,
      robots: null,
      matcherFor: null,
      matcher: null,
    };
    this.entries.set(origin, entry, weightOf(history));
    return entry;
  }

  /** The parsed file of a fetch whose outcome is `rules`, parsed once per fetch; else null. */
  robotsOf(result: RetrievalResult | null): RobotsTxt | null {
    if (result === null || result.outcome !== 'rules' || result.body === null) return null;
    let robots = this.parsed.get(result);
    if (robots === undefined) {
      robots = parseRobotsTxt(result.body, { maxBytes: result.body.length, dialect: this.dialect });
      this.parsed.set(result, robots);
    }
    return robots;
  }

  /**
   * The policy in force for an entry at `clockNow` (the clock's reading, when the caller has just read it); computed
   * again only when the one kept has run out, and then `robots` and the matcher are reset with it.
   */
  policyOf(entry: CachedOrigin, clockNow = this.clock.now()): EffectivePolicy<RetrievalResult> {
    if (clockNow < entry.policyUntil) return entry.policy!;
    // Everything in the history is known now, even if the clock says otherwise (a store written by another machine).
    const latest = entry.history[entry.history.length - 1];
    const latestAt = latest === undefined ? 0 : latest.fetchedAt;
    const now = Math.max(clockNow, latestAt);
    const cached = entry.policy;
    if (cached !== null && (cached.until === null || now < cached.until)) return cached;
    const policy = effectivePolicy(entry.history, now, this.availability);
    entry.policy = policy;
    // The policy holds while max(clock, latestAt) < until, that is while the clock is below `policyUntil`.
    const until = policy.until ?? Number.POSITIVE_INFINITY;
    entry.policyUntil = latestAt < until ? until : Number.NEGATIVE_INFINITY;
    entry.robots = policy.mode === 'rules' ? this.robotsOf(policy.source) : null;
    entry.matcherFor = null;
    return policy;
  }
}
