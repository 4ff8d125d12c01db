/**
 * What an edit changes in AI usage preferences (`Content-Usage`, `Content-Signal`), per crawler: each category whose
 * preference differs before and after (`RobotsTxt.usage`, so the groups are chosen and the rules matched exactly as the
 * engine reads them), at a witness path, and the `Content-Signal` keys that apply. The paths are found exactly
 * (`usage-explore.ts`): every way the two files' answers differ on a path both let the crawler fetch is shown, at a
 * shortest path where it does, as long as the exploration stays within its bounds (`complete`). Where the crawler's
 * access itself changed (`compareRobots`' regions), the preferences are also compared at each region's witness.
 * `compareRobots` with `usage: true` runs {@link usageComparison} once per pair of group sets; `usageChanges`
 * (`compare.ts`) is its changes, crawler by crawler.
 */

import type { RobotsRule } from '../model/types.js';
import { type CrawlerInput, type RobotsTxt, statedUsage } from '../robots-txt/robots-txt.js';
import { changeKey, changesBetween, exploreUsage, type Stated, statementsOf } from './usage-explore.js';

/** One category whose preference differs for a crawler at a path. */
export interface UsageChange {
  /** The crawler as asked about (a catalogue name, a token, or `*`). */
  readonly crawler: string;
  /**
   * The path checked, a witness: `RobotsTxt.usage` on it gives `before` in the old file and `after` in the new one. A
   * shortest path where the change shows (`usage-explore.ts`), or the witness of a region where the crawler's access
   * changed; ASCII (the patterns' characters as the matcher reads them, and a stand-in for all others).
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

/** What one file states for a crawler at a path, by category: nothing where it may not fetch the path. */
function statedAt(file: RobotsTxt, path: string, crawler: CrawlerInput): Map<string, Stated> {
  // As `RobotsTxt.usage` answers for the path (taken as a path: `//a` is not a host).
  const answer = statedUsage(file, path, crawler);
  return answer.crawlable ? statementsOf(answer) : new Map();
}

/** Whether either file has a line that states usage preferences. */
export function hasUsageLines(file: RobotsTxt): boolean {
  return file.groups.some((g) => g.extensions.some((e) => e.name === 'content-usage' || e.name === 'content-signal'));
}

/** A usage preference that differs for a crawler, at a witness path (a {@link UsageChange} without the crawler). */
export type UsageWitness = Omit<UsageChange, 'crawler'>;

/** The usage preferences that differ for one crawler, and whether the search for them ran to its end. */
export interface UsageComparison {
  readonly changes: readonly UsageWitness[];
  /** False when a bound (states explored, time) stopped the search: there may be more. */
  readonly complete: boolean;
  /** Product states explored. */
  readonly states: number;
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
  const changes: UsageWitness[] = [];
  const seen = new Set<string>();
  for (const path of new Set([...explored.paths, ...regionWitnesses])) {
    for (const change of changesBetween(statedAt(before, path, crawler), statedAt(after, path, crawler))) {
      const key = changeKey(change);
      if (seen.has(key)) continue;
      seen.add(key);
      changes.push({ path, ...change });
    }
  }
  return { changes, complete: explored.complete, states: explored.states };
}
