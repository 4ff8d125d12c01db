/**
 * Option values and defaults the help shows, kept apart from the commands so `robotskit --help` loads none of them
 * (each command's module, and the engine, load when that command runs).
 */

/** `lint --format` values. */
export const LINT_FORMATS = ['text', 'json', 'sarif'] as const;
/** The severities, most serious first (`lint --severity`). */
export const SEVERITIES = ['error', 'warning', 'info'] as const;
/** `batch --order` values: records in input order, or as they complete. */
export const BATCH_ORDERS = ['input', 'completion'] as const;
/** `logs --log-format` values (`auto`: JSON for a line that starts with `{`, else Common/Combined Log Format). */
export const LOG_FORMATS = ['auto', 'combined', 'common', 'json'] as const;
/** `sitemaps --scope` values. */
export const SITEMAP_SCOPES = ['protocol', 'origin', 'none'] as const;

/**
 * The crawler `check`, `batch`, `audit` and `explain` decide for without `--ua`: robots.txt exactly as Google reads
 * it, so Google's crawler (a catalogue name: its fallbacks apply, as for `--ua Googlebot`).
 */
export const DEFAULT_CRAWLER = 'Googlebot';

/** What `--ua` takes, for the help. */
export const UA_HELP =
  'a crawler of the catalogue (Googlebot-Image), product token(s) or a User-Agent string (its crawler is used, and said), comma-separated';
/** The one-line warning (after `--ua: `) for a name that is not in the catalogue but close to `suggestion`. */
export function typoHint(name: string, suggestion: string): string {
  return `'${name}' is not in the catalogue (used as typed, a token no group may name): did you mean ${suggestion}?`;
}
