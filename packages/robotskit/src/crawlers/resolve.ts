/**
 * What a person means by the crawler they type (`--ua`, the service's `userAgents`, the web tester's crawler field):
 * the one rule every surface applies, with a sentence whenever the name used is not the name typed. The rule is
 * documented in the engine README ("Naming the crawler").
 */

import { isValidProductToken, namedCrawler } from '../url/user-agent.js';
import { CRAWLERS, crawlerByName } from './catalogue.js';
import { closestCrawler } from './closest.js';
import type { CrawlerProfile } from './profile.js';

/** The name that stands for "any crawler": no group names it, so only the `*` groups apply. */
export const ANY_CRAWLER = '*';

/** A crawler as a person named it, resolved to what the engine is asked with. */
export interface ResolvedCrawler {
  /** The name exactly as typed. */
  readonly typed: string;
  /** `profile`: a crawler of the catalogue; `token`: a product token; `any`: any crawler (the `*` groups). */
  readonly kind: 'profile' | 'token' | 'any';
  /**
   * What to give the engine (`isAllowed`, `explain`, `crawlDelay`, the crawl client's `crawler`): a profile, a product
   * token, `*`, or for a string naming no crawler that string (the engine reduces it to an empty token: no group).
   */
  readonly input: string | CrawlerProfile;
  /** The catalogue profile, for `profile`. */
  readonly profile: CrawlerProfile | null;
  /** The product token matched against the file, for `token` (`''` when the input names no crawler: no group). */
  readonly token: string | null;
  /** The name used, after any rewrite: the catalogue name or token as typed, the reduced token, or `*`. */
  readonly name: string;
  /** The name to show: the profile's name, the token, or `*`. */
  readonly label: string;
  /**
   * Set when the name used differs from the name typed, saying what was used and why (whitespace removed, a
   * User-Agent string reduced to the crawler it names, a name that names no crawler); null when used as typed.
   */
  readonly rewrite: string | null;
  /**
   * For a name not in the catalogue that is one typo or two from a catalogue name (`Googelbot`): that name, to ask
   * "did you mean Googlebot?" (the name is still used as typed, as the reference would); null otherwise.
   */
  readonly suggestion: string | null;
}

/** Thrown by {@link resolveCrawlers} for an empty list. */
export class CrawlerInputError extends Error {
  override readonly name = 'CrawlerInputError';
}

function show(text: string): string {
  return `'${text}'`;
}

function profileOrToken(
  typed: string,
  name: string,
  rewrite: string | null,
  catalogue: readonly CrawlerProfile[],
): ResolvedCrawler {
  const profile = crawlerByName(name, catalogue);
  if (profile !== undefined) {
    return {
      typed,
      kind: 'profile',
      input: profile,
      profile,
      token: null,
      name,
      label: profile.name,
      rewrite,
      suggestion: null,
    };
  }
  const suggestion = closestCrawler(name, catalogue)?.name ?? null;
  return { typed, kind: 'token', input: name, profile: null, token: name, name, label: name, rewrite, suggestion };
}

/**
 * Resolves one crawler name as a person typed it:
 * - `*` is any crawler: only the `*` groups apply;
 * - a name of the catalogue ({@link crawlerByName}, case-insensitive) is that crawler's profile, with its fallback order;
 * - a product token (`[a-zA-Z_-]+`) is used as it is;
 * - a User-Agent string (one with a `( … )` comment, or one `Name/version` product) stands for the crawler it names
 *   (`Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)` and `Googlebot/2.1` → Googlebot, then as typed by name);
 * - anything else, or a string that names no crawler (`(FooBot)`, `/1.0`, `Foo Bar`, `My Bot/1.0`), matches no group
 *   (only the `*` groups apply), and says so;
 * - surrounding whitespace is removed first.
 * Every step that changes the name is reported in {@link ResolvedCrawler.rewrite}; a name not in the catalogue but a
 * typo away from one gets that name in {@link ResolvedCrawler.suggestion} (it is still used as typed).
 *
 * `catalogue` is the catalogue names are read in (default `CRAWLERS`; `catalogueWith` gives one with a newer
 * ai.robots.txt list, so a crawler only that list knows resolves to its profile).
 */
export function resolveCrawler(typed: string, catalogue: readonly CrawlerProfile[] = CRAWLERS): ResolvedCrawler {
  const name = typed.trim();
  const trimmed = name !== typed;
  if (name === ANY_CRAWLER) {
    return {
      typed,
      kind: 'any',
      input: ANY_CRAWLER,
      profile: null,
      token: null,
      name: ANY_CRAWLER,
      label: ANY_CRAWLER,
      rewrite: trimmed
        ? `used ${show(ANY_CRAWLER)} (any crawler) for ${show(typed)}: surrounding whitespace removed`
        : null,
      suggestion: null,
    };
  }
  if (crawlerByName(name, catalogue) !== undefined || isValidProductToken(name)) {
    return profileOrToken(
      typed,
      name,
      trimmed ? `used ${show(name)} for ${show(typed)}: surrounding whitespace removed` : null,
      catalogue,
    );
  }
  // A User-Agent string has a `( … )` comment or is one `Name/version` product; anything else (`Foo Bar`, `ツ`,
  // `My Bot/1.0`) names no crawler.
  const token = name.includes('(') || /^[^\s/]+\/\S*$/.test(name) ? namedCrawler(name) : '';
  if (token === '') {
    return {
      typed,
      kind: 'token',
      // The string itself: no group can name it (the engine matches it exactly, or reduces it to an empty token).
      input: name,
      profile: null,
      token: '',
      name,
      label: name,
      rewrite: `${show(typed)} is not a product token (letters, '-' and '_') and names no crawler: it matches no group, so only the * groups apply`,
      suggestion: closestCrawler(name, catalogue)?.name ?? null,
    };
  }
  return profileOrToken(
    typed,
    token,
    `used ${show(token)} for ${show(typed)}: the crawler this User-Agent string names (robots.txt groups are matched by product token)`,
    catalogue,
  );
}

/**
 * The crawler names in a typed list: one per line, and on a line separated by commas outside parentheses, so a
 * User-Agent string stays whole (`Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1)` is
 * one name: every browser-like string has a comma inside its parentheses). Names are trimmed; empty ones dropped.
 */
export function splitCrawlerNames(text: string): string[] {
  return namesAsTyped(text).map((name) => name.trim());
}

/**
 * {@link splitCrawlerNames} with the whitespace around the whole text kept (blank names dropped): spaces beside a
 * separator are layout, but a name typed with spaces around it is resolved and says what it trimmed.
 */
function namesAsTyped(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  const cut = (end: number) => {
    let name = text.slice(start, end);
    if (start > 0) name = name.trimStart();
    if (end < text.length) name = name.trimEnd();
    if (name.trim() !== '') names.push(name);
    start = end + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '\n' || c === '\r') {
      depth = 0;
      cut(i);
    } else if (c === ',' && depth === 0) cut(i);
  }
  cut(text.length);
  return names;
}

/**
 * Resolves a list of crawler names: an array, or typed text read by {@link splitCrawlerNames} (one per line, or
 * separated by commas outside parentheses), each in `catalogue` (default `CRAWLERS`). Throws {@link CrawlerInputError}
 * when no name is left.
 */
export function resolveCrawlers(
  names: string | readonly string[],
  catalogue: readonly CrawlerProfile[] = CRAWLERS,
): ResolvedCrawler[] {
  const list = typeof names === 'string' ? namesAsTyped(names) : names;
  const resolved = list.filter((n) => n.trim() !== '').map((n) => resolveCrawler(n, catalogue));
  if (resolved.length === 0)
    throw new CrawlerInputError(
      'no crawler named: give a product token (e.g. Googlebot), a crawler of the catalogue or *',
    );
  return resolved;
}

/**
 * The engine input for several resolved crawlers asked at once (their rules pooled, as the reference does with several
 * names): one profile or name as it is, else the names (a profile by the token it was named with, else its first one;
 * `*` stays a name no group has).
 */
export function crawlerInputOf(crawlers: readonly ResolvedCrawler[]): string | CrawlerProfile | readonly string[] {
  if (crawlers.length === 1) return crawlers[0]!.input;
  return crawlers.map((c) =>
    c.profile === null ? (c.input as string) : isValidProductToken(c.name) ? c.name : c.profile.tokens[0]!,
  );
}
