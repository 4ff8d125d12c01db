/**
 * A verdict explained, as `test`, `explain`, `check` and `diff` show it: the text of the deciding line, the note when
 * Google's derived `index.html` rule decided, and the JSON document of `explain --json` (and `test --json`).
 */

import type { DecidingRule, Explanation, RobotsTxt } from 'robotskit';

/** The text of a 1-based line of the parsed file, as written. */
export function lineText(robots: RobotsTxt, line: number): string {
  return robots.records[line - 1]?.text.trim() ?? '';
}

/** ` (as /dir/index.htm…, Google's index.html rule)` when the rule that decided is the derived one; else empty. */
export function indexHtmlNote(rule: Pick<DecidingRule, 'indexHtml' | 'pattern'>): string {
  return rule.indexHtml ? ` (as ${rule.pattern}, Google's index.html rule)` : '';
}

/** The JSON document `explain --json` (and `test --json`) prints. */
export interface ExplainJson extends Explanation {
  readonly url: string;
  /** The deciding line as written, when there is one. */
  readonly ruleText: string | null;
  /** What the engine's rule rewrote in `--ua` (a User-Agent string reduced to its crawler…), in words. */
  readonly crawlerRewrites: readonly string[];
}
