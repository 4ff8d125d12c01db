/**
 * The `User-Agent` header a crawler of the catalogue sends, as its operator documents it, for tools that want to be
 * seen as that crawler (`robotskit audit --as`: does the edge treat GPTBot as the file does?). Crawlers whose
 * operator publishes no string, and control tokens that no fetcher sends, get a string built from their first token
 * in the usual `compatible;` form, which names the crawler by the same token and says it was built.
 */

import type { CrawlerProfile } from './profile.js';

/** Documented `User-Agent` strings, by catalogue name (from each operator's crawler page, the profile's `source`). */
const DOCUMENTED_BY_NAME: Readonly<Record<string, string>> = {
  Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot-Image': 'Googlebot-Image/1.0',
  'Googlebot-Video': 'Googlebot-Video/1.0',
  Bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  GPTBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
  'ChatGPT-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'OAI-SearchBot':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  ClaudeBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  PerplexityBot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  CCBot: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  Applebot:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  DuckDuckBot: 'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)',
  YandexBot: 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  Bytespider:
    'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
};

/** The same, by name in ASCII lower case (catalogue names are unique case-insensitively: `bingbot`). */
const DOCUMENTED = new Map(Object.entries(DOCUMENTED_BY_NAME).map(([name, ua]) => [name.toLowerCase(), ua]));

/** A crawler's `User-Agent` header, and whether its operator documents it (false: built from its first token). */
export interface CrawlerUserAgent {
  readonly userAgent: string;
  readonly documented: boolean;
}

/**
 * The `User-Agent` string `profile` sends: its operator's documented one, else
 * `Mozilla/5.0 (compatible; <first token>/1.0; +<source>)`.
 */
export function crawlerUserAgent(profile: CrawlerProfile): CrawlerUserAgent {
  const documented = DOCUMENTED.get(profile.name.toLowerCase());
  if (documented !== undefined) return { userAgent: documented, documented: true };
  const token = profile.tokens[0] ?? profile.name;
  const contact = profile.source === '' ? '' : `; +${profile.source}`;
  return { userAgent: `Mozilla/5.0 (compatible; ${token}/1.0${contact})`, documented: false };
}
