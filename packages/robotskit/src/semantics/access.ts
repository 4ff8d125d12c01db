/**
 * `crawlerAccess`: what a file leaves a crawler, in one word, exactly: nothing (every URL disallowed), everything (no
 * URL disallowed), or some of it, with the disallowed regions as `compareRobots` finds them. It is the comparison of
 * the file with the two files that mean "everything blocked" and "everything allowed" for that crawler, so it shares
 * `compareRobots`' proof of completeness and its bounds (`complete: false` when a bound cut it short: then `some` is
 * all that is known, and `nothing`/`everything` are never guessed).
 */

import type { CrawlerProfile } from '../crawlers/profile.js';
import { ANY_CRAWLER } from '../crawlers/resolve.js';
import { parseRobotsTxt, type RobotsTxt } from '../robots-txt/robots-txt.js';
import { type ChangedRegion, type CompareOptions, compareRobots } from './compare.js';

/** What a file leaves one crawler. */
export interface CrawlerAccess {
  /** The crawler's name, as `compareRobots` gives it. */
  readonly crawler: string;
  /** `nothing`: every URL is disallowed; `everything`: none is; `some`: some are (or the comparison was cut short). */
  readonly access: 'nothing' | 'everything' | 'some';
  /** The disallowed regions found (shortest witnesses first), empty for `everything`. */
  readonly blocked: readonly ChangedRegion[];
  /** False when a bound cut a comparison short (the regions may be incomplete, and `some` may be either extreme). */
  readonly complete: boolean;
  /**
   * A shortest path the crawler may fetch (the first witness of the paths the file does not keep it from), as a path to
   * match (`//a` is a path, not a host); null when it may fetch nothing, or a bound cut the search short first.
   */
  readonly open: string | null;
}

const ALLOW_ALL = parseRobotsTxt('');

/**
 * A file that disallows everything for each crawler: it names every name the crawler obeys (a crawler that ignores
 * the `*` group, such as AdsBot, reads only its own), and `*`.
 */
function blockAll(crawlers: readonly (string | CrawlerProfile)[]): RobotsTxt {
  const names = new Set<string>([ANY_CRAWLER]);
  for (const c of crawlers) {
    if (typeof c === 'string') names.add(c);
    else for (const token of c.tokens) names.add(token);
  }
  return parseRobotsTxt(`${[...names].map((n) => `User-agent: ${n}`).join('\n')}\nDisallow: /\n`);
}

/**
 * What `robots` leaves each of `crawlers` (product tokens, catalogue profiles, `*`), in their order. Bounded like
 * {@link compareRobots} (`maxStates`, `timeoutMs`).
 * @example crawlerAccess(parseRobotsTxt('User-agent: *\nDisallow: /'), ['Googlebot'])[0].access // 'nothing'
 */
export function crawlerAccess(
  robots: RobotsTxt,
  crawlers: readonly (string | CrawlerProfile)[],
  options: Omit<CompareOptions, 'crawlers'> = {},
): CrawlerAccess[] {
  const start = Date.now();
  const timeoutMs = options.timeoutMs;
  const remaining = () => (timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (Date.now() - start)));
  const opts = (ms: number | undefined): CompareOptions => ({
    crawlers,
    ...(options.maxStates === undefined ? {} : { maxStates: options.maxStates }),
    ...(ms === undefined ? {} : { timeoutMs: ms }),
  });
  const vsBlocked = compareRobots(robots, blockAll(crawlers), opts(remaining()));
  const vsAllowed = compareRobots(robots, ALLOW_ALL, opts(remaining()));
  return vsBlocked.crawlers.map((b, i) => {
    const a = vsAllowed.crawlers[i];
    const complete = b.complete && a?.complete === true;
    // Against "everything allowed", a region that changes to allowed is one this file disallows.
    const blocked = (a?.regions ?? []).filter((r) => r.change === 'allowed');
    const access = b.equivalent ? 'nothing' : a?.equivalent ? 'everything' : 'some';
    // Against "everything disallowed", every region is one this file lets the crawler fetch.
    return { crawler: b.crawler, access, blocked, complete, open: b.regions[0]?.witness ?? null };
  });
}
