/**
 * `compareRobots`: where two robots.txt files decide differently, exactly, for each crawler.
 *
 * For one crawler each file contributes the rules of the groups it selects. Every rule's pattern is a small automaton
 * over path characters (`automaton.ts`); the verdict for a path depends only on which patterns match it, so the tuple
 * of all pattern states (shared by both files) is a state of a product automaton that knows both verdicts. Characters
 * that appear in no pattern all behave alike, so the alphabet is the characters written in the patterns plus one
 * stand-in for every other character. Exploring the product breadth-first from `/` visits every reachable
 * combination of pattern states, and reaches each one first by a shortest path: a shortest witness.
 *
 * A region is the set of paths whose deciding rules are the same pair (before, after) and whose verdict differs; the
 * exploration finds every such pair that any path reaches, so together the regions cover every path that changed.
 * A branch is cut as soon as no pattern still alive (not yet certain to fail) is used differently by the two files:
 * from there on both decide alike; and (`explore.ts`) as soon as every region that could still lie below it is known
 * already, which keeps files of many never-dying `/*word` rules from visiting every combination of their states.
 * The exploration without that cut stays beside the tests (`test/reference/explore-plain.ts`), the reference they
 * hold this one to through {@link compareRobotsWith}. Google's dialect only (the 1994 convention matches differently).
 *
 * With `usage: true`, a change of AI usage preferences (`Content-Usage`, `Content-Signal`) is a change in meaning too:
 * each crawler's comparison then lists where its preferences differ (`usageComparison`, each at a witness path that
 * `RobotsTxt.usage` answers differently in the two files), found exactly by a product exploration of its own
 * (`usage-explore.ts`, bounded like this one: `complete` covers both), and a crawler with any is not equivalent.
 *
 * Cost: linear matching stays the rule for checks; this comparison is bounded by `maxStates` product states per rule
 * set, by the memory its states take, and by `timeoutMs` overall, and says `complete: false` when a bound cut it short.
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import type { CrawlerProfile } from '../crawlers/profile.js';
import { ANY_CRAWLER } from '../crawlers/resolve.js';
import type { RobotsRule } from '../model/types.js';
import type { RobotsInput } from '../parse/input.js';
import { type CrawlerInput, parseRobotsTxt, RobotsTxt } from '../robots-txt/robots-txt.js';
import { explore } from './explore.js';
import { type ChangedRegion, DEFAULT_MAX_STATES, DEFAULT_TIMEOUT_MS, type Outcome } from './product.js';
import {
  hasUsageLines,
  type UsageChange,
  type UsageComparison,
  type UsageWitness,
  usageComparison,
} from './usage-change.js';

export type { ChangedRegion, RegionRule } from './product.js';

/** The comparison for one crawler. */
export interface CrawlerComparison {
  /** The crawler's name (catalogue name, the token as given, or `*` for crawlers without a group of their own). */
  readonly crawler: string;
  /** True when the comparison finished and found no path that either file decides differently. */
  readonly equivalent: boolean;
  /** False when a bound (`maxStates`, `timeoutMs`) stopped the exploration: there may be more regions. */
  readonly complete: boolean;
  /** Regions in the order found (shortest witnesses first). */
  readonly regions: readonly ChangedRegion[];
  /** Product states explored. */
  readonly states: number;
  /**
   * With the option `usage`: each AI usage preference that differs, at a witness path (`RobotsTxt.usage` on it gives
   * `before` in the old file and `after` in the new one); absent without the option.
   */
  readonly usage?: readonly UsageWitness[];
}

export type { UsageWitness } from './usage-change.js';

/** The whole comparison. */
export interface RobotsComparison {
  /** True when every crawler's comparison finished and found no difference. */
  readonly equivalent: boolean;
  /** False when any crawler's comparison was cut short. */
  readonly complete: boolean;
  readonly crawlers: readonly CrawlerComparison[];
}

/** Options of {@link compareRobots}. */
export interface CompareOptions {
  /**
   * The crawlers to compare for: product tokens, full user-agent strings, catalogue profiles, and `*` for any crawler
   * without a group of its own. Default: every crawler of the catalogue, then every other product token either file
   * names, then `*`.
   */
  readonly crawlers?: readonly (string | CrawlerProfile)[];
  /**
   * Product states to explore per distinct pair of rule sets before giving up with `complete: false`.
   * @default 200000
   */
  readonly maxStates?: number;
  /**
   * Time budget for the whole comparison in milliseconds; crawlers not finished by then are `complete: false`.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Also compare AI usage preferences (`Content-Usage`, `Content-Signal`): a crawler whose preferences differ anywhere
   * checked is not equivalent, and its comparison lists them in `usage`.
   * @default false (verdicts only)
   */
  readonly usage?: boolean;
  /**
   * The catalogue the default crawlers come from (default `CRAWLERS`; `catalogueWith` gives one with a newer
   * ai.robots.txt list).
   */
  readonly catalogue?: readonly CrawlerProfile[];
}

/**
 * How one pair of rule sets is explored: `explore` (what {@link compareRobots} uses); the tests pass the plain
 * exploration they hold it to.
 */
type Explorer = (
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  maxStates: number,
  deadline: number,
) => Outcome;

/** The catalogue, the tokens either file names that no catalogue crawler carries, and `*`. */
function defaultCrawlers(
  files: readonly RobotsTxt[],
  catalogue: readonly CrawlerProfile[],
): (string | CrawlerProfile)[] {
  const known = new Set(catalogue.flatMap((c) => c.tokens.map((t) => t.toLowerCase())));
  const extra = new Map<string, string>();
  for (const f of files) {
    for (const g of f.groups) {
      for (const a of g.agents) {
        const lower = a.token.toLowerCase();
        if (a.token !== '' && !known.has(lower) && !extra.has(lower)) extra.set(lower, a.token);
      }
    }
  }
  return [...catalogue, ...extra.values(), ANY_CRAWLER];
}

/** A crawler's name in a comparison: as given, a profile's name, or a list of names joined by commas. */
function crawlerName(c: CrawlerInput): string {
  return typeof c === 'string' ? c : Array.isArray(c) ? c.join(',') : (c as CrawlerProfile).name;
}

/**
 * Compares two robots.txt files (text, bytes, or parsed) for each crawler: the regions of path+query space whose
 * verdict differs, each with a containing pattern, a shortest witness path and the deciding rules before and after.
 *
 * @example
 * const diff = compareRobots('User-agent: *\nDisallow: /a', 'User-agent: *\nDisallow: /a\nDisallow: /shop/*.php', {
 *   crawlers: ['*'],
 * });
 * diff.crawlers[0].regions[0]; // { change: 'blocked', pattern: '/shop/*.php', witness: '/shop/.php', … }
 */
export function compareRobots(
  before: RobotsInput | RobotsTxt,
  after: RobotsInput | RobotsTxt,
  options?: CompareOptions,
): RobotsComparison {
  return compareRobotsWith(explore, before, after, options);
}

/** {@link compareRobots} with the exploration given (not exported from the package). */
export function compareRobotsWith(
  run: Explorer,
  before: RobotsInput | RobotsTxt,
  after: RobotsInput | RobotsTxt,
  // `usageChanges` also names a crawler by a list of names, as `RobotsTxt` takes it.
  options?: Omit<CompareOptions, 'crawlers'> & { readonly crawlers?: readonly CrawlerInput[] },
): RobotsComparison {
  const files = [before, after].map((f) => (f instanceof RobotsTxt ? f.inDialect('google') : parseRobotsTxt(f)));
  const [b, a] = files as [RobotsTxt, RobotsTxt];
  const crawlers = options?.crawlers ?? defaultCrawlers(files, options?.catalogue ?? CRAWLERS);
  const usage = options?.usage === true;
  // Preferences depend on the groups chosen only, so crawlers with the same groups share one answer too.
  const usageDone = new Map<string, UsageComparison>();
  const maxStates = options?.maxStates ?? DEFAULT_MAX_STATES;
  const deadline = Date.now() + (options?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  // Crawlers whose groups are the same in both files share one exploration.
  const done = new Map<string, Outcome>();
  const results: CrawlerComparison[] = [];
  for (const crawler of crawlers) {
    // `*` (ANY_CRAWLER) is any crawler without a group of its own: the engine reads it as a name that no group can
    // carry (it is not a product token), so only the `*` groups apply, whatever names the two files use.
    const bg = b.selectGroups(crawler).groups;
    const ag = a.selectGroups(crawler).groups;
    const key = `${bg.map((g) => g.index).join(',')}|${ag.map((g) => g.index).join(',')}`;
    let outcome = done.get(key);
    const rules = (groups: typeof bg): RobotsRule[] => groups.flatMap((g) => g.rules).sort((x, y) => x.line - y.line);
    if (outcome === undefined) {
      outcome =
        Date.now() > deadline
          ? { regions: [], complete: false, states: 0 }
          : run(rules(bg), rules(ag), maxStates, deadline);
      done.set(key, outcome);
    }
    const same = outcome.complete && outcome.regions.length === 0;
    if (!usage) {
      results.push({
        crawler: crawlerName(crawler),
        equivalent: same,
        complete: outcome.complete,
        regions: outcome.regions,
        states: outcome.states,
      });
      continue;
    }
    let found = usageDone.get(key);
    if (found === undefined) {
      found =
        Date.now() > deadline
          ? { changes: [], complete: false, states: 0 }
          : usageComparison(
              b,
              a,
              crawler,
              rules(bg),
              rules(ag),
              outcome.regions.map((r) => r.witness),
              maxStates,
              deadline,
            );
      usageDone.set(key, found);
    }
    const witnesses = found.changes;
    const complete = outcome.complete && found.complete;
    results.push({
      crawler: crawlerName(crawler),
      equivalent: same && complete && witnesses.length === 0,
      complete,
      regions: outcome.regions,
      states: outcome.states + found.states,
      usage: witnesses,
    });
  }
  return {
    equivalent: results.every((r) => r.equivalent),
    complete: results.every((r) => r.complete),
    crawlers: results,
  };
}

/** Options of {@link usageChanges}: the bounds of {@link compareRobots}. */
export interface UsageChangesOptions {
  /** @default 200000 */
  readonly maxStates?: number;
  /** @default 10000 */
  readonly timeoutMs?: number;
}

/**
 * The usage preferences that differ between `before` and `after` for each of `crawlers` (names, tokens, profiles,
 * `*`), found exactly (`usage-change.ts`): the usage part of {@link compareRobots} with `usage: true`, crawler by
 * crawler, within the bounds of `options` (`compareRobots` also answers whether the search ran to its end). Empty when
 * neither file states any.
 *
 * @example
 * usageChanges(parseRobotsTxt(old), parseRobotsTxt(now), ['*', 'GPTBot'])
 * // [{ crawler: 'GPTBot', path: '/', category: 'train-ai', before: 'allow', after: 'disallow', … }]
 */
export function usageChanges(
  before: RobotsTxt,
  after: RobotsTxt,
  crawlers: readonly CrawlerInput[],
  options?: UsageChangesOptions,
): UsageChange[] {
  if (!hasUsageLines(before) && !hasUsageLines(after)) return [];
  const { crawlers: results } = compareRobotsWith(explore, before, after, { ...options, crawlers, usage: true });
  return results.flatMap((c) => (c.usage ?? []).map((witness) => ({ crawler: c.crawler, ...witness })));
}
