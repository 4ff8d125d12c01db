/** `crawlerAccess`: nothing, everything or some of a site, exactly, per crawler and through fallback orders. */

import { describe, expect, it } from 'vitest';
import { crawlerByName, parseRobotsTxt } from '../src/index.js';
import { crawlerAccess } from '../src/semantics/index.js';

const access = (text: string, crawlers: Parameters<typeof crawlerAccess>[1]) =>
  crawlerAccess(parseRobotsTxt(text), crawlers).map((a) => [a.crawler, a.access]);

describe('crawlerAccess', () => {
  it('tells nothing, everything and some apart for each crawler', () => {
    const text =
      'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /cart\n\nUser-agent: bingbot\nDisallow:\n';
    expect(access(text, ['Googlebot', 'bingbot', 'GPTBot', '*'])).toEqual([
      ['Googlebot', 'some'],
      ['bingbot', 'everything'],
      ['GPTBot', 'nothing'],
      ['*', 'nothing'],
    ]);
    const [googlebot] = crawlerAccess(parseRobotsTxt(text), ['Googlebot']);
    expect(googlebot?.blocked.map((r) => r.pattern)).toEqual(['/cart']);
    expect(googlebot?.complete).toBe(true);
  });

  it('names a shortest path the crawler may fetch, where no rule names one too', () => {
    const open = (text: string) => crawlerAccess(parseRobotsTxt(text), ['*']).map((a) => [a.access, a.open]);
    expect(open('User-agent: *\nDisallow: /\n')).toEqual([['nothing', null]]);
    expect(open('')).toEqual([['everything', '/']]);
    expect(open('User-agent: *\nDisallow: /\nAllow: /$\n')).toEqual([['some', '/']]);
    // `/x`, the only path the rules name, is disallowed (`/*x$` is longer than `/*x`); one character more is not.
    const [[, path]] = open('User-agent: *\nDisallow: /\nAllow: /*x\nDisallow: /*x$\n') as [[string, string]];
    expect(path).toMatch(/^\/x.$/);
    expect(parseRobotsTxt('User-agent: *\nDisallow: /\nAllow: /*x\nDisallow: /*x$\n').isAllowed(path, '*')).toBe(true);
  });

  it('is exact where a rule looks like Disallow: / but is not', () => {
    // The home page stays open: not everything is blocked.
    expect(access('User-agent: *\nDisallow: /\nAllow: /$\n', ['*'])).toEqual([['*', 'some']]);
    // Disallow: /* blocks as much as Disallow: /.
    expect(access('User-agent: *\nDisallow: /*\n', ['*'])).toEqual([['*', 'nothing']]);
    // No rules at all, or only comments: everything.
    expect(access('# nothing\n', ['*'])).toEqual([['*', 'everything']]);
  });

  it('follows catalogue profiles through their fallback order, and crawlers that ignore *', () => {
    const image = crawlerByName('Googlebot-Image');
    const adsBot = crawlerByName('AdsBot-Google');
    if (image === undefined || adsBot === undefined) throw new Error('catalogue crawlers missing');
    expect(access('User-agent: Googlebot\nDisallow: /\n', [image])).toEqual([['Googlebot-Image', 'nothing']]);
    // AdsBot reads no * group: Disallow: / for * leaves it everything.
    expect(access('User-agent: *\nDisallow: /\n', [adsBot])).toEqual([['AdsBot-Google', 'everything']]);
    expect(access('User-agent: AdsBot-Google\nDisallow: /\n', [adsBot])).toEqual([['AdsBot-Google', 'nothing']]);
  });
});
