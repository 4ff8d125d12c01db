/**
 * Which URLs change verdict for which crawlers between two sets of rules (a draft or a stored version, against the
 * current version): the engine answers every (URL, crawler) question under both.
 */

import type { RobotsTxt } from 'robotskit';
import { type RulesMode, type TesterCrawler, type Verdict, verdictOf } from './verdicts.js';

/** One side of the comparison. */
export interface RulesSide {
  readonly robots: RobotsTxt | null;
  readonly mode: RulesMode;
  readonly lines: readonly string[] | null;
}

type Side = Omit<Verdict, 'url' | 'userAgent' | 'crawler'>;

/** A verdict that changed. */
export interface VerdictChange {
  readonly url: string;
  readonly userAgent: string;
  readonly before: Side;
  readonly after: Side;
}

/** The changes (the first `listLimit`), their total and a per-crawler summary. */
export function compareVerdicts(
  before: RulesSide,
  after: RulesSide,
  urls: readonly string[],
  crawlers: readonly TesterCrawler[],
  listLimit = 1000,
) {
  const summary = crawlers.map((c) => ({ userAgent: c.name, newlyBlocked: 0, newlyAllowed: 0 }));
  const changes: VerdictChange[] = [];
  let total = 0;
  const strip = ({ url: _u, userAgent: _a, crawler: _c, ...side }: Verdict): Side => side;
  for (const url of urls) {
    crawlers.forEach((crawler, i) => {
      const b = verdictOf(before.robots, before.mode, before.lines, url, crawler);
      const a = verdictOf(after.robots, after.mode, after.lines, url, crawler);
      if (a.allowed === b.allowed) return;
      total++;
      const s = summary[i]!;
      if (a.allowed) s.newlyAllowed++;
      else s.newlyBlocked++;
      if (changes.length < listLimit) changes.push({ url, userAgent: crawler.name, before: strip(b), after: strip(a) });
    });
  }
  return { summary, changes, total };
}
