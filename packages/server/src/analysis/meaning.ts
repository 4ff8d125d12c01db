/**
 * What a change of robots.txt changes in meaning, in one sentence, for the `file-changed` alert: the engine's exact
 * comparison (`compareRobots`) for the crawlers alerts speak for (`watched-crawlers.ts`), within a small time budget
 * so a worker never stalls on a pathological file (an unfinished comparison says so).
 */

import { ANY_CRAWLER, type CrawlerProfile, type RobotsTxt, resolveCrawler } from 'robotskit';
import { type CrawlerComparison, compareRobots } from 'robotskit/semantics';
import { ALERT_CRAWLER_NAMES } from './watched-crawlers.js';

/**
 * The comparison runs once per changed version, on the event loop the API shares in `serve`, so it is kept short: a
 * budget of product states per crawler (the same answer on any machine; most files need a few hundred and compare in
 * about a millisecond), with a time limit only as a backstop. A comparison cut short says so.
 */
export const MEANING_MAX_STATES = 5_000;
/** The backstop. */
export const MEANING_TIMEOUT_MS = 2000;

/** How many regions per crawler the alert's details keep. */
const DETAIL_REGIONS = 10;

let crawlers: (string | CrawlerProfile)[] | null = null;
function watched(): (string | CrawlerProfile)[] {
  crawlers ??= ALERT_CRAWLER_NAMES.map((name) => resolveCrawler(name).input);
  return crawlers;
}

function label(crawler: string): string {
  return crawler === ANY_CRAWLER ? 'other crawlers (*)' : crawler;
}

function regionsText(change: 'blocks' | 'allows', patterns: readonly string[]): string | null {
  if (patterns.length === 0) return null;
  const others = patterns.length - 1;
  return `now ${change} ${patterns[0]}${others === 0 ? '' : ` and ${others} other region${others === 1 ? '' : 's'}`}`;
}

function crawlerText(c: CrawlerComparison): string {
  const parts = [
    regionsText(
      'blocks',
      c.regions.filter((r) => r.change === 'blocked').map((r) => r.pattern),
    ),
    regionsText(
      'allows',
      c.regions.filter((r) => r.change === 'allowed').map((r) => r.pattern),
    ),
  ].filter((p): p is string => p !== null);
  const text = parts.length === 0 ? 'may decide differently' : parts.join(', ');
  return c.complete ? text : `${text} (comparison cut short: there may be more)`;
}

/** What an edit changes in meaning: a sentence for the alert, its details, and whether any crawler decides otherwise. */
export interface MeaningChange {
  /** True when the comparison finished and no watched crawler decides any URL differently. */
  readonly equivalent: boolean;
  readonly sentence: string;
  readonly details: Record<string, unknown>;
}

/** The sentence and the details for a change from `before` to `after`. */
export function describeMeaningChange(
  before: RobotsTxt,
  after: RobotsTxt,
  timeoutMs = MEANING_TIMEOUT_MS,
): MeaningChange {
  const result = compareRobots(before, after, { crawlers: watched(), timeoutMs, maxStates: MEANING_MAX_STATES });
  const names = result.crawlers.map((c) => c.crawler);
  if (result.equivalent) {
    return {
      equivalent: true,
      sentence: 'no crawler decides differently',
      details: { equivalent: true, complete: true, crawlers: names },
    };
  }
  // Crawlers with the same sentence are named together: "now blocks /a for Googlebot and bingbot".
  const bySentence = new Map<string, string[]>();
  for (const c of result.crawlers) {
    if (c.equivalent) continue;
    const text = crawlerText(c);
    bySentence.set(text, [...(bySentence.get(text) ?? []), label(c.crawler)]);
  }
  const sentence = [...bySentence]
    .map(
      ([text, who]) => `${text} for ${who.length === 1 ? who[0] : `${who.slice(0, -1).join(', ')} and ${who.at(-1)}`}`,
    )
    .join('; ');
  return {
    equivalent: false,
    sentence,
    details: {
      equivalent: false,
      complete: result.complete,
      crawlers: names,
      changes: result.crawlers
        .filter((c) => !c.equivalent)
        .map((c) => ({
          crawler: c.crawler,
          complete: c.complete,
          regions: c.regions.length,
          examples: c.regions.slice(0, DETAIL_REGIONS).map((r) => ({
            change: r.change,
            pattern: r.pattern,
            witness: r.witness,
            lineBefore: r.before?.line ?? null,
            lineAfter: r.after?.line ?? null,
          })),
        })),
    },
  };
}
