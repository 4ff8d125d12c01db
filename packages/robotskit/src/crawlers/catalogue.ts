/**
 * The catalogue of known crawlers: search engines' and ad crawlers (written here, each with its source), and every AI
 * crawler of the ai.robots.txt list (generated, see `scripts/generate-ai-crawlers.mjs`).
 *
 * Sources (checked November 2026):
 * - Google: "Overview of Google crawlers and fetchers", "List of Google's common crawlers" and "List of Google's
 *   special-case crawlers" (https://developers.google.com/crawling/docs/crawlers-fetchers/overview-google-crawlers and
 *   its sibling pages). A crawler with two tokens obeys the groups of the first the file names ("you need to match
 *   only one crawler token for a rule to apply"); the special-case crawlers APIs-Google, AdsBot-Google,
 *   AdsBot-Google-Mobile and Mediapartners-Google ignore the global `*` group. Google's robots.txt documentation
 *   (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt, seed 000) shows Storebot-Google
 *   falling back to `*`, and says Google ignores `crawl-delay`.
 * - Bing: "Which crawlers does Bing use?" (https://www.bing.com/webmaster/help/which-crawlers-does-bing-use-8c184ec0)
 *   and "To crawl or not to crawl, that is BingBot's question"
 *   (https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question): bingbot honours
 *   `crawl-delay` and reads the `msnbot` group when the file has no `bingbot` one.
 * - Yandex: "Using robots.txt" (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html): `YandexBot`
 *   groups apply to the main robot, else `Yandex` groups (all Yandex robots), else `*`. Yandex no longer follows
 *   `crawl-delay` (since February 2018 the crawl rate is set in Yandex.Webmaster).
 * - Apple: "About Applebot" (https://support.apple.com/en-us/119829): "If robots instructions don't mention Applebot
 *   but do mention Googlebot, the Apple robot will follow Googlebot instructions."
 * - DuckDuckGo: https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot; Baidu:
 *   https://www.baidu.com/search/robots_english.html. Neither documents `crawl-delay`.
 */

import { AI_ROBOTS_TXT } from './ai-robots-txt.generated.js';
import { type AiRobotsTxtEntry, type CrawlerDefinition, type CrawlerProfile, defineCrawler } from './profile.js';

const GOOGLE_COMMON = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers';
const GOOGLE_SPECIAL = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers';
const BING = 'https://www.bing.com/webmaster/help/which-crawlers-does-bing-use-8c184ec0';
const YANDEX = 'https://yandex.com/support/webmaster/controlling-robot/robots-txt.html';

const google = (definition: Omit<CrawlerDefinition, 'operator'>): CrawlerDefinition => ({
  operator: 'Google',
  honoursCrawlDelay: false,
  source: GOOGLE_COMMON,
  ...definition,
});

/** Crawlers written here, with facts from their operators' documentation. */
const DOCUMENTED: readonly CrawlerDefinition[] = [
  google({
    name: 'Googlebot',
    tokens: ['Googlebot'],
    kind: 'search',
    purpose: 'Google Search, Discover, Google Images, Google Video and Google News',
  }),
  google({
    name: 'Googlebot-Image',
    tokens: ['Googlebot-Image', 'Googlebot'],
    kind: 'search',
    purpose: 'Google Images and image features of Google Search',
  }),
  google({
    name: 'Googlebot-News',
    tokens: ['Googlebot-News', 'Googlebot'],
    kind: 'search',
    purpose: 'Google News',
  }),
  google({
    name: 'Googlebot-Video',
    tokens: ['Googlebot-Video', 'Googlebot'],
    kind: 'search',
    purpose: 'Video features of Google Search',
  }),
  google({
    name: 'Storebot-Google',
    tokens: ['Storebot-Google'],
    kind: 'other',
    purpose: 'Google Shopping',
  }),
  google({
    name: 'Google-InspectionTool',
    tokens: ['Google-InspectionTool', 'Googlebot'],
    kind: 'tool',
    purpose: "Search Console's URL inspection and the Rich Results Test",
  }),
  google({
    name: 'GoogleOther',
    tokens: ['GoogleOther'],
    kind: 'other',
    purpose: 'One-off crawls by Google product teams, research and development',
  }),
  google({
    name: 'GoogleOther-Image',
    tokens: ['GoogleOther-Image', 'GoogleOther'],
    kind: 'other',
    purpose: 'GoogleOther fetching image URLs',
  }),
  google({
    name: 'GoogleOther-Video',
    tokens: ['GoogleOther-Video', 'GoogleOther'],
    kind: 'other',
    purpose: 'GoogleOther fetching video URLs',
  }),
  google({
    name: 'Google-Extended',
    tokens: ['Google-Extended'],
    kind: 'ai',
    purpose:
      'A control token, not a fetcher (Google crawls with its other user agents): whether content may train and ground Gemini models',
  }),
  google({
    name: 'APIs-Google',
    tokens: ['APIs-Google'],
    kind: 'tool',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    purpose: 'Delivery of push notification messages of Google APIs',
  }),
  google({
    name: 'AdsBot-Google',
    tokens: ['AdsBot-Google'],
    kind: 'ads',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    purpose: 'Google Ads checks of ad quality on desktop web pages',
  }),
  google({
    name: 'AdsBot-Google-Mobile',
    tokens: ['AdsBot-Google-Mobile'],
    kind: 'ads',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    purpose: 'Google Ads checks of ad quality on mobile web pages',
  }),
  google({
    name: 'Mediapartners-Google',
    tokens: ['Mediapartners-Google'],
    kind: 'ads',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    purpose: 'AdSense: which ads to show on the page',
  }),
  {
    name: 'bingbot',
    tokens: ['bingbot', 'msnbot'],
    kind: 'search',
    honoursCrawlDelay: true,
    operator: 'Microsoft',
    purpose: 'Bing search (and the answers of Microsoft Copilot built on it)',
    source: BING,
  },
  {
    name: 'msnbot',
    tokens: ['msnbot'],
    kind: 'search',
    honoursCrawlDelay: true,
    operator: 'Microsoft',
    purpose: "Bing's former crawler name, still honoured in robots.txt",
    source: BING,
  },
  {
    name: 'AdIdxBot',
    tokens: ['adidxbot'],
    kind: 'ads',
    honoursCrawlDelay: null,
    operator: 'Microsoft',
    purpose: 'Microsoft Advertising: quality checks of ads and their landing pages',
    source: BING,
  },
  {
    name: 'YandexBot',
    tokens: ['YandexBot', 'Yandex'],
    kind: 'search',
    honoursCrawlDelay: false,
    operator: 'Yandex',
    purpose: 'Yandex search, main indexing robot',
    source: YANDEX,
  },
  {
    name: 'YandexImages',
    tokens: ['YandexImages', 'Yandex'],
    kind: 'search',
    honoursCrawlDelay: false,
    operator: 'Yandex',
    purpose: 'Yandex Images',
    source: YANDEX,
  },
  {
    name: 'Applebot',
    tokens: ['Applebot', 'Googlebot'],
    kind: 'search',
    honoursCrawlDelay: null,
    operator: 'Apple',
    purpose: 'Search in Siri, Spotlight and Safari',
    source: 'https://support.apple.com/en-us/119829',
  },
  {
    name: 'DuckDuckBot',
    tokens: ['DuckDuckBot'],
    kind: 'search',
    honoursCrawlDelay: null,
    operator: 'DuckDuckGo',
    purpose: 'DuckDuckGo search',
    source: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot',
  },
  {
    name: 'Baiduspider',
    tokens: ['Baiduspider'],
    kind: 'search',
    honoursCrawlDelay: null,
    operator: 'Baidu',
    purpose: 'Baidu search',
    source: 'https://www.baidu.com/search/robots_english.html',
  },
];

/** `[text](url)` → `text`: the ai.robots.txt list writes operators as Markdown links. */
function plainOperator(operator: string): string {
  return operator.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
}

function aiProfile(entry: AiRobotsTxtEntry): CrawlerDefinition {
  return {
    name: entry.name,
    tokens: [entry.name],
    kind: 'ai',
    honoursCrawlDelay: null,
    operator: plainOperator(entry.operator),
    purpose: entry.function,
    source: 'https://github.com/ai-robots-txt/ai.robots.txt',
    aiRobotsTxt: entry,
  };
}

function buildCatalogue(): CrawlerProfile[] {
  const byName = new Map<string, CrawlerDefinition>();
  const order: string[] = [];
  const add = (definition: CrawlerDefinition) => {
    const key = definition.name.toLowerCase();
    const known = byName.get(key);
    if (known === undefined) {
      byName.set(key, definition);
      order.push(key);
      return;
    }
    // A second spelling of a known name: the first entry stays, the AI list's facts and the spelling are added to it.
    byName.set(key, {
      ...known,
      aliases: [...(known.aliases ?? []), ...(definition.name === known.name ? [] : [definition.name])],
      aiRobotsTxt: known.aiRobotsTxt ?? definition.aiRobotsTxt ?? null,
    });
  };
  for (const definition of DOCUMENTED) add(definition);
  for (const entry of AI_ROBOTS_TXT) add(aiProfile(entry));
  return order.map((key) => Object.freeze(defineCrawler(byName.get(key)!)));
}

/**
 * Every known crawler: Google's, Bing's, Yandex's, Apple's, DuckDuckGo's and Baidu's crawlers, then every AI crawler
 * of the ai.robots.txt list (names that differ only in case are one profile, with the other spelling in `aliases`).
 */
export const CRAWLERS: readonly CrawlerProfile[] = Object.freeze(buildCatalogue());

let byLowerName: Map<string, CrawlerProfile> | null = null;

/**
 * The catalogue's profile for a name or alias, ASCII case-insensitively; undefined when the catalogue has none.
 * @example crawlerByName('googlebot-image')?.tokens // ['Googlebot-Image', 'Googlebot']
 */
export function crawlerByName(name: string): CrawlerProfile | undefined {
  if (byLowerName === null) {
    byLowerName = new Map();
    for (const crawler of CRAWLERS) {
      for (const n of [crawler.name, ...crawler.aliases]) byLowerName.set(n.toLowerCase(), crawler);
    }
  }
  return byLowerName.get(name.toLowerCase());
}
