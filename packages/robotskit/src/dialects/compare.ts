/**
 * Both verdicts for one URL: Google's (RFC 9309) and a 1994-convention crawler's, each with the lines that decided.
 */

import type { Explanation } from '../model/types.js';
import type { RobotsInput } from '../parse/input.js';
import { type CrawlerInput, type ParseOptions, parseRobotsTxt, RobotsTxt } from '../robots-txt/robots-txt.js';

/** The two readings of one URL. */
export interface DialectComparison {
  /** The verdict as Google reads the file (`google` dialect). */
  readonly google: Explanation;
  /** The verdict as a crawler following the 1994 convention reads it (`legacy` dialect). */
  readonly legacy: Explanation;
  /** Whether both readings give the same verdict (they may still name different lines). */
  readonly agree: boolean;
}

/**
 * Explains a URL in both dialects: which groups (records) applied and which line decided, for Google and for a crawler
 * following the 1994 convention. Use {@link dialectDifferences} to find where a whole file reads differently.
 *
 * @param input A parsed file (in either dialect; the other reading is parsed once and kept) or its text or bytes.
 * @param options Parse options when `input` is not parsed yet (`dialect` is ignored).
 * @example
 * const { google, legacy } = compareDialects('User-agent: *\nDisallow: /a\nAllow: /a/b\n', '/a/b', 'Googlebot');
 * google.allowed; // true: the longer allow wins
 * legacy.allowed; // false: the first matching rule (line 2) decides
 */
export function compareDialects(
  input: RobotsTxt | RobotsInput,
  url: string | URL,
  crawler: CrawlerInput,
  options?: ParseOptions,
): DialectComparison {
  const robots = input instanceof RobotsTxt ? input : parseRobotsTxt(input, { ...options, dialect: 'google' });
  const google = robots.inDialect('google').explain(url, crawler);
  const legacy = robots.inDialect('legacy').explain(url, crawler);
  return { google, legacy, agree: google.allowed === legacy.allowed };
}
