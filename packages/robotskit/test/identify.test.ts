import { describe, expect, it } from 'vitest';
import { crawlerVerification, identifyCrawler, isOperatorHostname } from '../src/index.js';

describe('identifyCrawler', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    [
      'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Googlebot',
    ],
    ['Googlebot-Image/1.0', 'Googlebot-Image'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      'GPTBot',
    ],
    ['Mozilla/5.0 (compatible; AI2Bot/1.0; +https://www.allenai.org/crawler)', 'AI2Bot'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      'Applebot',
    ],
  ])('%s is %s, from the catalogue', (ua, name) => {
    const found = identifyCrawler(ua);
    expect(found?.name).toBe(name);
    expect(found?.profile?.name).toBe(name);
  });

  it('groups an unknown bot by its product token', () => {
    expect(identifyCrawler('Mozilla/5.0 (compatible; ExampleCrawler/3.1; +https://crawler.invalid/)')).toEqual({
      name: 'ExampleCrawler',
      profile: null,
      token: 'ExampleCrawler',
    });
    expect(identifyCrawler('fetchy-bot/1.0')?.name).toBe('fetchy-bot');
  });

  it.each([
    '',
    '-',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
    'curl/8.5.0',
    'python-requests/2.32.3',
  ])('%j names no crawler', (ua) => {
    expect(identifyCrawler(ua)).toBeNull();
  });

  it('throws on a value that is not a string (a programmer error)', () => {
    expect(() => identifyCrawler(3 as unknown as string)).toThrow(TypeError);
  });
});

describe('crawler verification', () => {
  it('knows the operators’ documented domains and range files', () => {
    expect(crawlerVerification('googlebot-image')?.hostnames).toContain('googlebot.com');
    expect(crawlerVerification('bingbot')?.hostnames).toEqual(['search.msn.com']);
    expect(crawlerVerification('Applebot')?.hostnames).toEqual(['applebot.apple.com']);
    expect(crawlerVerification('GPTBot')?.hostnames).toEqual([]);
    expect(crawlerVerification('GPTBot')?.ranges.map((u) => u.split('/').pop())).toEqual(['gptbot.json']);
    expect(crawlerVerification('ClaudeBot')).toBeNull();
    expect(crawlerVerification('NoSuchBot')).toBeNull();
  });

  it('accepts the operator’s domains and names under them, nothing else', () => {
    const google = crawlerVerification('Googlebot')!;
    expect(isOperatorHostname('crawl-66-249-66-1.googlebot.com', google)).toBe(true);
    expect(isOperatorHostname('CRAWL-66-249-66-1.GoogleBot.com.', google)).toBe(true);
    expect(isOperatorHostname('rate-limited-proxy-1.google.com', google)).toBe(true);
    expect(isOperatorHostname('googlebot.com.evil.invalid', google)).toBe(false);
    expect(isOperatorHostname('evilgooglebot.com', google)).toBe(false);
    expect(isOperatorHostname('crawl.search.msn.com', google)).toBe(false);
  });
});
