/**
 * Which URLs change verdict for which crawlers between two sets of rules (a draft or a stored version, against the
 * current version): the engine answers every (URL, crawler) question under both. Only whether each is allowed is
 * asked first; the deciding lines are looked up for the changes listed. A request may ask millions of questions, so
 * the work yields to the event loop between slices: other requests (and the workers in the same process) go on.
 */

import type { ResolvedCrawler, RobotsTxt } from 'robotskit';
import type { RetrievalOutcome } from 'robotskit/fetch';
import { isAllowedUnder, sideOf, type VerdictSide } from './verdicts.js';

/** One side of the comparison. */
export interface RulesSide {
  readonly robots: RobotsTxt | null;
  /** The engine's outcome of the version: its rules apply (`rules`), or none do. */
  readonly mode: RetrievalOutcome;
  readonly lines: readonly string[] | null;
  /** The rules' input as given (bytes or text), for work on it in a thread; absent without rules. */
  readonly input?: string | Uint8Array;
}

/** A verdict that changed. */
interface VerdictChange {
  readonly url: string;
  readonly userAgent: string;
  readonly before: VerdictSide;
  readonly after: VerdictSide;
}

/** CPU time between two yields to the event loop (a question's cost grows with hostile rules and URLs). */
const SLICE_MS = 10;

/**
 * The changes (the first `listLimit`), their total, a per-crawler summary and `changedUrls`, how many URLs change
 * verdict for at least one crawler. The work yields to the event loop every `sliceMs` of CPU time.
 */
export async function compareVerdicts(
  before: RulesSide,
  after: RulesSide,
  urls: readonly string[],
  crawlers: readonly ResolvedCrawler[],
  listLimit = 1000,
  signal?: AbortSignal,
  sliceMs = SLICE_MS,
) {
  const summary = crawlers.map((c) => ({ userAgent: c.typed, newlyBlocked: 0, newlyAllowed: 0 }));
  const changes: VerdictChange[] = [];
  let total = 0;
  let changedUrls = 0;
  let sliceStart = performance.now();
  for (const url of urls) {
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    const totalBefore = total;
    for (let i = 0; i < crawlers.length; i++) {
      const crawler = crawlers[i] as ResolvedCrawler;
      const allowedBefore = isAllowedUnder(before.robots, before.mode, url, crawler);
      const allowedAfter = isAllowedUnder(after.robots, after.mode, url, crawler);
      if (allowedBefore === allowedAfter) continue;
      total++;
      const s = summary[i] as (typeof summary)[number];
      if (allowedAfter) s.newlyAllowed++;
      else s.newlyBlocked++;
      if (changes.length < listLimit) {
        changes.push({
          url,
          userAgent: crawler.typed,
          before: sideOf(before.robots, before.mode, before.lines, url, crawler),
          after: sideOf(after.robots, after.mode, after.lines, url, crawler),
        });
      }
    }
    if (total > totalBefore) changedUrls++;
  }
  return { summary, changes, total, changedUrls };
}
