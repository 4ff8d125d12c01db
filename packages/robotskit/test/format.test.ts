/**
 * formatRobots: a canonical layout that decides every URL as the original, duplicates removed only when proven
 * harmless; idempotent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { formatRobots } from '../src/semantics/index.js';

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
    expect(formatRobots(result.text)).toEqual({ text: result.text, changed: false, removedLines: [] });
  });

  it('removes a repeated rule, and keeps a line that only looks repeated', () => {
    const result = formatRobots('User-agent: *\nDisallow: /a\nDisallow: /a\nAllow: /a\n');
    expect(result.text).toBe('User-agent: *\nDisallow: /a\nAllow: /a\n');
    expect(result.removedLines).toEqual([3]);
    // The same rule in two groups for different crawlers is no duplicate.
    const two = 'User-agent: FooBot\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /a\n';
    expect(formatRobots(two)).toEqual({ text: two, changed: false, removedLines: [] });
  });

  it('leaves bytes that are not UTF-8 as they are rather than change a pattern', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('user-agent: *\ndisallow: /'), 0xe9, 0x0a]);
    const result = formatRobots(bytes);
    expect(result.changed).toBe(false);
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
