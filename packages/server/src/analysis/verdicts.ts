/**
 * The tester's questions, answered by the engine: is this URL allowed for this crawler under these rules, which line
 * decided, and which rule. Crawlers are named by product token (`Googlebot`) or by a catalogue profile name
 * (`Google-Extended`, `GPTBot`…), which brings the crawler's fallback order and quirks.
 */

import { type CrawlerProfile, type RobotsTxt, resolveCrawler, TextLines } from 'robotskit';

/** A crawler as the tester asks about it: the engine's {@link resolveCrawler} reading of the name typed. */
export interface TesterCrawler {
  /** As typed. */
  readonly name: string;
  /** The catalogue profile when the name (or the crawler a User-Agent string names) is one, else null. */
  readonly profile: CrawlerProfile | null;
  /** What the engine is asked with. */
  readonly input: string | CrawlerProfile;
  /** The name used after any rewrite: the token or catalogue name, or `*`. */
  readonly used: string;
  /** What the engine's rule rewrote, in words (a User-Agent string reduced, spaces removed); null when used as typed. */
  readonly rewrite: string | null;
}

/** A name the tester cannot use. */
export class CrawlerNameError extends Error {}

/**
 * Resolves typed names by the engine's one rule (`resolveCrawler`): `*` (any crawler), a catalogue name, a product
 * token, or a User-Agent string (the crawler it names). Only a blank name is refused.
 */
export function resolveCrawlers(names: readonly string[]): TesterCrawler[] {
  return names.map((typed) => {
    if (typed.trim() === '') {
      throw new CrawlerNameError(
        'a user agent is blank: give a product token (Googlebot), a crawler of the catalogue or * for any crawler',
      );
    }
    const r = resolveCrawler(typed);
    return { name: typed, profile: r.profile, input: r.input, used: r.name, rewrite: r.rewrite };
  });
}

/** What the crawler input of the engine is for a tester crawler. */
export function engineInput(crawler: TesterCrawler): string | CrawlerProfile {
  return crawler.input;
}

/** How the rules apply: the file's rules, or none at all (no robots.txt: allow all; unreachable: disallow all). */
export type RulesMode = 'rules' | 'allow-all' | 'disallow-all';

/** One verdict. */
export interface Verdict {
  readonly url: string;
  readonly userAgent: string;
  /** The name used for it: the token or catalogue name (also when rewritten from what was typed), or `*`. */
  readonly userAgentUsed: string;
  /** Set when the name used differs from the name typed, saying what was used and why. */
  readonly rewrite: string | null;
  /** The catalogue name when a profile was used. */
  readonly crawler: string | null;
  readonly allowed: boolean;
  /** 1-based line of the deciding rule; 0 when no rule decided. */
  readonly line: number;
  /** The deciding line as written, or null. */
  readonly lineText: string | null;
  readonly rule: { readonly kind: 'allow' | 'disallow'; readonly pattern: string } | null;
  /** `specific`, `global` (the `*` group) or `none`; null when no rules applied. */
  readonly groups: string | null;
  /** Why, when the rules did not decide: `no robots.txt…` or `robots.txt unreachable…`. */
  readonly note: string | null;
}

/** A verdict without the question: what {@link sideOf} answers. */
export type VerdictSide = Omit<Verdict, 'url' | 'userAgent' | 'userAgentUsed' | 'rewrite' | 'crawler'>;

/** Whether `url` is allowed for `crawler` under `robots` (or `mode`): the cheap question, without the reasons. */
export function isAllowedUnder(
  robots: RobotsTxt | null,
  mode: RulesMode,
  url: string,
  crawler: TesterCrawler,
): boolean {
  if (robots === null || mode !== 'rules') return mode !== 'disallow-all';
  return robots.isAllowed(url, engineInput(crawler));
}

/**
 * The answer for `url` and `crawler` under `robots` (or `mode` when there are no rules). Objects are written out
 * field by field: spreading one into another costs V8 about ten times the engine's own answer here.
 */
export function sideOf(
  robots: RobotsTxt | null,
  mode: RulesMode,
  lines: readonly string[] | null,
  url: string,
  crawler: TesterCrawler,
): VerdictSide {
  if (robots === null || mode !== 'rules') {
    const allowed = mode !== 'disallow-all';
    return {
      allowed,
      line: 0,
      lineText: null,
      rule: null,
      groups: null,
      note: allowed ? 'no robots.txt: everything may be crawled' : 'robots.txt unreachable: nothing may be crawled',
    };
  }
  const e = robots.explain(url, engineInput(crawler));
  return {
    allowed: e.allowed,
    line: e.line,
    lineText: e.line > 0 && lines ? (lines[e.line - 1] ?? null) : null,
    rule: e.rule === null ? null : { kind: e.rule.kind, pattern: e.rule.pattern },
    groups: e.groups,
    note: null,
  };
}

/** The verdict for `url` and `crawler` under `robots` (or `mode` when there are no rules). */
export function verdictOf(
  robots: RobotsTxt | null,
  mode: RulesMode,
  lines: readonly string[] | null,
  url: string,
  crawler: TesterCrawler,
): Verdict {
  const side = sideOf(robots, mode, lines, url, crawler);
  return {
    url,
    userAgent: crawler.name,
    userAgentUsed: crawler.used,
    rewrite: crawler.rewrite,
    crawler: crawler.profile?.name ?? null,
    allowed: side.allowed,
    line: side.line,
    lineText: side.lineText,
    rule: side.rule,
    groups: side.groups,
    note: side.note,
  };
}

/** The lines of a text, for quoting the deciding line. */
export function linesOf(text: string): string[] {
  return new TextLines(text).lines();
}
