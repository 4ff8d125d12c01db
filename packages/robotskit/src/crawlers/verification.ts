/**
 * How to tell a real crawler from one that borrows its name: the host names its operator's reverse DNS gives its
 * addresses (checked forward too: the name must resolve back to the address), and the files where the operator
 * publishes its address ranges. Facts from each operator's documentation, with the page; checked November 2026.
 * - Google, "Verifying Googlebot and other Google crawlers"
 *   (https://developers.google.com/crawling/docs/crawlers-fetchers/verify-google-requests): common crawlers reverse to
 *   `googlebot.com`, special-case crawlers to `google.com`, user-triggered fetchers to `googleusercontent.com`; ranges
 *   in `googlebot.json`, `special-crawlers.json`, `user-triggered-fetchers*.json` (`{ prefixes: [{ ipv4Prefix }…] }`).
 * - Bing, "Verifying Bingbot" (https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26): `search.msn.com`;
 *   ranges in `bingbot.json` (Google's format).
 * - Apple, "About Applebot" (https://support.apple.com/en-us/119829): `applebot.apple.com`.
 * - Yandex, "How to check that a robot belongs to Yandex"
 *   (https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html): `yandex.ru`, `yandex.net`,
 *   `yandex.com`.
 * - Baidu (https://www.baidu.com/search/robots_english.html): `baidu.com`, `baidu.jp`.
 * - DuckDuckGo (https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot): published addresses only.
 * - OpenAI, "Overview of OpenAI Crawlers" (https://platform.openai.com/docs/bots): no reverse DNS; ranges in
 *   `gptbot.json`, `searchbot.json`, `chatgpt-user.json` (Google's format).
 * - Perplexity (https://docs.perplexity.ai/guides/bots): ranges in `perplexitybot.json`, `perplexity-user.json`.
 */

import { crawlerByName } from './catalogue.js';
import type { CrawlerProfile } from './profile.js';

/** How one operator's crawlers can be verified. */
export interface CrawlerVerification {
  /** The catalogue names of the crawlers this applies to. */
  readonly crawlers: readonly string[];
  readonly operator: string;
  /**
   * Domains the reverse DNS name of a genuine address ends in (`googlebot.com`: `crawl-66-249-66-1.googlebot.com`);
   * empty when the operator documents none.
   */
  readonly hostnames: readonly string[];
  /** Where the operator publishes its address ranges (JSON: `{ "prefixes": [{ "ipv4Prefix": … }, …] }`). */
  readonly ranges: readonly string[];
  /** The operator's documentation of it. */
  readonly source: string;
}

const GOOGLE_RANGES = 'https://developers.google.com/static/search/apis/ipranges';

/** Each operator's documented way to verify its crawlers. */
export const CRAWLER_VERIFICATION: readonly CrawlerVerification[] = Object.freeze([
  {
    crawlers: [
      'Googlebot',
      'Googlebot-Image',
      'Googlebot-News',
      'Googlebot-Video',
      'Storebot-Google',
      'Google-InspectionTool',
      'GoogleOther',
      'GoogleOther-Image',
      'GoogleOther-Video',
    ],
    operator: 'Google',
    hostnames: ['googlebot.com', 'google.com'],
    ranges: [`${GOOGLE_RANGES}/googlebot.json`],
    source: 'https://developers.google.com/crawling/docs/crawlers-fetchers/verify-google-requests',
  },
  {
    crawlers: ['APIs-Google', 'AdsBot-Google', 'AdsBot-Google-Mobile', 'Mediapartners-Google'],
    operator: 'Google',
    hostnames: ['google.com', 'googlebot.com'],
    ranges: [`${GOOGLE_RANGES}/special-crawlers.json`],
    source: 'https://developers.google.com/crawling/docs/crawlers-fetchers/verify-google-requests',
  },
  {
    crawlers: ['bingbot', 'msnbot', 'AdIdxBot'],
    operator: 'Microsoft',
    hostnames: ['search.msn.com'],
    ranges: ['https://www.bing.com/toolbox/bingbot.json'],
    source: 'https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26',
  },
  {
    crawlers: ['Applebot', 'Applebot-Extended'],
    operator: 'Apple',
    hostnames: ['applebot.apple.com'],
    ranges: ['https://search.developer.apple.com/applebot.json'],
    source: 'https://support.apple.com/en-us/119829',
  },
  {
    crawlers: ['YandexBot', 'YandexImages', 'YandexAdditional', 'YandexAdditionalBot'],
    operator: 'Yandex',
    hostnames: ['yandex.ru', 'yandex.net', 'yandex.com'],
    ranges: [],
    source: 'https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html',
  },
  {
    crawlers: ['Baiduspider'],
    operator: 'Baidu',
    hostnames: ['baidu.com', 'baidu.jp'],
    ranges: [],
    source: 'https://www.baidu.com/search/robots_english.html',
  },
  {
    crawlers: ['DuckDuckBot'],
    operator: 'DuckDuckGo',
    hostnames: [],
    ranges: ['https://duckduckgo.com/duckduckbot.json'],
    source: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot',
  },
  {
    crawlers: ['GPTBot'],
    operator: 'OpenAI',
    hostnames: [],
    ranges: ['https://openai.com/gptbot.json'],
    source: 'https://platform.openai.com/docs/bots',
  },
  {
    crawlers: ['OAI-SearchBot'],
    operator: 'OpenAI',
    hostnames: [],
    ranges: ['https://openai.com/searchbot.json'],
    source: 'https://platform.openai.com/docs/bots',
  },
  {
    crawlers: ['ChatGPT-User'],
    operator: 'OpenAI',
    hostnames: [],
    ranges: ['https://openai.com/chatgpt-user.json'],
    source: 'https://platform.openai.com/docs/bots',
  },
  {
    crawlers: ['PerplexityBot'],
    operator: 'Perplexity',
    hostnames: [],
    ranges: ['https://www.perplexity.ai/perplexitybot.json'],
    source: 'https://docs.perplexity.ai/guides/bots',
  },
  {
    crawlers: ['Perplexity-User'],
    operator: 'Perplexity',
    hostnames: [],
    ranges: ['https://www.perplexity.ai/perplexity-user.json'],
    source: 'https://docs.perplexity.ai/guides/bots',
  },
] satisfies CrawlerVerification[]);

let byCrawler: Map<string, CrawlerVerification> | null = null;

/**
 * How a crawler of the catalogue can be verified (by its profile or name, case-insensitively); null when its operator
 * documents no way, so requests in its name are unverifiable.
 * @example crawlerVerification('Googlebot-Image')?.hostnames // ['googlebot.com', 'google.com']
 */
export function crawlerVerification(crawler: CrawlerProfile | string): CrawlerVerification | null {
  if (byCrawler === null) {
    byCrawler = new Map();
    for (const entry of CRAWLER_VERIFICATION) {
      for (const name of entry.crawlers) byCrawler.set(name.toLowerCase(), entry);
    }
  }
  const name = typeof crawler === 'string' ? (crawlerByName(crawler)?.name ?? crawler) : crawler.name;
  return byCrawler.get(name.toLowerCase()) ?? null;
}

/**
 * Whether a reverse DNS name is one of the operator's: equal to one of its domains or under it, ASCII
 * case-insensitively, a final dot ignored (`crawl-66-249-66-1.googlebot.com.` is Google's; `googlebot.com.evil.test`
 * and `evilgooglebot.com` are not).
 */
export function isOperatorHostname(hostname: string, verification: CrawlerVerification): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return verification.hostnames.some((domain) => name === domain || name.endsWith(`.${domain}`));
}
