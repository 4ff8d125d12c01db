/**
 * `crawl-delay`: seconds between requests, a directive Google ignores but Bing, Yandex (historically) and many other
 * crawlers honour. It is read from the groups that apply to the crawler, like the rules, exactly as
 * {@link RobotsTxt.crawlDelay} reads it (one definition of a readable value: `crawlDelaySeconds`).
 */

import type { CrawlerInput, RobotsTxt } from '../../robots-txt/robots-txt.js';

/**
 * The `crawl-delay` of the groups that apply to a crawler (a user agent or a crawler profile), in seconds: the first
 * readable value in file order; null when those groups have none. The seconds of {@link RobotsTxt.crawlDelay}.
 * @example crawlDelayOf(parseRobotsTxt('User-agent: *\nCrawl-delay: 2.5'), 'MyBot') === 2.5
 */
export function crawlDelayOf(robots: RobotsTxt, userAgent: CrawlerInput): number | null {
  return robots.crawlDelay(userAgent)?.seconds ?? null;
}
