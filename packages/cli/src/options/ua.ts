/**
 * The `--ua` option (`check`, `batch`, `audit`, `explain`): which crawler a command decides for. The reading itself
 * is the engine's one rule (`resolveCrawlers`: catalogue name, product token, User-Agent string, `*`); what the CLI
 * adds is the option's default, its one-line error, a label for people, and the rewrites said on standard error.
 * Loads no network code, so `explain` stays quick to start.
 */

import {
  type CrawlerInput,
  CrawlerInputError,
  type CrawlerProfile,
  crawlerInputOf,
  type ResolvedCrawler,
  resolveCrawlers,
} from 'robotskit';
import { CliError, type Io } from '../io.js';
import { DEFAULT_CRAWLER, typoHint } from './choices.js';

/** The crawler(s) a `--ua` value names, as the engine resolved them, with what the command shows of them. */
export interface UaCrawler {
  /** What the engine is asked with. */
  readonly input: CrawlerInput;
  /** The crawlers as the engine resolved them. */
  readonly resolved: readonly ResolvedCrawler[];
  /** The profile, when `--ua` named one crawler of the catalogue. */
  readonly profile: CrawlerProfile | null;
  /** The names, for people. */
  readonly label: string;
  /** What the engine's rule rewrote (a User-Agent string reduced to its crawler, whitespace removed), in words. */
  readonly rewrites: readonly string[];
  /** Names not in the catalogue that are a typo away from one, each as "… did you mean Googlebot?". */
  readonly hints: readonly string[];
}

/**
 * Reads a `--ua` value (the default crawler when absent): one crawler or several, comma-separated, each resolved by
 * the engine's `resolveCrawlers` in `catalogue` (the commands pass the one with the list `crawlers update` merged, from
 * `userCatalogue`; default the engine's). What it rewrote is in `rewrites`, for {@link sayRewrites}.
 * @throws CliError when the value names no crawler at all.
 */
export function crawlerOfUa(ua: string | undefined, catalogue?: readonly CrawlerProfile[]): UaCrawler {
  let crawlers: ResolvedCrawler[];
  try {
    crawlers = resolveCrawlers(ua ?? DEFAULT_CRAWLER, catalogue);
  } catch (error) {
    if (error instanceof CrawlerInputError) throw new CliError('--ua needs at least one user-agent token');
    throw error;
  }
  const rewrites = crawlers.flatMap((c) => (c.rewrite === null ? [] : [c.rewrite]));
  const profile = crawlers.length === 1 ? crawlers[0]!.profile : null;
  const label =
    profile !== null
      ? `${profile.name} (profile: ${profile.tokens.join(' \u2192 ')})`
      : crawlers.map((c) => c.label).join(', ');
  const hints = crawlers.flatMap((c) => (c.suggestion === null ? [] : [typoHint(c.name, c.suggestion)]));
  return { input: crawlerInputOf(crawlers), resolved: crawlers, profile, label, rewrites, hints };
}

/**
 * Says on standard error which crawler `--ua` was read as, when the engine's rule rewrote what was typed, and warns
 * of a name that looks like a misspelt catalogue name.
 */
export function sayRewrites(io: Io, crawler: UaCrawler): void {
  for (const rewrite of crawler.rewrites) io.stderr.write(`robotskit: --ua: ${rewrite}\n`);
  for (const hint of crawler.hints) io.stderr.write(`robotskit: warning: --ua: ${hint}\n`);
}
