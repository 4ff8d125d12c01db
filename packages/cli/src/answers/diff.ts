/**
 * `diff`'s answer, as `diff --json` prints it and the MCP tool `diff` returns it: what an edit changes in meaning, by
 * the engine's `compareRobots`, for the crawlers named (default: the catalogue, the other tokens the files name, `*`),
 * with AI usage preferences compared too (a changed `Content-Usage` or `Content-Signal` is a change in meaning, each at
 * a witness path). Names are read in `catalogue` (the one with the list `crawlers update` merged, when there is one).
 */

import { type CrawlerProfile, crawlerByName, parseRobotsTxt, type RobotsTxt, resolveCrawler } from 'robotskit';
import { type CompareOptions, compareRobots, type RobotsComparison } from 'robotskit/semantics';
import { CliError } from '../io.js';
import { typoHint } from '../options/choices.js';

/** The comparison, the two files, the exit status and the warnings for misspelt crawlers. */
interface Diffed {
  readonly diff: RobotsComparison;
  readonly before: RobotsTxt;
  readonly after: RobotsTxt;
  /** 0 no change (proven), 1 changed, 3 cut short by its bounds before finding a change or proving none. */
  readonly code: number;
  /** One line per crawler name that looks like a misspelt catalogue name. */
  readonly warnings: readonly string[];
}

/** Crawler names: each a crawler of the catalogue, else a product token; `*` for crawlers without a group. */
function crawlersOf(
  names: readonly string[] | undefined,
  catalogue: readonly CrawlerProfile[] | undefined,
): CompareOptions['crawlers'] {
  if (names === undefined) return undefined;
  const list = names.map((s) => s.trim()).filter((s) => s !== '');
  if (list.length === 0) throw new CliError('--ua needs at least one crawler name or product token');
  return list.map((name) => crawlerByName(name, catalogue) ?? name);
}

/** Compares two robots.txt (bytes or text). */
export function diffAnswer(
  oldBytes: Uint8Array | string,
  newBytes: Uint8Array | string,
  options: {
    readonly crawlers?: readonly string[] | undefined;
    readonly maxStates?: number | undefined;
    readonly catalogue?: readonly CrawlerProfile[] | undefined;
  },
): Diffed {
  const crawlers = crawlersOf(options.crawlers, options.catalogue);
  const warnings: string[] = [];
  for (const name of crawlers ?? []) {
    const suggestion = typeof name === 'string' ? resolveCrawler(name, options.catalogue).suggestion : null;
    if (suggestion !== null) warnings.push(typoHint(name as string, suggestion));
  }
  const before = parseRobotsTxt(oldBytes);
  const after = parseRobotsTxt(newBytes);
  const diff = compareRobots(before, after, {
    usage: true,
    ...(options.catalogue === undefined ? {} : { catalogue: options.catalogue }),
    ...(crawlers === undefined ? {} : { crawlers }),
    ...(options.maxStates === undefined ? {} : { maxStates: options.maxStates }),
  });
  const changed = diff.crawlers.some((c) => c.regions.length > 0 || (c.usage?.length ?? 0) > 0);
  return { diff, before, after, code: diff.equivalent ? 0 : changed ? 1 : 3, warnings };
}
