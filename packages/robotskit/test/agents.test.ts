/**
 * Issue 11: one rule for naming the crawler, one definition of crawl-delay, and answers that do not depend on what an
 * object was asked before.
 */
import { describe, expect, it } from 'vitest';
import { crawlDelayOf } from '../src/fetch/index.js';
import {
  crawlDelaySeconds,
  crawlerByName,
  parseRobotsTxt,
  productToken,
  resolveCrawler,
  resolveCrawlers,
} from '../src/index.js';
import { lint } from '../src/lint/index.js';

describe('an empty product token matches no group', () => {
  const robots = parseRobotsTxt('User-agent: *bot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n');
  for (const agent of ['(FooBot)', ' ', 'Mozilla/5.0 (compatible; /1.0)']) {
    it(`${JSON.stringify(agent)} gets the * group, not the group whose value reduces to nothing`, () => {
      expect(robots.isAllowed('/a', agent)).toBe(true);
      expect(robots.isAllowed('/b', agent)).toBe(false);
      expect(robots.explain('/b', agent).groups).toBe('global');
    });
  }
  it('a caller name that is empty as given keeps the reference quirk: it is the group of the empty token', () => {
    expect(robots.isAllowed('/a', '')).toBe(false);
  });
  it('also inside a list of names', () => {
    expect(robots.explain('/a', ['(FooBot)', 'Other']).groups).toBe('global');
  });
});

describe('cache keys are unambiguous', () => {
  const text = 'User-agent: FooBot\nDisallow: /x\n';
  it('the string "FooBot\\nBarBot" is not the list [FooBot, BarBot], whichever is asked first', () => {
    const a = parseRobotsTxt(text);
    expect(a.isAllowed('/x', 'FooBot\nBarBot')).toBe(true);
    expect(a.isAllowed('/x', ['FooBot', 'BarBot'])).toBe(false);
    const b = parseRobotsTxt(text);
    expect(b.isAllowed('/x', ['FooBot', 'BarBot'])).toBe(false);
    expect(b.isAllowed('/x', 'FooBot\nBarBot')).toBe(true);
    expect(b.explain('/x', 'FooBot\nBarBot').allowed).toBe(true);
  });
  it('lists whose joined text is the same stay apart', () => {
    const robots = parseRobotsTxt('User-agent: a\nDisallow: /x\n');
    expect(robots.isAllowed('/x', ['a,b'])).toBe(true);
    expect(robots.isAllowed('/x', ['a', 'b'])).toBe(false);
  });
});

describe('no silent rewriting of a name', () => {
  const robots = parseRobotsTxt('User-agent: FooBot\nDisallow: /\n');
  it('surrounding whitespace is kept, as the reference keeps it: " FooBot " matches no group', () => {
    expect(productToken(' FooBot ')).toBe(' FooBot ');
    expect(robots.isAllowed('/x', ' FooBot ')).toBe(true);
    expect(robots.isAllowed('/x', 'FooBot')).toBe(false);
  });
  it('a full User-Agent string is reduced to the crawler it names', () => {
    expect(robots.isAllowed('/x', 'Mozilla/5.0 (compatible; FooBot/2.1)')).toBe(false);
  });
});

describe('resolveCrawler: what a person means', () => {
  it('uses a product token as typed, with no note', () => {
    expect(resolveCrawler('FooBot')).toMatchObject({ kind: 'token', input: 'FooBot', label: 'FooBot', rewrite: null });
  });
  it('uses a catalogue name as its profile', () => {
    const r = resolveCrawler('googlebot-image');
    expect(r.kind).toBe('profile');
    expect(r.input).toBe(crawlerByName('Googlebot-Image'));
    expect(r.rewrite).toBeNull();
  });
  it('reads * as any crawler', () => {
    expect(resolveCrawler('*')).toMatchObject({ kind: 'any', input: '*', rewrite: null });
  });
  it('says so when it removes whitespace', () => {
    const r = resolveCrawler(' FooBot ');
    expect(r.input).toBe('FooBot');
    expect(r.rewrite).toContain("used 'FooBot'");
  });
  it('takes the crawler a full User-Agent string names, and says which', () => {
    const r = resolveCrawler('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    expect(r.kind).toBe('profile');
    expect(r.label).toBe('Googlebot');
    expect(r.rewrite).toContain("used 'Googlebot'");
    const v = resolveCrawler('FooBot/1.2');
    expect(v).toMatchObject({ kind: 'token', input: 'FooBot' });
    expect(v.rewrite).toContain("used 'FooBot'");
  });
  it('says so when a string names no crawler, and matches no group with it', () => {
    const r = resolveCrawler('(FooBot)');
    expect(r).toMatchObject({ kind: 'token', token: '', input: '(FooBot)' });
    expect(r.rewrite).toContain('names no crawler');
    const robots = parseRobotsTxt('User-agent: *bot\nDisallow: /\n\nUser-agent: Foo\nDisallow: /\n');
    expect(robots.explain('/x', r.input).groups).toBe('none');
    for (const typed of ['Foo Bar', 'ツ', '/1.0', 'My Bot/1.0']) {
      const other = resolveCrawler(typed);
      expect(other.rewrite, typed).toContain('names no crawler');
      expect(robots.explain('/x', other.input).groups, typed).toBe('none');
    }
  });
  it('splits comma lists; whitespace next to a comma is the separator', () => {
    const list = resolveCrawlers('Googlebot, FooBot ,BarBot');
    expect(list.map((c) => c.label)).toEqual(['Googlebot', 'FooBot', 'BarBot']);
    expect(list.every((c) => c.rewrite === null)).toBe(true);
    expect(() => resolveCrawlers(' , ')).toThrow(/no crawler/);
  });
});

describe('crawl-delay has one definition', () => {
  const cases: [string, number | null][] = [
    ['10', 10],
    ['2.5', 2.5],
    ['.5', 0.5],
    ['2.', 2],
    ['0', 0],
    ['10s', null],
    ['-1', null],
    ['1e3', null],
    ['1,5', null],
    ['', null],
    ['9'.repeat(400), null],
  ];
  for (const [value, seconds] of cases) {
    it(`${JSON.stringify(value.slice(0, 12))} → ${seconds}, for the model, the client and lint alike`, () => {
      expect(crawlDelaySeconds(value)).toBe(seconds);
      const robots = parseRobotsTxt(`User-agent: *\nCrawl-delay: ${value}\n`);
      expect(robots.crawlDelay('Bingbot')?.seconds ?? null).toBe(seconds);
      expect(crawlDelayOf(robots, 'Bingbot')).toBe(seconds);
      const flagged = lint(robots).some((d) => d.code === 'invalid-crawl-delay');
      expect(flagged).toBe(seconds === null);
    });
  }
});
