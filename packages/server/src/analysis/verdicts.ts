/**
 * The tester's questions, answered by the engine: is this URL allowed for this crawler under these rules (or under
 * none: the engine's `allow-all` and `disallow-all`), which line decided, and which rule. Crawlers are the engine's
 * reading of the names typed (`resolveCrawler`): a catalogue name brings the crawler's fallback order and quirks.
 */

import {
  type ContentSignalAnswer,
  CrawlerInputError,
  type ResolvedCrawler,
  type RobotsTxt,
  resolveCrawler,
  TextLines,
  type UsageAnswer,
  type UsagePreferences,
} from 'robotskit';
import type { RetrievalOutcome } from 'robotskit/fetch';

/**
 * The crawlers of a request, each read by the engine's one naming rule (`resolveCrawler`: `*`, a catalogue name, a
 * product token, or a User-Agent string). The engine's reading is the answer; the service only refuses a blank name,
 * which the engine would read as a name matching no group (its `CrawlerInputError`, a 400 in the API).
 */
export function crawlersNamed(names: readonly string[]): ResolvedCrawler[] {
  return names.map((typed) => {
    if (typed.trim() === '') {
      throw new CrawlerInputError(
        'a user agent is blank: give a product token (Googlebot), a crawler of the catalogue or * for any crawler',
      );
    }
    return resolveCrawler(typed);
  });
}

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
  /** The catalogue name a typo away from the name given, when that name is none (the engine's `suggestion`). */
  readonly suggestion: string | null;
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
  /** The AI usage preferences that apply (the engine's `usage`); null when the file states none. */
  readonly usage: UsageJson | null;
}

/** A deciding Content-Usage rule, with its line as written. */
interface UsageRuleJson {
  readonly line: number;
  readonly lineText: string;
  readonly pattern: string;
  readonly expression: string;
  readonly preferences: UsagePreferences;
}

/** The engine's {@link UsageAnswer} as the API answers it: each deciding rule quoted. */
export interface UsageJson extends Omit<UsageAnswer, 'rules' | 'contentSignal'> {
  readonly rules: UsageRuleJson[];
  readonly contentSignal: (Omit<ContentSignalAnswer, 'lines'> & { readonly lines: number[] }) | null;
}

/** The engine's usage answer with each deciding line quoted from `lines`; null when there is none. */
export function usageJsonOf(usage: UsageAnswer | undefined, lines: readonly string[] | null): UsageJson | null {
  if (usage === undefined) return null;
  const signal = usage.contentSignal;
  return {
    crawlable: usage.crawlable,
    preferences: usage.preferences,
    rules: usage.rules.map((r) => ({
      line: r.line,
      lineText: lines?.[r.line - 1] ?? '',
      pattern: r.pattern,
      expression: r.expression,
      preferences: r.preferences,
    })),
    contentSignal: signal === null ? null : { ...signal, lines: [...signal.lines] },
  };
}

/** A verdict without the question: what {@link sideOf} answers. */
export type VerdictSide = Omit<
  Verdict,
  'url' | 'userAgent' | 'userAgentUsed' | 'rewrite' | 'crawler' | 'suggestion' | 'usage'
>;

/** Whether `url` is allowed for `crawler` under `robots` (or `mode`): the cheap question, without the reasons. */
export function isAllowedUnder(
  robots: RobotsTxt | null,
  mode: RetrievalOutcome,
  url: string,
  crawler: ResolvedCrawler,
): boolean {
  if (robots === null || mode !== 'rules') return mode !== 'disallow-all';
  return robots.isAllowed(url, crawler.input);
}

/**
 * The answer for `url` and `crawler` under `robots` (or `mode` when there are no rules). Objects are written out
 * field by field: spreading one into another costs V8 about ten times the engine's own answer here.
 */
export function sideOf(
  robots: RobotsTxt | null,
  mode: RetrievalOutcome,
  lines: readonly string[] | null,
  url: string,
  crawler: ResolvedCrawler,
): VerdictSide {
  return answerOf(robots, mode, lines, url, crawler).side;
}

/** {@link sideOf}, with the engine's usage answer when the file states usage preferences. */
function answerOf(
  robots: RobotsTxt | null,
  mode: RetrievalOutcome,
  lines: readonly string[] | null,
  url: string,
  crawler: ResolvedCrawler,
): { side: VerdictSide; usage: UsageAnswer | undefined } {
  if (robots === null || mode !== 'rules') {
    const allowed = mode !== 'disallow-all';
    const side = {
      allowed,
      line: 0,
      lineText: null,
      rule: null,
      groups: null,
      note: allowed ? 'no robots.txt: everything may be crawled' : 'robots.txt unreachable: nothing may be crawled',
    };
    return { side, usage: undefined };
  }
  const e = robots.explain(url, crawler.input);
  const side = {
    allowed: e.allowed,
    line: e.line,
    lineText: e.line > 0 && lines ? (lines[e.line - 1] ?? null) : null,
    rule: e.rule === null ? null : { kind: e.rule.kind, pattern: e.rule.pattern },
    groups: e.groups,
    note: null,
  };
  return { side, usage: e.usage };
}

/** The verdict for `url` and `crawler` under `robots` (or `mode` when there are no rules). */
export function verdictOf(
  robots: RobotsTxt | null,
  mode: RetrievalOutcome,
  lines: readonly string[] | null,
  url: string,
  crawler: ResolvedCrawler,
): Verdict {
  const { side, usage } = answerOf(robots, mode, lines, url, crawler);
  return {
    url,
    userAgent: crawler.typed,
    userAgentUsed: crawler.name,
    rewrite: crawler.rewrite,
    crawler: crawler.profile?.name ?? null,
    suggestion: crawler.suggestion,
    allowed: side.allowed,
    line: side.line,
    lineText: side.lineText,
    rule: side.rule,
    groups: side.groups,
    note: side.note,
    usage: usageJsonOf(usage, lines),
  };
}

/** The lines of a text, for quoting the deciding line. */
export function linesOf(text: string): string[] {
  return new TextLines(text).lines();
}
