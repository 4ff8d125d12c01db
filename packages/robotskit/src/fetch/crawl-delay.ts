/**
 * `crawl-delay`: seconds between requests, a directive Google ignores but Bing, Yandex (historically) and many other
 * crawlers honour. It is read from the groups that apply to the crawler, like the rules.
 */

import type { CrawlerInput, RobotsTxt } from '../robots-txt/robots-txt.js';

const SECONDS = /^\d+(?:\.\d+)?$|^\.\d+$/;

/**
 * The `crawl-delay` of the groups that apply to a crawler (a user agent or a crawler profile), in seconds: the first valid value (a non-negative decimal
 * number) in file order; null when those groups have none.
 * @example crawlDelayOf(parseRobotsTxt('User-agent: *\nCrawl-delay: 2.5'), 'MyBot') === 2.5
 */
export function crawlDelayOf(robots: RobotsTxt, userAgent: CrawlerInput): number | null {
  for (const group of robots.selectGroups(userAgent).groups) {
    for (const extension of group.extensions) {
      if (extension.name !== 'crawl-delay') continue;
      const value = extension.value.trim();
      if (SECONDS.test(value)) return Number(value);
    }
  }
  return null;
}
