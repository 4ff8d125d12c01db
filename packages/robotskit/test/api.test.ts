/**
 * The public API beyond the reference's behaviour: inputs, offsets, limits, URL objects, user-agent strings.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, parseRobotsTxt, productToken } from '../src/index.js';
import { normalizePattern } from '../src/match/pattern.js';
import { bytes } from './helpers.js';

describe('inputs', () => {
  it('accepts a string, a Uint8Array and an ArrayBuffer with the same result', () => {
    const text = 'User-agent: *\nDisallow: /ä\n';
    const u8 = bytes(text);
    const results = [text, u8, u8.buffer.slice(0) as ArrayBuffer].map((input) =>
      parseRobotsTxt(input).explain('/%C3%A4', 'x'),
    );
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(results[0]).toMatchObject({ allowed: false, line: 2 });
  });

  it('throws a TypeError only for programmer errors', () => {
    expect(() => parseRobotsTxt(42 as unknown as string)).toThrow(TypeError);
    expect(() => parseRobotsTxt('', { maxBytes: -1 })).toThrow(RangeError);
    expect(() => parseRobotsTxt('', { dialect: 'nope' as 'google' })).toThrow(RangeError);
    const robots = parseRobotsTxt('');
    expect(() => robots.isAllowed(5 as unknown as string, 'x')).toThrow(TypeError);
    expect(() => robots.isAllowed('/', 5 as unknown as string)).toThrow(TypeError);
  });

  it('decodes invalid UTF-8 without shifting line numbers or breaking later lines', () => {
    const input = new Uint8Array([
      ...bytes('User-agent: *\nDisallow: /a'),
      0xff,
      0xfe,
      0xc3,
      ...bytes('\nDisallow: /b\n'),
    ]);
    const robots = parseRobotsTxt(input);
    expect(robots.groups[0]?.rules.map((r) => [r.line, r.pattern])).toEqual([
      [2, '/a%FF%FE%C3'],
      [3, '/b'],
    ]);
    expect(robots.records[1]?.value).toBe('/a\uFFFD\uFFFD\uFFFD');
    expect(robots.isAllowed('/b', 'x')).toBe(false);
  });
});

describe('maxBytes', () => {
  it('defaults to 512,000 bytes and says when it cut the input', () => {
    expect(DEFAULT_MAX_BYTES).toBe(512_000);
    const big = `User-agent: *\n${'Disallow: /x\n'.repeat(50_000)}Disallow: /last\n`;
    const robots = parseRobotsTxt(big);
    expect(robots.truncated).toBe(true);
    expect(robots.parsedSize).toBe(512_000);
    expect(robots.size).toBe(big.length);
    expect(robots.isAllowed('/last', 'x')).toBe(true);
    const whole = parseRobotsTxt(big, { maxBytes: 1_000_000 });
    expect(whole.truncated).toBe(false);
    expect(whole.isAllowed('/last', 'x')).toBe(false);
  });

  it('cuts bytes, not characters, and the same way for text and bytes', () => {
    const text = 'User-agent: *\nDisallow: /ääää\n';
    for (const maxBytes of [0, 5, 26, 27, 28, 29, 33]) {
      const a = parseRobotsTxt(text, { maxBytes });
      const b = parseRobotsTxt(bytes(text), { maxBytes });
      expect(a.parsedSize, String(maxBytes)).toBe(Math.min(maxBytes, bytes(text).length));
      expect(a.groups.map((g) => g.rules.map((r) => r.pattern))).toEqual(
        b.groups.map((g) => g.rules.map((r) => r.pattern)),
      );
      expect(a.truncated).toBe(maxBytes < bytes(text).length);
      expect(a.size).toBe(bytes(text).length);
    }
  });
});

describe('records', () => {
  it('ranges slice back to the text, in UTF-16 units for strings and bytes for bytes', () => {
    const text = '\uFEFFUser-agent: Bøt # nørdic\r\nDisallow: /ø/ # x\rSitemap: https://e.com/s.xml';
    const fromText = parseRobotsTxt(text).records;
    const u8 = bytes(text);
    const fromBytes = parseRobotsTxt(u8).records;
    const decoder = new TextDecoder();
    for (let i = 0; i < fromText.length; i++) {
      const t = fromText[i]!;
      const b = fromBytes[i]!;
      expect(text.slice(t.range.start, t.range.end)).toBe(t.text);
      expect(decoder.decode(u8.subarray(b.range.start, b.range.end))).toBe(b.text);
      if (t.keyRange && t.valueRange) {
        expect(text.slice(t.keyRange.start, t.keyRange.end)).toBe(t.key);
        expect(text.slice(t.valueRange.start, t.valueRange.end)).toBe(t.value);
      }
      if (t.commentRange) expect(text.slice(t.commentRange.start, t.commentRange.end)).toMatch(/^#/);
    }
    expect(fromText.map((r) => [r.line, r.field, r.key, r.value])).toEqual([
      [1, 'user-agent', 'User-agent', 'Bøt'],
      [2, 'disallow', 'Disallow', '/ø/'],
      [3, 'sitemap', 'Sitemap', 'https://e.com/s.xml'],
    ]);
    expect(fromText[0]?.range.start).toBe(1); // after the BOM
  });
});

describe('groups and sitemaps', () => {
  it('keeps groups as written, with their agents, rules, extensions and line span', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://e.com/a.xml\nUser-agent: A\nUser-agent: b/1.0\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: *\nAllow: /\n',
    );
    expect(robots.groups).toHaveLength(2);
    const [first, second] = robots.groups;
    expect(first?.agents.map((a) => [a.line, a.value, a.token, a.global])).toEqual([
      [2, 'A', 'A', false],
      [3, 'b/1.0', 'b', false],
    ]);
    expect(first?.extensions).toEqual([{ line: 4, key: 'Crawl-delay', name: 'crawl-delay', value: '5' }]);
    expect(first).toMatchObject({ startLine: 2, endLine: 5 });
    expect(second?.agents[0]).toMatchObject({ global: true, token: '' });
    expect(JSON.parse(JSON.stringify(second))).toMatchObject({ rules: [{ kind: 'allow', pattern: '/', line: 8 }] });
  });

  it('lists absolute http(s) sitemap URLs, normalised, in order, once each', () => {
    const robots = parseRobotsTxt(
      [
        'Sitemap: https://Example.com/a.xml',
        'Sitemap: /relative.xml',
        'Sitemap: https://example.com/a.xml',
        'sitemap: http://e.com/b.xml',
        'Sitemap: ftp://e.com/c.xml',
        'Sitemap: https://exämple.com/d.xml',
      ].join('\n'),
    );
    expect(robots.sitemaps).toEqual([
      'https://example.com/a.xml',
      'http://e.com/b.xml',
      'https://xn--exmple-cua.com/d.xml',
    ]);
  });
});

describe('URLs', () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /%C3%A4\nDisallow: /q?a=1\n');

  it('takes URL objects already percent-encoded by the WHATWG parser', () => {
    expect(robots.isAllowed(new URL('https://e.com/ä'), 'x')).toBe(false);
    expect(robots.isAllowed('https://e.com/ä', 'x')).toBe(true); // strings are not re-encoded
    expect(robots.isAllowed(new URL('https://e.com/q?a=1#frag'), 'x')).toBe(false);
    expect(robots.explain(new URL('https://e.com'), 'x').path).toBe('/');
  });

  it('takes bare paths and never throws on odd strings', () => {
    for (const url of ['', '/', '?a', '#', 'http://', '://x', 'http://e.com?q=1', '//host', '\u0000', ' /x ']) {
      expect(typeof robots.isAllowed(url, 'x')).toBe('boolean');
    }
    expect(robots.isAllowed('/q?a=1', 'x')).toBe(false);
  });
});

describe('user agents', () => {
  const cases: [string, string][] = [
    ['Googlebot', 'Googlebot'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    [
      'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Googlebot',
    ],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      'GPTBot',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      'Applebot',
    ],
    ['AdsBot-Google (+http://www.google.com/adsbot.html)', 'AdsBot-Google'],
    ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'facebookexternalhit'],
    ['Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)', 'Bytespider'],
    // Without a comment the name is used as given, like the reference (it then names no group).
    ['FooBot/1.2', 'FooBot/1.2'],
    ['Foo Bar', 'Foo Bar'],
  ];
  for (const [ua, token] of cases) {
    it(`${ua.slice(0, 60)} → ${token}`, () => expect(productToken(ua)).toBe(token));
  }

  it('matches groups through the product token of a full User-Agent string', () => {
    const robots = parseRobotsTxt('User-agent: Googlebot\nDisallow: /\n');
    expect(robots.isAllowed('/x', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe(
      false,
    );
    expect(robots.explain('/x', 'Mozilla/5.0 (compatible; Googlebot/2.1)').userAgent).toBe('Googlebot');
  });
});

describe('large and pathological groups', () => {
  it('a 50,000-rule group decides like the rules taken one by one', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 50_000; i++) {
      lines.push(i % 3 === 0 ? `Allow: /p${i}/*.html$` : i % 3 === 1 ? `Disallow: /p${i}/` : `Disallow: /*/x${i}`);
    }
    const robots = parseRobotsTxt(lines.join('\n'), { maxBytes: 10_000_000 });
    expect(robots.groups[0]?.rules).toHaveLength(50_000);
    const checks: [string, boolean, number][] = [
      ['/p1/a', false, 3],
      ['/p3/a.html', true, 5],
      ['/p3/a.htm', true, 0],
      ['/q/x2', false, 4],
      ['/p4/x2', false, 4], // `/*/x2` (6 chars) is longer than `/p4/` (5)
      ['/zzz', true, 0],
    ];
    for (const [path, allowed, line] of checks)
      expect(robots.explain(path, 'x'), path).toMatchObject({ allowed, line });
  });

  it('a pattern with 100 wildcards against a 20,000-character path is decided correctly', () => {
    const pattern = `/${'*a'.repeat(100)}`;
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${pattern}\nDisallow: ${pattern}b$\n`);
    expect(robots.isAllowed(`/${'a'.repeat(20_000)}`, 'x')).toBe(false);
    expect(robots.explain(`/${'a'.repeat(20_000)}b`, 'x').line).toBe(3);
    expect(robots.isAllowed(`/${'a'.repeat(99)}`, 'x')).toBe(true);
    expect(robots.isAllowed(`/${'b'.repeat(20_000)}`, 'x')).toBe(true);
  });

  it('normalizePattern is exported for tools', () => {
    expect(normalizePattern('/a b/ä%2f')).toBe('/a b/%C3%A4%2F');
  });
});
