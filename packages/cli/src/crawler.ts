/**
 * The crawler `--ua` names (`check`, `batch`, `audit`, `explain`), read by the engine's one rule (`resolveCrawlers`),
 * and what that rule rewrote, said on standard error. Kept apart from `net.ts` so `explain` loads no network code.
 */

import {
  type CrawlerInput,
  CrawlerInputError,
  type CrawlerProfile,
  crawlerInputOf,
  type ResolvedCrawler as EngineCrawler,
  resolveCrawlers,
} from 'robotskit';
import { CliError, type Io } from './io.js';
import { DEFAULT_CRAWLER } from './options.js';

/** The crawler `--ua` names, resolved by the engine's rule (`resolveCrawlers`: catalogue name, token, User-Agent string). */
export interface ResolvedCrawler {
  /** What the engine is asked with. */
  readonly input: CrawlerInput;
  /** The profile, when `--ua` named one crawler of the catalogue. */
  readonly profile: CrawlerProfile | null;
  /** The names, for people. */
  readonly label: string;
  /** What the engine's rule rewrote (a User-Agent string reduced to its crawler, whitespace removed), in words. */
  readonly rewrites: readonly string[];
}

/**
 * Reads `--ua`: one crawler or several, comma-separated, each resolved by the engine's one rule (`resolveCrawler`): a
 * crawler of the catalogue (its fallback order and `*` handling apply), a product token, or a User-Agent string whose
 * crawler is used. What it rewrote is in `rewrites`, for {@link sayRewrites}.
 */
export function resolveCrawler(ua: string | undefined): ResolvedCrawler {
  let crawlers: EngineCrawler[];
  try {
    crawlers = resolveCrawlers(ua ?? DEFAULT_CRAWLER);
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
  return { input: crawlerInputOf(crawlers), profile, label, rewrites };
}

/** Says on standard error which crawler `--ua` was read as, when the engine's rule rewrote what was typed. */
export function sayRewrites(io: Io, crawler: ResolvedCrawler): void {
  for (const rewrite of crawler.rewrites) io.stderr.write(`robotskit: --ua: ${rewrite}\n`);
}
