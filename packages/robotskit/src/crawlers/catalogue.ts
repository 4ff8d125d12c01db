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
 * - X: "Troubleshooting Cards" (https://developer.x.com/en/docs/x-for-websites/cards/guides/troubleshooting-cards):
 *   Twitterbot respects robots.txt; a page it may not fetch gets no card, an image it may not fetch no thumbnail.
 */

import { AI_ROBOTS_TXT } from './ai-robots-txt.generated.js';
import {
  type AiRobotsTxtEntry,
  type CrawlerDefinition,
  type CrawlerKind,
  type CrawlerProfile,
  defineCrawler,
} from './profile.js';
import {
  AI_ROBOTS_TXT_SNAPSHOT_DATE,
  AI_ROBOTS_TXT_SOURCE,
  type CrawlerPurpose,
  curatedPurpose,
  purposeFromAiRobotsTxt,
} from './purposes.js';

const GOOGLE_COMMON = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers';
const GOOGLE_SPECIAL = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers';
const BING = 'https://www.bing.com/webmaster/help/which-crawlers-does-bing-use-8c184ec0';
const YANDEX = 'https://yandex.com/support/webmaster/controlling-robot/robots-txt.html';
const TWITTER_CARDS = 'https://developer.x.com/en/docs/x-for-websites/cards/guides/troubleshooting-cards';

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
    description: 'Google Search, Discover, Google Images, Google Video and Google News',
  }),
  google({
    name: 'Googlebot-Image',
    tokens: ['Googlebot-Image', 'Googlebot'],
    kind: 'search',
    description: 'Google Images and image features of Google Search',
  }),
  google({
    name: 'Googlebot-News',
    tokens: ['Googlebot-News', 'Googlebot'],
    kind: 'search',
    description: 'Google News',
  }),
  google({
    name: 'Googlebot-Video',
    tokens: ['Googlebot-Video', 'Googlebot'],
    kind: 'search',
    description: 'Video features of Google Search',
  }),
  google({
    name: 'Storebot-Google',
    tokens: ['Storebot-Google'],
    kind: 'other',
    description: 'Google Shopping',
  }),
  google({
    name: 'Google-InspectionTool',
    tokens: ['Google-InspectionTool', 'Googlebot'],
    kind: 'tool',
    description: "Search Console's URL inspection and the Rich Results Test",
  }),
  google({
    name: 'GoogleOther',
    tokens: ['GoogleOther'],
    kind: 'other',
    description: 'One-off crawls by Google product teams, research and development',
  }),
  google({
    name: 'GoogleOther-Image',
    tokens: ['GoogleOther-Image', 'GoogleOther'],
    kind: 'other',
    description: 'GoogleOther fetching image URLs',
  }),
  google({
    name: 'GoogleOther-Video',
    tokens: ['GoogleOther-Video', 'GoogleOther'],
    kind: 'other',
    description: 'GoogleOther fetching video URLs',
  }),
  google({
    name: 'Google-Extended',
    tokens: ['Google-Extended'],
    kind: 'ai',
    description:
      'A control token, not a fetcher (Google crawls with its other user agents): whether content may train and ground Gemini models',
  }),
  google({
    name: 'APIs-Google',
    tokens: ['APIs-Google'],
    kind: 'tool',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    description: 'Delivery of push notification messages of Google APIs',
  }),
  google({
    name: 'AdsBot-Google',
    tokens: ['AdsBot-Google'],
    kind: 'ads',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    description: 'Google Ads checks of ad quality on desktop web pages',
  }),
  google({
    name: 'AdsBot-Google-Mobile',
    tokens: ['AdsBot-Google-Mobile'],
    kind: 'ads',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    description: 'Google Ads checks of ad quality on mobile web pages',
  }),
  google({
    name: 'Mediapartners-Google',
    tokens: ['Mediapartners-Google'],
    kind: 'ads',
    ignoresGlobalGroup: true,
    source: GOOGLE_SPECIAL,
    description: 'AdSense: which ads to show on the page',
  }),
  {
    name: 'bingbot',
    tokens: ['bingbot', 'msnbot'],
    kind: 'search',
    honoursCrawlDelay: true,
    operator: 'Microsoft',
    description: 'Bing search (and the answers of Microsoft Copilot built on it)',
    source: BING,
  },
  {
    name: 'msnbot',
    tokens: ['msnbot'],
    kind: 'search',
    honoursCrawlDelay: true,
    operator: 'Microsoft',
    description: "Bing's former crawler name, still honoured in robots.txt",
    source: BING,
  },
  {
    name: 'AdIdxBot',
    tokens: ['adidxbot'],
    kind: 'ads',
    honoursCrawlDelay: null,
    operator: 'Microsoft',
    description: 'Microsoft Advertising: quality checks of ads and their landing pages',
    source: BING,
  },
  {
    name: 'YandexBot',
    tokens: ['YandexBot', 'Yandex'],
    kind: 'search',
    honoursCrawlDelay: false,
    operator: 'Yandex',
    description: 'Yandex search, main indexing robot',
    source: YANDEX,
  },
  {
    name: 'YandexImages',
    tokens: ['YandexImages', 'Yandex'],
    kind: 'search',
    honoursCrawlDelay: false,
    operator: 'Yandex',
    description: 'Yandex Images',
    source: YANDEX,
  },
  {
    name: 'Applebot',
    tokens: ['Applebot', 'Googlebot'],
    kind: 'search',
    honoursCrawlDelay: null,
    operator: 'Apple',
    description: 'Search in Siri, Spotlight and Safari',
    source: 'https://support.apple.com/en-us/119829',
  },
  {
    name: 'DuckDuckBot',
    tokens: ['DuckDuckBot'],
    kind: 'search',
    honoursCrawlDelay: null,
    operator: 'DuckDuckGo',
    description: 'DuckDuckGo search',
    source: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot',
  },
  {
    name: 'Baiduspider',
    tokens: ['Baiduspider'],
    kind: 'search',
    honoursCrawlDelay: null,
    operator: 'Baidu',
    description: 'Baidu search',
    source: 'https://www.baidu.com/search/robots_english.html',
  },
  {
    name: 'Twitterbot',
    tokens: ['Twitterbot'],
    kind: 'other',
    honoursCrawlDelay: null,
    operator: 'X',
    description: 'Fetches a link shared on X to show its card (title, description, image)',
    source: TWITTER_CARDS,
  },
];

/** `[text](url)` → `text`: the ai.robots.txt list writes operators as Markdown links. */
function plainOperator(operator: string): string {
  return operator.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
}

/** The kind of a crawler of the AI list, from its purpose: AI uses are `ai`, tools `tool`, search engines `search`. */
const KIND_OF_PURPOSE: Readonly<Record<CrawlerPurpose, CrawlerKind>> = {
  'search-engine': 'search',
  'ai-training': 'ai',
  'ai-search': 'ai',
  'ai-assistant': 'ai',
  'control-token': 'ai',
  'seo-tool': 'tool',
  'scraping-tool': 'tool',
  archiver: 'other',
  preview: 'other',
  other: 'ai',
};

function aiProfile(entry: AiRobotsTxtEntry, date: string): CrawlerDefinition {
  const fact = curatedPurpose(entry.name) ?? purposeFromAiRobotsTxt(entry.function, date);
  return {
    name: entry.name,
    tokens: [entry.name],
    kind: KIND_OF_PURPOSE[fact.purpose],
    honoursCrawlDelay: null,
    operator: plainOperator(entry.operator),
    description: entry.function,
    source: AI_ROBOTS_TXT_SOURCE,
    purpose: fact.purpose,
    purposeSource: fact.source,
    purposeDate: fact.date,
    blocking: fact.blocking,
    aiRobotsTxt: entry,
  };
}

/** A hand-written crawler with its curated purpose (every one has a row: the catalogue test checks it). */
function documented(definition: CrawlerDefinition): CrawlerDefinition {
  const fact = curatedPurpose(definition.name);
  if (fact === undefined) return definition;
  return {
    ...definition,
    purpose: fact.purpose,
    purposeSource: fact.source,
    purposeDate: fact.date,
    blocking: fact.blocking,
  };
}

function buildCatalogue(aiList: readonly AiRobotsTxtEntry[], date: string): CrawlerProfile[] {
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
  for (const definition of DOCUMENTED) add(documented(definition));
  for (const entry of aiList) add(aiProfile(entry, date));
  return order.map((key) => Object.freeze(defineCrawler(byName.get(key)!)));
}

/**
 * Every known crawler: Google's, Bing's, Yandex's, Apple's, DuckDuckGo's, Baidu's and X's crawlers, then every AI crawler
 * of the ai.robots.txt list (names that differ only in case are one profile, with the other spelling in `aliases`).
 */
export const CRAWLERS: readonly CrawlerProfile[] = Object.freeze(
  buildCatalogue(AI_ROBOTS_TXT, AI_ROBOTS_TXT_SNAPSHOT_DATE),
);

/**
 * The catalogue with another ai.robots.txt list in place of the one the package ships (a newer upstream
 * `robots.json`, read with {@link readAiRobotsTxt}): the hand-written crawlers, then every entry of `aiList`. Crawlers
 * the curated table knows keep their purpose; a new one gets the purpose its list category means, dated `date` (when
 * the list was taken).
 */
export function catalogueWith(aiList: readonly AiRobotsTxtEntry[], date: string): readonly CrawlerProfile[] {
  return Object.freeze(buildCatalogue(aiList, date));
}

/** Each catalogue's profiles by lower-case name and alias, built on first use. */
const byLowerName = new WeakMap<readonly CrawlerProfile[], Map<string, CrawlerProfile>>();

/**
 * The catalogue's profile for a name or alias, ASCII case-insensitively; undefined when the catalogue has none.
 * `crawlers` is the catalogue to look in (default `CRAWLERS`; `catalogueWith` gives one with a newer ai.robots.txt list).
 * @example crawlerByName('googlebot-image')?.tokens // ['Googlebot-Image', 'Googlebot']
 */
export function crawlerByName(
  name: string,
  crawlers: readonly CrawlerProfile[] = CRAWLERS,
): CrawlerProfile | undefined {
  let names = byLowerName.get(crawlers);
  if (names === undefined) {
    names = new Map();
    for (const crawler of crawlers) {
      for (const n of [crawler.name, ...crawler.aliases]) names.set(n.toLowerCase(), crawler);
    }
    byLowerName.set(crawlers, names);
  }
  return names.get(name.toLowerCase());
}
