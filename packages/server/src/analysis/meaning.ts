/**
 * What a change of robots.txt changes in meaning, in one sentence, for the `file-changed` alert: the engine's exact
 * comparison (`compareRobots`) for the crawlers alerts speak for (`watched-crawlers.ts`), every crawler either version
 * names in its groups, and every catalogue crawler that reads one of those names' groups when it has none of its own
 * (Googlebot-Image reads Googlebot's), within a small time budget so a worker never stalls on a pathological file (an
 * unfinished comparison says so). Crawlers named by neither version read the `*` groups, which `*` stands for.
 */

import { ANY_CRAWLER, CRAWLERS, type CrawlerProfile, type RobotsTxt, resolveCrawler } from 'robotskit';
import { type CompareOptions, type CrawlerComparison, compareRobots, type RobotsComparison } from 'robotskit/semantics';
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

/** Names listed in one sentence; more are said as "and N more". */
const NAMES_SHOWN = 5;

/**
 * The crawlers a change between `files` is checked for: the watched ones, then each catalogue crawler one of whose
 * names (its own or one it falls back to) a group of either file names, then the named tokens no catalogue crawler
 * carries, then `*` last (a sentence ends with "and other crawlers (*)").
 */
function crawlersToCompare(files: readonly RobotsTxt[]): (string | CrawlerProfile)[] {
  const named = new Map<string, string>();
  for (const file of files) {
    for (const group of file.groups) {
      for (const agent of group.agents) {
        if (!agent.global && agent.token !== '') named.set(agent.token.toLowerCase(), agent.token);
      }
    }
  }
  const chosen: (string | CrawlerProfile)[] = [];
  const seen = new Set<string>();
  const add = (crawler: string | CrawlerProfile) => {
    const key = (typeof crawler === 'string' ? crawler : crawler.name).toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    chosen.push(crawler);
  };
  for (const name of ALERT_CRAWLER_NAMES) if (name !== ANY_CRAWLER) add(resolveCrawler(name).input);
  const carried = new Set<string>();
  for (const profile of CRAWLERS) {
    const tokens = profile.tokens.map((t) => t.toLowerCase());
    for (const t of tokens) carried.add(t);
    if (tokens.some((t) => named.has(t))) add(profile);
  }
  for (const [lower, token] of named) if (!carried.has(lower)) add(token);
  add(ANY_CRAWLER);
  return chosen;
}

function label(crawler: string): string {
  return crawler === ANY_CRAWLER ? 'other crawlers (*)' : crawler;
}

/**
 * `A`, `A and B`, `A, B and C`; past {@link NAMES_SHOWN} names `A, B, C, D, 3 more`; "other crawlers (*)" (last in
 * `who` when present) is always said.
 */
function namesText(who: readonly string[]): string {
  const any = label(ANY_CRAWLER);
  const named = who.filter((w) => w !== any);
  const shown =
    named.length > NAMES_SHOWN ? [...named.slice(0, NAMES_SHOWN - 1), `${named.length - NAMES_SHOWN + 1} more`] : named;
  const all = who.includes(any) ? [...shown, any] : shown;
  return all.length === 1 ? (all[0] as string) : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
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
  /** The names of the crawlers that decide some URL differently (to count sitemap URLs for), `*` last. */
  readonly changed: readonly string[];
}

/** The sentence and the details for a change from `before` to `after`. */
export function describeMeaningChange(
  before: RobotsTxt,
  after: RobotsTxt,
  timeoutMs = MEANING_TIMEOUT_MS,
): MeaningChange {
  return meaningOf(compareRobots(before, after, meaningOptions(before, after, timeoutMs)));
}

/** The comparison's options for {@link describeMeaningChange}: the crawlers to compare for, and the bounds. */
export function meaningOptions(before: RobotsTxt, after: RobotsTxt, timeoutMs = MEANING_TIMEOUT_MS): CompareOptions {
  return { crawlers: crawlersToCompare([before, after]), timeoutMs, maxStates: MEANING_MAX_STATES };
}

/** The sentence and the details of a comparison made with {@link meaningOptions} (here or in a thread). */
export function meaningOf(result: RobotsComparison): MeaningChange {
  const names = result.crawlers.map((c) => c.crawler);
  if (result.equivalent) {
    return {
      equivalent: true,
      sentence: 'no crawler decides differently',
      details: { equivalent: true, complete: true, crawlers: names },
      changed: [],
    };
  }
  // Crawlers with the same sentence are named together: "now blocks /a for Googlebot and bingbot".
  const bySentence = new Map<string, string[]>();
  for (const c of result.crawlers) {
    if (c.equivalent) continue;
    const text = crawlerText(c);
    bySentence.set(text, [...(bySentence.get(text) ?? []), label(c.crawler)]);
  }
  const sentence = [...bySentence].map(([text, who]) => `${text} for ${namesText(who)}`).join('; ');
  return {
    equivalent: false,
    sentence,
    changed: result.crawlers.filter((c) => !c.equivalent).map((c) => c.crawler),
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
