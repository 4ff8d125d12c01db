/**
 * The impact check's exact answer: where two versions of a robots.txt decide differently, for each crawler asked
 * about, by the engine's `compareRobots` (every region of path+query space whose verdict changes, with a containing
 * pattern, a shortest witness and the deciding lines before and after). The sitemap sample shows which listed URLs
 * change; this shows every URL that does, listed or not. Bounded like the alerts' comparison: a state budget per
 * exploration and a time backstop, and a comparison cut short says so.
 */

import { parseRobotsTxt, type ResolvedCrawler, type RobotsTxt } from 'robotskit';
import { type ChangedRegion, compareRobots, type RegionRule, type RobotsComparison } from 'robotskit/semantics';
import type { RulesSide } from './impact.js';
import { MEANING_MAX_STATES, MEANING_TIMEOUT_MS } from './meaning.js';
import type { AnalysisThreads } from './threads.js';

/** Regions listed per crawler (the total is always given). */
const EXACT_REGIONS_LISTED = 100;

/** A deciding rule as the impact check shows it: the rule, its line and the line as written. */
interface ExactRule {
  readonly kind: 'allow' | 'disallow';
  readonly pattern: string;
  readonly line: number;
  readonly lineText: string | null;
  readonly indexHtml: boolean;
}

/** One region whose verdict changes. */
interface ExactRegion {
  readonly change: 'blocked' | 'allowed';
  readonly pattern: string;
  /** A shortest path (with query) of the region. */
  readonly witness: string;
  /** The witness on the file's origin. */
  readonly witnessUrl: string;
  readonly before: ExactRule | null;
  readonly after: ExactRule | null;
}

/** The exact comparison for one crawler. */
interface ExactCrawler {
  /** As asked for. */
  readonly userAgent: string;
  readonly equivalent: boolean;
  readonly complete: boolean;
  readonly regionsTotal: number;
  readonly regions: ExactRegion[];
}

/** The exact comparison, or why there is none. */
export interface ExactComparison {
  /** False when one side has no rules to compare (it was unreachable: every URL disallowed). */
  readonly available: boolean;
  /** Why the comparison is unavailable or cut short, in words; null otherwise. */
  readonly note: string | null;
  readonly equivalent: boolean;
  readonly complete: boolean;
  readonly crawlers: ExactCrawler[];
}

/** The file a side's rules are: its own, or, for no robots.txt (allow all), the empty file. Null for disallow all. */
function rulesOf(side: RulesSide): RobotsTxt | null {
  if (side.mode === 'allow-all') return parseRobotsTxt('');
  if (side.mode === 'disallow-all') return null;
  return side.robots;
}

function ruleOf(rule: RegionRule | null, side: RulesSide): ExactRule | null {
  if (rule === null) return null;
  return {
    kind: rule.kind,
    pattern: rule.pattern,
    line: rule.line,
    lineText: side.lines?.[rule.line - 1] ?? null,
    indexHtml: rule.indexHtml,
  };
}

function regionOf(region: ChangedRegion, origin: string, before: RulesSide, after: RulesSide): ExactRegion {
  return {
    change: region.change,
    pattern: region.pattern,
    witness: region.witness,
    witnessUrl: `${origin}${region.witness}`,
    before: ruleOf(region.before, before),
    after: ruleOf(region.after, after),
  };
}

/** Bounds of the exact comparison. */
interface ExactBounds {
  readonly maxStates?: number;
  readonly timeoutMs?: number;
}

/** Compares `before` and `after` exactly for `crawlers`; witnesses are made absolute on `origin`. */
export function exactComparison(
  before: RulesSide,
  after: RulesSide,
  crawlers: readonly ResolvedCrawler[],
  origin: string,
  bounds: ExactBounds = {},
): ExactComparison {
  const [b, a] = [rulesOf(before), rulesOf(after)];
  if (b === null || a === null) return unavailable(b, a);
  return exactOf(compareRobots(b, a, compareOptions(crawlers, bounds)), before, after, crawlers, origin);
}

/** {@link exactComparison}, with the comparison itself in one of `threads` (off the event loop). */
export async function exactComparisonIn(
  threads: AnalysisThreads,
  before: RulesSide,
  after: RulesSide,
  crawlers: readonly ResolvedCrawler[],
  origin: string,
  bounds: ExactBounds = {},
): Promise<ExactComparison> {
  const [b, a] = [inputOf(before), inputOf(after)];
  if (b === undefined || a === undefined) return exactComparison(before, after, crawlers, origin, bounds);
  if (b === null || a === null) return unavailable(b, a);
  const result = await threads.compare(b, a, compareOptions(crawlers, bounds));
  return exactOf(result, before, after, crawlers, origin);
}

/** The input a side's rules are read from: its own, '' for allow-all, null for disallow all (undefined: not kept). */
function inputOf(side: RulesSide): string | Uint8Array | null | undefined {
  if (side.mode === 'allow-all') return '';
  if (side.mode === 'disallow-all') return null;
  return side.input;
}

function compareOptions(crawlers: readonly ResolvedCrawler[], bounds: ExactBounds) {
  return {
    crawlers: crawlers.map((c) => c.input),
    maxStates: bounds.maxStates ?? MEANING_MAX_STATES,
    timeoutMs: bounds.timeoutMs ?? MEANING_TIMEOUT_MS,
  };
}

function unavailable(b: unknown, a: unknown): ExactComparison {
  const which = b === null && a === null ? 'both versions' : b === null ? 'the version compared with' : 'the change';
  return {
    available: false,
    note: `no exact comparison: ${which} could not be fetched (every URL disallowed), so there are no rules to compare`,
    equivalent: false,
    complete: false,
    crawlers: [],
  };
}

function exactOf(
  result: RobotsComparison,
  before: RulesSide,
  after: RulesSide,
  crawlers: readonly ResolvedCrawler[],
  origin: string,
): ExactComparison {
  return {
    available: true,
    note: result.complete
      ? null
      : 'the comparison reached its bounds before finishing: the regions listed are real, but there may be more',
    equivalent: result.equivalent,
    complete: result.complete,
    crawlers: result.crawlers.map((c, i) => ({
      userAgent: crawlers[i]?.typed ?? c.crawler,
      equivalent: c.equivalent,
      complete: c.complete,
      regionsTotal: c.regions.length,
      regions: c.regions.slice(0, EXACT_REGIONS_LISTED).map((r) => regionOf(r, origin, before, after)),
    })),
  };
}
