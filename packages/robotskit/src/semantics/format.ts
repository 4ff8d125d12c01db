/**
 * `formatRobots`: a canonical layout of a robots.txt that provably decides every URL as the original does.
 *
 * Field names are spelled out (`User-agent`, `Allow`, `Disallow`, `Sitemap`, accepted typos and prefix keys included,
 * a missing colon added), values and comments kept as written, blank lines only between groups (Google ignores blank
 * lines). A rule repeating an earlier rule of the same kind and pattern in its group is removed only when
 * {@link compareRobots} proves, for every catalogue crawler, every token the file names and `*`, that nothing changes.
 * Lines the parser could not read, or cut (too long, NUL), are kept as they are.
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import type { RobotsRecord } from '../model/types.js';
import type { RobotsInput } from '../parse/input.js';
import { parseRobotsTxt, type RobotsTxt } from '../robots-txt/robots-txt.js';
import { type CompareOptions, compareRobots } from './compare.js';

const CANONICAL: Record<string, string> = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
};

/** The result of {@link formatRobots}. */
export interface FormatResult {
  /**
   * The formatted text (line breaks `\n`, ending with one); the input as it was (decoded as UTF-8) when the comparison
   * could not prove the layout equivalent (bytes that are not UTF-8, a file cut at the size limit, bounds reached).
   */
  readonly text: string;
  /** Whether the text differs from the input. */
  readonly changed: boolean;
  /** 1-based lines of the input removed as duplicate rules (proven not to change any verdict). */
  readonly removedLines: readonly number[];
}

function lineOf(record: RobotsRecord): string {
  if (record.kind !== 'directive' || record.flags.tooLong || record.flags.nul) return record.text.trimEnd();
  const hash = record.flags.comment ? record.text.indexOf('#') : -1;
  const comment = hash >= 0 ? record.text.slice(hash).trimEnd() : '';
  const key = record.field !== null && record.field !== 'unknown' ? CANONICAL[record.field]! : record.key;
  const line = record.value === '' ? `${key}:` : `${key}: ${record.value}`;
  return comment === '' ? line : `${line} ${comment}`;
}

function layout(robots: RobotsTxt, skip: ReadonlySet<number>): string {
  const out: string[] = [];
  let sawRule = false;
  let sawAgent = false;
  for (const record of robots.records) {
    if (skip.has(record.line) || record.kind === 'blank') continue;
    const field = record.kind === 'directive' ? record.field : null;
    if (field === 'user-agent' && (sawRule || !sawAgent) && out.length > 0) {
      // A new group: one blank line before it, and before the comments right above it.
      let at = out.length;
      while (at > 0 && out[at - 1]!.startsWith('#')) at--;
      if (at > 0 && out[at - 1] !== '') out.splice(at, 0, '');
    }
    if (field === 'user-agent') {
      if (sawRule) sawRule = false;
      sawAgent = true;
    } else if (field === 'allow' || field === 'disallow') sawRule = true;
    out.push(lineOf(record));
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

/** The crawlers a format must not change anything for: the catalogue, every token the file names, and `*`. */
function everyCrawler(robots: RobotsTxt): NonNullable<CompareOptions['crawlers']> {
  const tokens = new Set<string>();
  for (const group of robots.groups) for (const agent of group.agents) if (agent.token !== '') tokens.add(agent.token);
  return [...CRAWLERS, ...tokens, '*'];
}

/** Lines of rules that repeat an earlier rule (same kind, same pattern) of their group. */
function duplicateRules(robots: RobotsTxt): number[] {
  const lines: number[] = [];
  for (const group of robots.groups) {
    const seen = new Set<string>();
    for (const rule of group.rules) {
      const key = `${rule.kind} ${rule.pattern}`;
      if (seen.has(key)) lines.push(rule.line);
      else seen.add(key);
    }
  }
  return lines;
}

/**
 * Formats a robots.txt (Google's reading). The result decides every URL as the input does for every crawler; rules are
 * removed only when the comparison proves it. Throws only on programmer errors.
 * @example formatRobots('user-agent: *\ndisalow: /x').text === 'User-agent: *\nDisallow: /x\n'
 */
export function formatRobots(input: RobotsInput): FormatResult {
  const robots = parseRobotsTxt(input);
  const original = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const unchanged: FormatResult = { text: original, changed: false, removedLines: [] };
  // Only what was parsed can be laid out again.
  if (robots.truncated) return unchanged;
  const crawlers = everyCrawler(robots);
  const kept = layout(robots, new Set());
  let text = kept;
  let removedLines: number[] = [];
  const duplicates = duplicateRules(robots);
  if (duplicates.length > 0) {
    const shorter = layout(robots, new Set(duplicates));
    if (compareRobots(kept, shorter, { crawlers }).equivalent) {
      text = shorter;
      removedLines = duplicates;
    }
  }
  // The proof for the whole result: same verdicts everywhere (text decoded from bytes that are not UTF-8 would not give
  // the same patterns back) and the same sitemaps; otherwise the input stays as it is.
  const result = parseRobotsTxt(text);
  const sameSitemaps = result.sitemaps.join('\n') === robots.sitemaps.join('\n');
  if (!sameSitemaps || !compareRobots(robots, result, { crawlers }).equivalent) return unchanged;
  return { text, changed: text !== original, removedLines };
}
