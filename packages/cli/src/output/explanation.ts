/**
 * A verdict explained, as `test`, `explain`, `check` and `diff` show it: the text of the deciding line, the note when
 * Google's derived `index.html` rule decided, the AI usage preferences that apply, and the JSON document of
 * `explain --json` (and `test --json`).
 */

import { type DecidingRule, type Explanation, type RobotsTxt, USAGE_VOCABULARY, type UsageAnswer } from 'robotskit';

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

/** `train-ai: disallow (AI Training)`, one per stated category. */
function preferenceWords(preferences: Readonly<Record<string, string>>): string[] {
  return Object.entries(preferences).map(([label, preference]) => {
    const category = USAGE_VOCABULARY.find((l) => l.label === label)?.category;
    return `${label}: ${preference}${category === undefined ? '' : ` (${category})`}`;
  });
}

/**
 * The usage section of `explain`: which Content-Usage rule(s) decided and what they state, and what the crawler's
 * Content-Signal lines say, as lines of text (each indented as the command's other sections; `paint` colours).
 */
export function usageText(
  robots: RobotsTxt,
  usage: UsageAnswer,
  paint: (style: 'dim', text: string) => string,
  show: (text: string) => string,
): string[] {
  const out: string[] = [];
  if (!usage.crawlable) {
    out.push(`  usage     ${paint('dim', 'none: preferences apply only to URLs the crawler may fetch')}`);
    return out;
  }
  if (usage.rules.length === 0) {
    out.push(`  usage     ${paint('dim', 'no Content-Usage rule matches: every category unknown')}`);
  } else {
    const [first, ...rest] = usage.rules;
    out.push(`  usage     line ${first!.line}: ${show(lineText(robots, first!.line))}`);
    for (const rule of rest) out.push(`            line ${rule.line}: ${show(lineText(robots, rule.line))}`);
    const stated = preferenceWords(usage.preferences);
    if (stated.length === 0) out.push(`            ${paint('dim', 'states nothing: every category unknown')}`);
    for (const words of stated) out.push(`            ${words}`);
    if (usage.rules.length > 1)
      out.push(`            ${paint('dim', 'rules of the same length combine, most restrictive first')}`);
  }
  const signal = usage.contentSignal;
  if (signal !== null) {
    const [first, ...rest] = signal.lines;
    out.push(`  signals   line ${first}: ${show(lineText(robots, first!))}`);
    for (const line of rest) out.push(`            line ${line}: ${show(lineText(robots, line))}`);
    for (const words of preferenceWords(signal.preferences)) out.push(`            as ${words}`);
    const side = Object.entries(signal.unmapped).map(([key, value]) => `${key}=${value}`);
    if (side.length > 0)
      out.push(`            ${paint('dim', `no vocabulary category of the same use: ${side.join(', ')}`)}`);
  }
  return out;
}
