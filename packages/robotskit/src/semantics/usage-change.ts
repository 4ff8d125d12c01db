/**
 * What an edit changes in AI usage preferences (`Content-Usage`, `Content-Signal`), per crawler: for each crawler
 * asked about, at `/` and at a path each `Content-Usage` rule of either file matches (from the rule's pattern as the
 * matcher reads it, so the path is ASCII; its wildcards matching nothing; one character past the end of a rule anchored
 * with `$`), the preference of each category before and after (`RobotsTxt.usage`, so the groups are chosen and the
 * rules matched exactly as the engine reads them: each path is a witness), and the `Content-Signal` keys that apply.
 * A rule added, removed or changed is so seen at a path of its own; a change that only shows between two rules' paths
 * (a shorter rule now winning somewhere under a longer one's path) is not looked for. Whether a crawler may fetch a
 * URL at all is `compareRobots`'s question, exact; this one is about what fetched content may be used for.
 */

import { type CrawlerInput, type RobotsTxt, sourceOf } from '../robots-txt/robots-txt.js';
import { readUsageLines } from '../usage/lines.js';

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

/** `/` and every path a `Content-Usage` rule of either file names (read from the file's bytes), in order of first appearance. */
function pathsOf(files: readonly RobotsTxt[]): string[] {
  const paths = new Set<string>(['/']);
  for (const file of files) {
    for (const rule of readUsageLines(sourceOf(file)).usage.values()) {
      if (rule.pattern !== null) for (const path of pathsOfPattern(rule.pattern)) paths.add(path);
    }
  }
  return [...paths];
}

interface Stated {
  readonly value: string;
  readonly lines: readonly number[];
}

/** What one file states for a crawler at a path, by category. */
function statedAt(file: RobotsTxt, path: string, crawler: CrawlerInput): Map<string, Stated> {
  const answer = file.usage(path, crawler);
  const stated = new Map<string, Stated>();
  const ruleLines = answer.rules.map((r) => r.line);
  for (const [category, preference] of Object.entries(answer.preferences)) {
    stated.set(category, { value: preference, lines: ruleLines });
  }
  const signal = answer.contentSignal;
  if (signal !== null) {
    for (const [category, preference] of Object.entries(signal.preferences)) {
      // A Content-Usage rule's own statement is the one that decides the category; the signal fills the gaps.
      if (!stated.has(category)) stated.set(category, { value: preference, lines: signal.lines });
    }
    for (const [key, value] of Object.entries(signal.unmapped)) {
      stated.set(`content-signal:${key}`, { value, lines: signal.lines });
    }
  }
  return stated;
}

/** Whether either file has a line that states usage preferences. */
function hasUsageLines(file: RobotsTxt): boolean {
  return file.groups.some((g) => g.extensions.some((e) => e.name === 'content-usage' || e.name === 'content-signal'));
}

/**
 * The usage preferences that differ between `before` and `after` for each of `crawlers` (names, tokens, profiles,
 * `*`), at `/` and at every `Content-Usage` rule's path of either file. Empty when neither file states any.
 *
 * @example
 * usageChanges(parseRobotsTxt(old), parseRobotsTxt(now), ['*', 'GPTBot'])
 * // [{ crawler: 'GPTBot', path: '/', category: 'train-ai', before: 'allow', after: 'disallow', … }]
 */
export function usageChanges(before: RobotsTxt, after: RobotsTxt, crawlers: readonly CrawlerInput[]): UsageChange[] {
  if (!hasUsageLines(before) && !hasUsageLines(after)) return [];
  const changes: UsageChange[] = [];
  const paths = pathsOf([before, after]);
  for (const crawler of crawlers) {
    const name = typeof crawler === 'string' ? crawler : 'name' in crawler ? crawler.name : crawler.join(',');
    for (const path of paths) {
      const was = statedAt(before, path, crawler);
      const now = statedAt(after, path, crawler);
      for (const category of new Set([...was.keys(), ...now.keys()])) {
        const a = was.get(category) ?? null;
        const b = now.get(category) ?? null;
        if (a?.value === b?.value) continue;
        changes.push({
          crawler: name,
          path,
          category,
          before: a?.value ?? null,
          after: b?.value ?? null,
          linesBefore: a?.lines ?? [],
          linesAfter: b?.lines ?? [],
        });
      }
    }
  }
  return changes;
}
