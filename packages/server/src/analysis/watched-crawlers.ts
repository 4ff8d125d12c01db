/**
 * The crawlers the service watches for every site: one list, each with why it is on it. The impact check asks about
 * all of them unless a request names others; alerts work out what a change means for some (`inAlerts`), and blocking
 * the whole site or its stylesheets and scripts is an alert of its own for fewer still (`blockingAlerts`). Names are
 * read by the engine's `resolveCrawler`; "any crawler" is the engine's `ANY_CRAWLER` (`*`: only the `*` groups apply).
 */

import { ANY_CRAWLER } from 'robotskit';

/** A watched crawler. */
interface WatchedCrawler {
  /** A catalogue name, or `*` for any crawler without a group of its own. */
  readonly name: string;
  /** Why it is watched. */
  readonly why: string;
  /** Alerts say what a change means for it (the exact comparison) and count the sitemap URLs it changes for it. */
  readonly inAlerts: boolean;
  /** Newly blocking `/`, or stylesheets and scripts, for it is an alert of its own (`disallow-all-added`…). */
  readonly blockingAlerts: boolean;
  /**
   * A site depends on it to be found (a search engine's crawler): the share of sitemap URLs a change newly blocks for
   * it grades the change's severity, and the headlines name it.
   */
  readonly dependedOn: boolean;
}

/** The watched crawlers, in the order the impact check lists them. */
export const WATCHED_CRAWLERS: readonly WatchedCrawler[] = [
  {
    name: ANY_CRAWLER,
    why: 'every crawler without a group of its own reads the * group',
    inAlerts: true,
    blockingAlerts: true,
    dependedOn: true,
  },
  {
    name: 'Googlebot',
    why: 'Google Search, where most sites are found; Google renders pages with their stylesheets and scripts',
    inAlerts: true,
    blockingAlerts: true,
    dependedOn: true,
  },
  {
    name: 'Googlebot-Image',
    why: 'Google Images; it reads the Googlebot group when no group names it',
    inAlerts: false,
    blockingAlerts: false,
    dependedOn: true,
  },
  {
    name: 'bingbot',
    why: 'Bing, whose index also serves other search engines',
    inAlerts: true,
    blockingAlerts: false,
    dependedOn: true,
  },
  {
    name: 'Applebot',
    why: 'Siri and Spotlight; it reads the Googlebot group when no group names it',
    inAlerts: true,
    blockingAlerts: false,
    dependedOn: true,
  },
  { name: 'DuckDuckBot', why: "DuckDuckGo's own crawler", inAlerts: false, blockingAlerts: false, dependedOn: true },
  { name: 'YandexBot', why: 'Yandex Search', inAlerts: false, blockingAlerts: false, dependedOn: true },
  { name: 'Baiduspider', why: 'Baidu Search', inAlerts: false, blockingAlerts: false, dependedOn: true },
  {
    name: 'GPTBot',
    why: "OpenAI's crawler for training its models",
    inAlerts: true,
    blockingAlerts: false,
    dependedOn: false,
  },
  {
    name: 'ClaudeBot',
    why: "Anthropic's crawler for training its models",
    inAlerts: true,
    blockingAlerts: false,
    dependedOn: false,
  },
  {
    name: 'PerplexityBot',
    why: "Perplexity's crawler for its answers",
    inAlerts: false,
    blockingAlerts: false,
    dependedOn: false,
  },
  {
    name: 'CCBot',
    why: "Common Crawl's crawler, whose archive many models are trained on",
    inAlerts: false,
    blockingAlerts: false,
    dependedOn: false,
  },
];

/** Every watched crawler's name: the impact check's crawlers when a request names none. */
export const WATCHED_CRAWLER_NAMES: readonly string[] = WATCHED_CRAWLERS.map((c) => c.name);

/**
 * The crawlers alerts speak for, named crawlers first and `*` last: a change's sentence ends with "and other
 * crawlers (*)".
 */
export const ALERT_CRAWLER_NAMES: readonly string[] = [
  ...WATCHED_CRAWLERS.filter((c) => c.inAlerts && c.name !== ANY_CRAWLER).map((c) => c.name),
  ...(WATCHED_CRAWLERS.some((c) => c.inAlerts && c.name === ANY_CRAWLER) ? [ANY_CRAWLER] : []),
];

/** The crawlers whose newly blocked site or assets are alerts of their own. */
export const BLOCKING_ALERT_CRAWLER_NAMES: readonly string[] = WATCHED_CRAWLERS.filter((c) => c.blockingAlerts).map(
  (c) => c.name,
);

/** The crawlers a site depends on to be found (search engines' and `*`): a change's harm is measured for them. */
export const DEPENDED_ON_CRAWLER_NAMES: readonly string[] = WATCHED_CRAWLERS.filter((c) => c.dependedOn).map(
  (c) => c.name,
);
