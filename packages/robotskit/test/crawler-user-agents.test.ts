/**
 * `crawlerUserAgent`: the User-Agent header each crawler of the catalogue sends (its operator's documented string, or
 * one built from its token), which the engine's own naming rule reads back as that crawler.
 */
import { describe, expect, it } from 'vitest';
import { CRAWLERS, crawlerByName, crawlerUserAgent, defineCrawler, resolveCrawler } from '../src/index.js';

describe('crawlerUserAgent', () => {
  it('gives the documented strings of the crawlers whose operators publish one', () => {
    expect(crawlerUserAgent(crawlerByName('GPTBot')!)).toEqual({
      userAgent:
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
      documented: true,
    });
    expect(crawlerUserAgent(crawlerByName('Googlebot')!).userAgent).toBe(
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    );
    // Catalogue names are case-insensitive: the catalogue spells it bingbot.
    expect(crawlerUserAgent(crawlerByName('Bingbot')!).documented).toBe(true);
  });

  it('builds one from the first token, with the source, for the others', () => {
    const bot = defineCrawler({
      name: 'ExampleBot',
      tokens: ['ExampleBot', 'Googlebot'],
      source: 'https://e.invalid/bot',
    });
    expect(crawlerUserAgent(bot)).toEqual({
      userAgent: 'Mozilla/5.0 (compatible; ExampleBot/1.0; +https://e.invalid/bot)',
      documented: false,
    });
    expect(crawlerUserAgent(defineCrawler({ name: 'Plain', tokens: ['Plain'] })).userAgent).toBe(
      'Mozilla/5.0 (compatible; Plain/1.0)',
    );
  });

  it('is read back as the same crawler by the naming rule, for every crawler of the catalogue with valid tokens', () => {
    const wrong: string[] = [];
    let documented = 0;
    for (const profile of CRAWLERS) {
      if (!profile.validTokens) continue;
      const ua = crawlerUserAgent(profile);
      if (ua.documented) documented++;
      const read = resolveCrawler(ua.userAgent);
      if (read.profile?.name !== profile.name) wrong.push(`${profile.name}: ${ua.userAgent} → ${read.name}`);
    }
    expect(wrong).toEqual([]);
    expect(documented).toBe(14);
  });
});
