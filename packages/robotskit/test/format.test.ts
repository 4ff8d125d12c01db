/**
 * formatRobots: a canonical layout that decides every URL as the original, duplicates removed only when proven
 * harmless; idempotent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { formatRobots } from '../src/semantics/index.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('formatRobots', () => {
  it('spells out field names, keeps values and comments, puts one blank line between groups', () => {
    const input = [
      '# site rules',
      'useragent: FooBot',
      '',
      'disalow /a   # typo and no colon',
      'ALLOW:/a/b',
      'crawl-delay: 5',
      '',
      '',
      '# everyone else',
      'user-agent: *',
      'disallowed: /private',
      'sitemap: https://example.invalid/s.xml',
    ].join('\r\n');
    const result = formatRobots(input);
    expect(result.text).toBe(
      [
        '# site rules',
        'User-agent: FooBot',
        'Disallow: /a # typo and no colon',
        'Allow: /a/b',
        'crawl-delay: 5',
        '',
        '# everyone else',
        'User-agent: *',
        'Disallow: /private',
        'Sitemap: https://example.invalid/s.xml',
        '',
      ].join('\n'),
    );
    expect(result.changed).toBe(true);
    expect(result.removedLines).toEqual([]);
    expect(formatRobots(result.text)).toMatchObject({
      proven: true,
      text: result.text,
      changed: false,
      removedLines: [],
    });
  });

  it('removes a repeated rule, and keeps a line that only looks repeated', () => {
    const result = formatRobots('User-agent: *\nDisallow: /a\nDisallow: /a\nAllow: /a\n');
    expect(result.text).toBe('User-agent: *\nDisallow: /a\nAllow: /a\n');
    expect(result.removedLines).toEqual([3]);
    // The same rule in two groups for different crawlers is no duplicate.
    const two = 'User-agent: FooBot\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /a\n';
    expect(formatRobots(two)).toMatchObject({ proven: true, text: two, changed: false, removedLines: [] });
  });

  it('works on bytes: a byte that is not UTF-8 comes out as it went in, and the verdicts with it', () => {
    const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    // The repro of issue 33: `/caf\xe9` is `/caf%E9` to Google, and must stay so.
    const input = latin1('user-agent: *\ndisalow: /caf\xe9  # \xe9t\xe9  \r\n');
    const result = formatRobots(input);
    expect(result.proven).toBe(true);
    expect(result.changed).toBe(true);
    expect(result.bytes).toEqual(latin1('User-agent: *\nDisallow: /caf\xe9 # \xe9t\xe9\n'));
    const after = parseRobotsTxt(result.bytes);
    expect(after.isAllowed('https://example.invalid/caf%E9', 'FooBot')).toBe(false);
    expect(after.isAllowed('https://example.invalid/caf%EF%BF%BD', 'FooBot')).toBe(true);
    // Already in the layout: unchanged, byte for byte.
    expect(formatRobots(result.bytes)).toMatchObject({ proven: true, changed: false, bytes: result.bytes });
    // A string gives a string, and its UTF-8 as bytes.
    expect(formatRobots('disallow: /é\n')).toMatchObject({ text: 'Disallow: /é\n', bytes: utf8('Disallow: /é\n') });
  });

  it('hands out nothing it cannot prove: a file over the parse limit is given back as it was, with the reason', () => {
    const big = utf8(`user-agent: *\n${'disallow: /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n'.repeat(13_000)}`);
    const result = formatRobots(big);
    expect(result.proven).toBe(false);
    expect(result.reason).toMatch(/parse limit/);
    expect(result.changed).toBe(false);
    expect(Buffer.compare(result.bytes, big)).toBe(0);
  });

  it('keeps every byte it does not reformat, and every verdict, on arbitrary bytes', () => {
    const piece = fc.oneof(
      fc.constantFrom('user-agent: ', 'User-agent:', 'disallow:', 'Disalow ', 'allow: ', '# ', 'sitemap: ', '/', '*'),
      fc.constantFrom('\n', '\r\n', '\r', ' ', '\t', '$', 'a', 'FooBot', '%e9', '\u00ef\u00bb\u00bf', '\u00ef'),
      fc.integer({ min: 0x80, max: 0xff }).map((b) => String.fromCharCode(b)),
    );
    const agents = ['FooBot', 'Googlebot', 'x'];
    const urls = ['/', '/a', '/caf%E9', '/%C3%A9', '/%EF%BF%BD', '/%E9a', '/a%80', '/%FF$'];
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const input = Uint8Array.from(pieces.join(''), (c) => c.charCodeAt(0));
        const result = formatRobots(input);
        expect(result.proven).toBe(true);
        // The bytes >= 0x80 are never rewritten: the layout writes ASCII and removes only lines and field names.
        const high = (b: Uint8Array) => [...b].filter((x) => x >= 0x80);
        const kept = high(input);
        let at = 0;
        for (const b of high(result.bytes)) {
          while (at < kept.length && kept[at] !== b) at++;
          expect(at, 'a byte >= 0x80 of the output is not in the input, in order').toBeLessThan(kept.length);
          at++;
        }
        const before = parseRobotsTxt(input);
        const after = parseRobotsTxt(result.bytes);
        for (const agent of agents)
          for (const url of urls)
            expect(after.isAllowed(`https://example.invalid${url}`, agent), `${agent} ${url}`).toBe(
              before.isAllowed(`https://example.invalid${url}`, agent),
            );
        expect(after.sitemaps).toEqual(before.sitemaps);
        // Formatting twice changes nothing more, byte for byte.
        expect(formatRobots(result.bytes).bytes).toEqual(result.bytes);
      }),
      { numRuns: 300 },
    );
  });

  const line = fc.oneof(
    fc.constantFrom('User-agent: *', 'user-agent: FooBot', 'useragent: BarBot', '', '# note', 'Sitemap: /s.xml'),
    fc
      .tuple(
        fc.constantFrom('Allow', 'disallow', 'Disalow', 'allow'),
        fc.constantFrom(':', ': ', ' '),
        fc.constantFrom('/', '/a', '/a*', '/a$', '/*.b', '/a/b', ''),
      )
      .map(([k, s, v]) => `${k}${s}${v}`),
  );
  const paths = ['/', '/a', '/a/b', '/x.b', '/ab', '/a/'];

  it('never changes a verdict, and formatting twice changes nothing more', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
        const input = lines.join('\n');
        const result = formatRobots(input);
        const before = parseRobotsTxt(input);
        const after = parseRobotsTxt(result.text);
        for (const agent of ['FooBot', 'BarBot', 'QuxBot', 'Googlebot']) {
          for (const path of paths) {
            expect(after.isAllowed(`https://example.invalid${path}`, agent)).toBe(
              before.isAllowed(`https://example.invalid${path}`, agent),
            );
          }
        }
        // The layout was applied (not given up): every readable rule and user-agent line is spelled canonically.
        for (const l of result.text.split('\n')) {
          if (/^(user|allow|disa)\S*[: ]/i.test(l)) expect(l).toMatch(/^(User-agent|Allow|Disallow):/);
        }
        expect(formatRobots(result.text).text).toBe(result.text);
      }),
      { numRuns: 200 },
    );
  });
});
