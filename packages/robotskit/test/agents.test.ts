/**
 * Issue 11: one rule for naming the crawler, one definition of crawl-delay, and answers that do not depend on what an
 * object was asked before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crawlDelayOf } from '../src/fetch/index.js';
import {
  CRAWLERS,
  crawlDelaySeconds,
  crawlerByName,
  parseRobotsTxt,
  productToken,
  resolveCrawler,
  resolveCrawlers,
  splitCrawlerNames,
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
  it('suggests the catalogue name a typo away, and uses the name as typed', () => {
    const cases: [string, string][] = [
      ['Googelbot', 'Googlebot'], // two letters swapped
      ['Googlebott', 'Googlebot'], // one added
      ['Gooblebot', 'Googlebot'], // one changed
      ['Googlbot', 'Googlebot'], // one missed
      ['bingbott', 'bingbot'],
      ['Googlebot-Imgae', 'Googlebot-Image'],
      ['GPTbott', 'GPTBot'],
    ];
    for (const [typed, meant] of cases) {
      const r = resolveCrawler(typed);
      expect(r, typed).toMatchObject({ kind: 'token', input: typed, profile: null });
      expect(r.suggestion, typed).toBe(crawlerByName(meant)!.name);
    }
    // A User-Agent string naming a misspelt crawler: the suggestion is for the token it names.
    expect(resolveCrawler('Googelbot/2.1').suggestion).toBe('Googlebot');
  });
  it('suggests a closest catalogue name, as a plain edit distance over the whole catalogue finds it', () => {
    // The plain optimal-string-alignment distance, a full table, nothing skipped.
    const plain = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    const names = CRAWLERS.flatMap((c) => [c.name, ...c.aliases].map((n) => ({ lower: n.toLowerCase(), c })));
    const edit = fc.tuple(
      fc.constantFrom(...names.map((n) => n.lower)),
      fc.array(
        fc.tuple(fc.constantFrom('drop', 'add', 'change', 'swap'), fc.nat(), fc.constantFrom('a', 'o', 'x', '-')),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    );
    fc.assert(
      fc.property(edit, ([name, edits]) => {
        let typed = name;
        for (const [kind, at, char] of edits) {
          const i = at % Math.max(1, typed.length);
          if (kind === 'drop') typed = typed.slice(0, i) + typed.slice(i + 1);
          else if (kind === 'add') typed = typed.slice(0, i) + char + typed.slice(i);
          else if (kind === 'change') typed = typed.slice(0, i) + char + typed.slice(i + 1);
          else if (i + 1 < typed.length) typed = typed.slice(0, i) + typed[i + 1] + typed[i] + typed.slice(i + 2);
        }
        if (typed.trim() !== typed || typed === '' || crawlerByName(typed) !== undefined) return;
        const r = resolveCrawler(typed);
        if (r.kind !== 'token' || r.token !== typed) return;
        const best = Math.min(...names.map((n) => plain(typed.toLowerCase(), n.lower)));
        const limit = typed.length < 4 ? 0 : typed.length < 8 ? 1 : 2;
        if (best > limit) expect(r.suggestion, typed).toBeNull();
        else {
          expect(r.suggestion, typed).not.toBeNull();
          const suggested = crawlerByName(r.suggestion!)!;
          const its = [suggested.name, ...suggested.aliases].map((n) => plain(typed.toLowerCase(), n.toLowerCase()));
          expect(Math.min(...its), typed).toBe(best);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('suggests nothing for catalogue names, *, short names, or names far from every catalogue name', () => {
    for (const crawler of CRAWLERS) {
      for (const name of [crawler.name, ...crawler.aliases]) {
        expect(resolveCrawler(name).suggestion, name).toBeNull();
        expect(resolveCrawler(name.toUpperCase()).suggestion, name).toBeNull();
      }
    }
    for (const typed of ['*', 'Foo', 'Bot', 'MyOwnCrawler', 'FooBot', 'Googlebot-Foo-Bar', '(FooBot)']) {
      expect(resolveCrawler(typed).suggestion, typed).toBeNull();
    }
  });
  it('splits comma lists; whitespace next to a comma is the separator', () => {
    const list = resolveCrawlers('Googlebot, FooBot ,BarBot');
    expect(list.map((c) => c.label)).toEqual(['Googlebot', 'FooBot', 'BarBot']);
    expect(list.every((c) => c.rewrite === null)).toBe(true);
    expect(() => resolveCrawlers(' , ')).toThrow(/no crawler/);
  });

  it('keeps a User-Agent string whole: commas inside parentheses and line breaks', () => {
    const googlebot =
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36';
    expect(splitCrawlerNames(`${googlebot}, Bingbot`)).toEqual([googlebot, 'Bingbot']);
    expect(splitCrawlerNames(`${googlebot}\r\nGPTBot\n\n  *  `)).toEqual([googlebot, 'GPTBot', '*']);
    // An unclosed parenthesis ends with its line.
    expect(splitCrawlerNames('Foo (x, y\nBar, Baz')).toEqual(['Foo (x, y', 'Bar', 'Baz']);
    const [first, ...rest] = resolveCrawlers(`${googlebot}, FooBot`);
    expect(rest.map((c) => c.label)).toEqual(['FooBot']);
    expect(first?.label).toBe('Googlebot');
    expect(first?.rewrite).toContain('the crawler this User-Agent string names');
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
