/**
 * Page-level controls: robots meta tags, X-Robots-Tag, their combination, unavailable_after dates, and meta tags
 * extracted from HTML.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crawlerByName } from '../src/index.js';
import { NO_DIRECTIVES } from '../src/meta/directives.js';
import {
  combineRobotsDirectives,
  directivesFor,
  extractRobotsMeta,
  mergeDirectives,
  type PageDirectives,
  pageDirectives,
  parseRobotsMeta,
  parseUnavailableAfter,
  parseXRobotsTag,
} from '../src/meta/index.js';

const set = (d: Partial<PageDirectives>): PageDirectives => ({ ...NO_DIRECTIVES, ...d });

describe('parseRobotsMeta', () => {
  it.each([
    ['noindex', { noindex: true }],
    ['NoIndex, NOFOLLOW', { noindex: true, nofollow: true }],
    ['none', { noindex: true, nofollow: true }],
    ['all', {}],
    [
      'noarchive,nosnippet,notranslate,noimageindex',
      { noarchive: true, nosnippet: true, notranslate: true, noimageindex: true },
    ],
    ['noindex, indexifembedded', { noindex: true, indexifembedded: true }],
    ['max-snippet:50', { maxSnippet: 50 }],
    ['max-snippet: -1', { maxSnippet: -1 }],
    ['max-snippet:0', { maxSnippet: 0 }],
    ['max-image-preview:Large', { maxImagePreview: 'large' }],
    ['max-video-preview:-1', { maxVideoPreview: -1 }],
    ['max-snippet:50, max-snippet:20, max-snippet:-1', { maxSnippet: 20 }],
    ['max-image-preview:large, max-image-preview:standard', { maxImagePreview: 'standard' }],
    ['unavailable_after: 2026-09-21', { unavailableAfter: Date.UTC(2026, 8, 21) }],
    ['unavailable_after: 25 Jun 2010 15:00:00 PST', { unavailableAfter: Date.UTC(2010, 5, 25, 23) }],
    [
      'unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, noarchive',
      { unavailableAfter: Date.UTC(2010, 5, 25, 15), noarchive: true },
    ],
    ['unavailable_after: Wed, 25 Jun 2025 15:00:00 +0200', { unavailableAfter: Date.UTC(2025, 5, 25, 13) }],
    [' , noindex ,, ', { noindex: true }],
  ])('%s', (content, expected) => {
    expect(parseRobotsMeta(content).all).toEqual(set(expected as Partial<PageDirectives>));
  });

  it('addresses one crawler when the tag is named for it', () => {
    const result = parseRobotsMeta('nosnippet', 'GoogleBot-News');
    expect(result.all).toEqual(NO_DIRECTIVES);
    expect(result.crawlers).toEqual({ 'googlebot-news': set({ nosnippet: true }) });
  });

  it.each([
    ['noindx', 'unknown-directive', 'warning', [0, 6]],
    ['noindex, noodp', 'unsupported-directive', 'info', [9, 14]],
    ['noindex nofollow', 'missing-separator', 'warning', [0, 16]],
    ['max-snippet', 'missing-value', 'warning', [0, 11]],
    ['max-snippet: ', 'missing-value', 'warning', [0, 12]],
    ['noindex: yes', 'unexpected-value', 'warning', [0, 12]],
    ['max-snippet: 12abc', 'invalid-value', 'warning', [0, 18]],
    ['max-snippet: -2', 'invalid-value', 'warning', [0, 15]],
    ['max-image-preview: huge', 'invalid-value', 'warning', [0, 23]],
    ['max-video-preview: 1.5', 'invalid-value', 'warning', [0, 22]],
    ['unavailable_after: next tuesday', 'invalid-date', 'warning', [0, 31]],
    ['unavailable_after: 2026-02-30', 'invalid-date', 'warning', [0, 29]],
    ['index, noindex', 'conflicting-directives', 'info', [0, 5]],
    ['follow, none', 'conflicting-directives', 'info', [0, 6]],
    ['indexifembedded', 'indexifembedded-without-noindex', 'info', [0, 15]],
    ['noindex,,nofollow', 'empty-directive', 'info', [8, 8]],
    ['follow', 'unsupported-directive', 'info', [0, 6]],
  ])('%s → %s', (content, code, severity, [start, end]) => {
    const { diagnostics } = parseRobotsMeta(content);
    expect(diagnostics.map((d) => d.code)).toEqual([code]);
    expect(diagnostics[0]).toMatchObject({ severity, range: { start, end } });
    expect(diagnostics[0]!.message.length).toBeGreaterThan(5);
  });

  it('applies what it can and ignores what it cannot', () => {
    const { all, diagnostics } = parseRobotsMeta('noindex: yes, max-snippet: x, unavailable_after: never, nofollow');
    expect(all).toEqual(set({ noindex: true, nofollow: true }));
    expect(diagnostics.map((d) => d.code)).toEqual(['unexpected-value', 'invalid-value', 'invalid-date']);
  });

  it('never throws on content, and every diagnostic range lies inside the content', () => {
    const word = fc.constantFrom(
      'noindex',
      'nofollow',
      'none',
      'all',
      'index',
      'max-snippet',
      'max-snippet:',
      'max-image-preview:',
      'unavailable_after:',
      'Friday',
      '25-Jun-10 15:00:00 GMT',
      ':',
      ',',
      ' ',
      'googlebot:',
      '\u00e9',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(word, fc.string({ maxLength: 6 })), { maxLength: 12 }), (parts) => {
        const content = parts.join('');
        for (const result of [parseRobotsMeta(content), parseXRobotsTag([content, content])]) {
          for (const d of result.diagnostics) {
            expect(d.range.start).toBeGreaterThanOrEqual(0);
            expect(d.range.end).toBeLessThanOrEqual(content.length);
            expect(d.range.start).toBeLessThanOrEqual(d.range.end);
          }
        }
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('throws only for programmer errors', () => {
    expect(() => parseRobotsMeta(5 as unknown as string)).toThrow(TypeError);
    expect(() => parseXRobotsTag('noindex' as unknown as string[])).toThrow(TypeError);
  });
});

describe('parseXRobotsTag', () => {
  it('applies unnamed rules to every crawler and named ones to that crawler only', () => {
    const result = parseXRobotsTag(['noarchive', 'googlebot: noindex, nofollow', 'otherbot: nosnippet']);
    expect(result.all).toEqual(set({ noarchive: true }));
    expect(result.crawlers).toEqual({
      googlebot: set({ noindex: true, nofollow: true }),
      otherbot: set({ nosnippet: true }),
    });
    expect(result.diagnostics).toEqual([]);
  });

  it('reads crawler names inside one comma-joined value, as Headers.get joins repeated headers', () => {
    const result = parseXRobotsTag(['googlebot: noindex, BingBot: nofollow, noarchive']);
    expect(result.crawlers).toEqual({
      googlebot: set({ noindex: true }),
      bingbot: set({ nofollow: true, noarchive: true }),
    });
    expect(result.all).toEqual(NO_DIRECTIVES);
  });

  it('keeps the commas of RFC 822/850 dates inside unavailable_after, with or without a crawler name', () => {
    const result = parseXRobotsTag([
      'unavailable_after: Wednesday, 25-Jun-25 15:00:00 PST',
      'googlebot: unavailable_after: Thu, 01 Jan 2026 00:00:00 GMT, noarchive',
    ]);
    expect(result.all.unavailableAfter).toBe(Date.UTC(2025, 5, 25, 23));
    expect(result.crawlers.googlebot).toEqual(set({ unavailableAfter: Date.UTC(2026, 0, 1), noarchive: true }));
    expect(result.diagnostics).toEqual([]);
  });

  it('does not take a rule with a value for a crawler name', () => {
    const result = parseXRobotsTag(['max-snippet: 10, max-image-preview: none']);
    expect(result.all).toEqual(set({ maxSnippet: 10, maxImagePreview: 'none' }));
    expect(result.crawlers).toEqual({});
  });

  it('reports diagnostics with the header they come from', () => {
    const { diagnostics } = parseXRobotsTag(['noindex', 'googlebot:', 'googlebot: index, noindx']);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'empty-crawler-rules', header: 1, range: { start: 0, end: 10 } }),
      expect.objectContaining({ code: 'unknown-directive', header: 2, range: { start: 18, end: 24 } }),
      expect.objectContaining({ code: 'conflicting-directives', header: 2, range: { start: 11, end: 16 } }),
    ]);
  });
});

describe('combining and applying', () => {
  it('combines restrictively', () => {
    const merged = mergeDirectives(
      set({ maxSnippet: -1, maxVideoPreview: 30, maxImagePreview: 'large', unavailableAfter: 2000 }),
      set({ maxSnippet: 50, maxVideoPreview: -1, maxImagePreview: 'none', unavailableAfter: 1000, noarchive: true }),
    );
    expect(merged).toEqual(
      set({ maxSnippet: 50, maxVideoPreview: 30, maxImagePreview: 'none', unavailableAfter: 1000, noarchive: true }),
    );
    expect(mergeDirectives()).toEqual(NO_DIRECTIVES);
  });

  it('applies rules for every crawler plus those addressed to the crawler by any of its names', () => {
    const page = combineRobotsDirectives(
      parseRobotsMeta('max-snippet:100'),
      parseRobotsMeta('nosnippet', 'googlebot-news'),
      parseXRobotsTag(['googlebot: noindex', 'bingbot: noarchive']),
    );
    expect(directivesFor(page, 'Googlebot')).toEqual(set({ maxSnippet: 100, noindex: true }));
    expect(directivesFor(page, 'bingbot')).toEqual(set({ maxSnippet: 100, noarchive: true }));
    expect(directivesFor(page, 'DuckDuckBot')).toEqual(set({ maxSnippet: 100 }));
    // Googlebot-News answers to googlebot-news and googlebot.
    expect(directivesFor(page, crawlerByName('Googlebot-News')!)).toEqual(
      set({ maxSnippet: 100, nosnippet: true, noindex: true }),
    );
  });

  it('reads a whole response: meta tags and headers, with diagnostics located in their source', () => {
    const html = '<head><meta name="robots" content="noindex, noidx"><meta name=googlebot content="nofollow"></head>';
    const page = pageDirectives({ html, headers: ['noarchive', 'bingbot: max-snippet: big'] });
    expect(page.all).toEqual(set({ noindex: true, noarchive: true }));
    // bingbot was addressed, but its one rule was invalid: it has an entry with nothing set.
    expect(page.crawlers).toEqual({ googlebot: set({ nofollow: true }), bingbot: NO_DIRECTIVES });
    expect(page.diagnostics).toHaveLength(2);
    const [meta, header] = page.diagnostics;
    expect(meta).toMatchObject({ code: 'unknown-directive', source: { kind: 'meta', tag: 0 } });
    expect(html.slice(meta!.range.start, meta!.range.end)).toBe('noidx');
    expect(header).toMatchObject({ code: 'invalid-value', source: { kind: 'header', header: 1 } });
  });
});

describe('parseUnavailableAfter', () => {
  it.each([
    ['2026-09-21', Date.UTC(2026, 8, 21)],
    ['2026-09-21T15:30', Date.UTC(2026, 8, 21, 15, 30)],
    ['2026-09-21T15:30:10Z', Date.UTC(2026, 8, 21, 15, 30, 10)],
    ['2026-09-21 15:30:10.250+02:00', Date.UTC(2026, 8, 21, 13, 30, 10)],
    ['2026-09-21T15:30:10-0530', Date.UTC(2026, 8, 21, 21, 0, 10)],
    ['25 Jun 2010 15:00:00 PST', Date.UTC(2010, 5, 25, 23)],
    ['Fri, 25 Jun 2010 15:00:00 GMT', Date.UTC(2010, 5, 25, 15)],
    ['25 Jun 10 15:00 EDT', Date.UTC(2010, 5, 25, 19)],
    ['Friday, 25-Jun-10 15:00:00 UTC', Date.UTC(2010, 5, 25, 15)],
    ['25-June-2010', Date.UTC(2010, 5, 25)],
    ['1 Jan 1970 00:00:00 GMT', 0],
    ['29 Feb 2024 12:00:00 Z', Date.UTC(2024, 1, 29, 12)],
  ])('%s', (text, expected) => {
    expect(parseUnavailableAfter(text)).toBe(expected);
  });

  it.each([
    '',
    'tomorrow',
    '2026-13-01',
    '2026-02-29',
    '29 Feb 2023',
    '25 Foo 2010',
    '25 Jun 2010 25:00:00 GMT',
    '25 Jun 2010 15:00:00 XYZ',
    '2026-09-21T15:30:10+25:00',
    '1719325200',
  ])('rejects %j', (text) => {
    expect(parseUnavailableAfter(text)).toBeNull();
  });
});

describe('extractRobotsMeta', () => {
  it('finds robots and crawler meta tags whatever the attribute order, quotes and case', () => {
    const html = [
      '<!doctype html><html><head>',
      '<meta charset="utf-8">',
      '<meta name="description" content="not robots">',
      '<META CONTENT=noindex NAME=ROBOTS>',
      "<meta content='nosnippet' name='googlebot-news'/>",
      '<meta\n  name = "googlebot"\n  content = "max-snippet:20, noarchive" >',
      '<meta name="robots" content="nofollow &amp; more" data-x=">">',
      '<meta name="GPTBot" content="noindex">',
      '</head><body></body></html>',
    ].join('\n');
    const tags = extractRobotsMeta(html);
    expect(tags.map((t) => [t.name, t.content])).toEqual([
      ['robots', 'noindex'],
      ['googlebot-news', 'nosnippet'],
      ['googlebot', 'max-snippet:20, noarchive'],
      ['robots', 'nofollow & more'],
      ['gptbot', 'noindex'],
    ]);
    for (const tag of tags) {
      expect(html.slice(tag.range.start, tag.range.start + 5).toLowerCase()).toBe('<meta');
      expect(html[tag.range.end - 1]).toBe('>');
    }
    expect(html.slice(tags[2]!.contentRange!.start, tags[2]!.contentRange!.end)).toBe('max-snippet:20, noarchive');
  });

  it('skips comments, scripts, styles and titles', () => {
    const html = [
      '<!-- <meta name="robots" content="noindex"> -->',
      '<script>document.write(\'<meta name="robots" content="noindex">\')</script>',
      '<style>/* <meta name="robots" content="noindex"> */</style>',
      '<title><meta name="robots" content="noindex"></title>',
      '<noscript><meta name="robots" content="nofollow"></noscript>',
      '<metadata name="robots" content="noindex">',
    ].join('');
    expect(extractRobotsMeta(html).map((t) => t.content)).toEqual(['nofollow']);
  });

  it('takes the names to look for', () => {
    const html = '<meta name="robots" content="a"><meta name="myBot" content="b"><meta name="googlebot" content="c">';
    expect(extractRobotsMeta(html, { names: ['MyBot'] }).map((t) => t.name)).toEqual(['robots', 'mybot']);
  });

  it('never throws on broken markup, and stays linear', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            '<meta',
            ' name="robots"',
            " content='",
            '"',
            '>',
            '<!--',
            '-->',
            '<script>',
            '</script',
            'x',
          ),
          {
            maxLength: 30,
          },
        ),
        (parts) => {
          const html = parts.join('');
          for (const tag of extractRobotsMeta(html)) {
            expect(tag.range.start).toBeGreaterThanOrEqual(0);
            expect(tag.range.end).toBeLessThanOrEqual(html.length);
          }
        },
      ),
      { numRuns: 2000, seed: 11 },
    );
    const big = '<meta name="robots" content="noindex">'.repeat(20_000) + '<meta name=robots content="x'.repeat(5000);
    expect(extractRobotsMeta(big)).toHaveLength(20_001);
  });
});
