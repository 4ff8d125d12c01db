/**
 * The one definition of a readable `crawl-delay` value, used by {@link RobotsTxt.crawlDelay}, the crawl client and the
 * `invalid-crawl-delay` lint rule alike.
 */

/** A non-negative decimal number of seconds: digits with an optional fraction (`2`, `2.`, `2.5`) or a bare fraction (`.5`). */
const SECONDS = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The seconds a `crawl-delay` value (as the parser read it: surrounding whitespace already removed) stands for; null
 * when crawlers that honour the field cannot read it (`10s`, `-1`, `1e3`, `1,5`, empty, or too large to be finite).
 * @example crawlDelaySeconds('.5') === 0.5; crawlDelaySeconds('2.') === 2; crawlDelaySeconds('10s') === null
 */
export function crawlDelaySeconds(value: string): number | null {
  if (!SECONDS.test(value)) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds : null;
}
