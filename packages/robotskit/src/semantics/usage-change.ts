/**
 * What an edit changes in AI usage preferences (`Content-Usage`, `Content-Signal`), per crawler: each category whose
 * preference differs before and after (`RobotsTxt.usage`, so the groups are chosen and the rules matched exactly as the
 * engine reads them), at a witness path, and the `Content-Signal` keys that apply. The paths are found exactly
 * (`usage-explore.ts`): every way the two files' answers differ on a path both let the crawler fetch is shown, at a
 * shortest path where it does, as long as the exploration stays within its bounds (`complete`). Where the crawler's
 * access itself changed (`compareRobots`' regions), the preferences are also compared at each region's witness.
 */

import type { RobotsRule } from '../model/types.js';
import { type CrawlerInput, type RobotsTxt, statedUsage } from '../robots-txt/robots-txt.js';
import { explore } from './explore.js';
import { DEFAULT_MAX_STATES, DEFAULT_TIMEOUT_MS } from './product.js';
import { changeKey, changesBetween, exploreUsage, type Stated, statementsOf } from './usage-explore.js';

/** One category whose preference differs for a crawler at a path. */
export interface UsageChange {
  /** The crawler as asked about (a catalogue name, a token, or `*`). */
  readonly crawler: string;
  /**
   * The path checked, a witness: `RobotsTxt.usage` on it gives `before` in the old file and `after` in the new one.
   * `/`, or a path a `Content-Usage` rule matches (its wildcards matching nothing; escapes and non-ASCII bytes
   * percent-encoded as the matcher reads the rule, so the path is ASCII).
   */
  readonly path: string;
  /**
   * The category: a vocabulary label (`train-ai`, `ai-use`, `search`) for `Content-Usage` and the signals mapped onto
   * one, or `content-signal:<key>` for a `Content-Signal` key with no category of the same use (`ai-input`, `use`).
   */
  readonly category: string;
  /** Before and after: `allow`, `disallow`, a signal's value as written, or null when nothing was stated. */
  readonly before: string | null;
  readonly after: string | null;
  /** The lines that stated it before and after (the deciding `Content-Usage` rules, or the `Content-Signal` lines). */
  readonly linesBefore: readonly number[];
  readonly linesAfter: readonly number[];
}

/**
 * Paths the normalised pattern of a `Content-Usage` rule matches (as the matcher reads it: non-ASCII bytes and escapes
 * percent-encoded, so the path is ASCII and the rule matches it exactly as written): its wildcards matching nothing
 * (`/blog/*.html$` → `/blog/.html`), and for a pattern ending in `$` also one character longer, where that rule stops
 * deciding and a shorter one takes over (`/a$` → `/ax`).
 */
function pathsOfPattern(pattern: string): string[] {
  const anchored = pattern.endsWith('$');
  const path = (anchored ? pattern.slice(0, -1) : pattern).replaceAll('*', '');
  if (path === '') return [];
  return anchored ? [path, `${path}x`] : [path];
}

/**
 * A path a normalised pattern (a rule's `pattern`, a Content-Usage line's `pattern`) matches, its wildcards matching
 * nothing; null for an empty pattern or one that is not a path.
 */
export function pathOfPattern(pattern: string | null): string | null {
  if (pattern === null || !pattern.startsWith('/')) return null;
  return pathsOfPattern(pattern)[0] ?? null;
}

/** What one file states for a crawler at a path, by category: nothing where it may not fetch the path. */
function statedAt(file: RobotsTxt, path: string, crawler: CrawlerInput): Map<string, Stated> {
  // As `RobotsTxt.usage` answers for the path (taken as a path: `//a` is not a host).
  const answer = statedUsage(file, path, crawler);
  return answer.crawlable ? statementsOf(answer) : new Map();
}

/** Whether either file has a line that states usage preferences. */
function hasUsageLines(file: RobotsTxt): boolean {
  return file.groups.some((g) => g.extensions.some((e) => e.name === 'content-usage' || e.name === 'content-signal'));
}

/** The usage preferences that differ for one crawler, and whether the search for them ran to its end. */
export interface UsageComparison {
  readonly changes: readonly UsageChange[];
  /** False when a bound (states explored, time) stopped the search: there may be more. */
  readonly complete: boolean;
  /** Product states explored. */
  readonly states: number;
}

/** The crawler's name in a {@link UsageChange}. */
function crawlerName(crawler: CrawlerInput): string {
  return typeof crawler === 'string' ? crawler : 'name' in crawler ? crawler.name : crawler.join(',');
}

/**
 * The usage preferences that differ for one crawler (see the header): at the paths the exploration finds, then at
 * `regionWitnesses` (the witnesses of the regions where the crawler's access changed). Each change once: a category
 * changing the same way under the same lines at a later path is not repeated. `beforeRules`, `afterRules`: the
 * Allow/Disallow rules of the groups each file selects for the crawler, in line order.
 */
export function usageComparison(
  before: RobotsTxt,
  after: RobotsTxt,
  crawler: CrawlerInput,
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  regionWitnesses: readonly string[],
  maxStates: number,
  deadline: number,
): UsageComparison {
  if (!hasUsageLines(before) && !hasUsageLines(after)) return { changes: [], complete: true, states: 0 };
  const explored = exploreUsage(before, after, crawler, beforeRules, afterRules, maxStates, deadline);
  const name = crawlerName(crawler);
  const changes: UsageChange[] = [];
  const seen = new Set<string>();
  for (const path of new Set([...explored.paths, ...regionWitnesses])) {
    for (const change of changesBetween(statedAt(before, path, crawler), statedAt(after, path, crawler))) {
      const key = changeKey(change);
      if (seen.has(key)) continue;
      seen.add(key);
      changes.push({ crawler: name, path, ...change });
    }
  }
  return { changes, complete: explored.complete, states: explored.states };
}

/** Options of {@link usageChanges}: the bounds of `compareRobots`, per crawler and overall. */
export interface UsageChangesOptions {
  /** @default 200000 */
  readonly maxStates?: number;
  /** @default 10000 */
  readonly timeoutMs?: number;
}

/**
 * The usage preferences that differ between `before` and `after` for each of `crawlers` (names, tokens, profiles,
 * `*`), found exactly (see the header; within the bounds of `options`, as `compareRobots`, which answers whether the
 * search ran to its end). Empty when neither file states any.
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
  const maxStates = options?.maxStates ?? DEFAULT_MAX_STATES;
  const deadline = Date.now() + (options?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const [b, a] = [before.inDialect('google'), after.inDialect('google')];
  const changes: UsageChange[] = [];
  for (const crawler of crawlers) {
    const rules = (file: RobotsTxt): RobotsRule[] =>
      file
        .selectGroups(crawler)
        .groups.flatMap((g) => g.rules)
        .sort((x, y) => x.line - y.line);
    const [rb, ra] = [rules(b), rules(a)];
    const regions = explore(rb, ra, maxStates, deadline).regions;
    const witnesses = regions.map((r) => r.witness);
    changes.push(...usageComparison(b, a, crawler, rb, ra, witnesses, maxStates, deadline).changes);
  }
  return changes;
}
