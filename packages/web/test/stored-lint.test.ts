/**
 * The report's file view places stored lint diagnostics (line and byte column, as the service stores them) on the
 * text the editor shows. Checked against the engine itself: linting the shown text must put every diagnostic exactly
 * where the mapping put the stored one. The page lists (and walks) them by severity, the 1994-dialect notes last.
 */

import fc from 'fast-check';
import { LINT_DOCS_BASE, lint } from 'robotskit/lint';
import { describe, expect, it } from 'vitest';
import { analyzeBody } from '../../server/src/storage/rows.js';
import { inListOrder, showStoredLint } from '../src/components/stored-lint.js';

const encoder = new TextEncoder();

function bytesOf(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** What the mapping gives, as [code, text under the diagnostic]. */
function shown(bytes: Uint8Array) {
  const stored = analyzeBody(bytes).diagnostics;
  const view = showStoredLint(bytes, stored, LINT_DOCS_BASE);
  return { view, stored };
}

/** The engine's own positions on the shown text (UTF-16), in the same order. */
function engineOn(text: string) {
  return lint(text)
    .map((d) => ({ from: d.range.start, to: d.range.end, code: d.code, line: d.line }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
}

describe('stored lint on the shown text', () => {
  it('puts diagnostics after multi-byte characters where the engine puts them on the text', () => {
    const bytes = bytesOf('User-agent: *\nDisallow: /café/ümlaut 🤖 # ok\nDisalow: /x\nCrawl-delay: soon\n');
    const { view } = shown(bytes);
    expect(view.text).toBe('User-agent: *\nDisallow: /café/ümlaut 🤖 # ok\nDisalow: /x\nCrawl-delay: soon\n');
    const mine = view.diagnostics.map((d) => ({ from: d.from, to: d.to, code: d.code, line: d.line }));
    expect(mine).toEqual(engineOn(view.text));
    const typo = view.diagnostics.find((d) => d.line === 3)!;
    expect(view.text.slice(typo.from, typo.to)).toMatch(/^Disalow/);
    expect(typo.docs).toBe(`${LINT_DOCS_BASE}${typo.code}.md`);
  });

  it('joins CRLF and lone CR lines with \\n and keeps every line number', () => {
    const bytes = bytesOf('User-agent: *\r\nDisalow: /a\rAllow /b\r\n\r\nFoo: bar');
    const { view, stored } = shown(bytes);
    expect(view.text).toBe('User-agent: *\nDisalow: /a\nAllow /b\n\nFoo: bar');
    expect(view.diagnostics.map((d) => d.line).sort()).toEqual(stored.map((d) => d.line).sort());
    expect(view.diagnostics.map((d) => ({ from: d.from, to: d.to, code: d.code, line: d.line }))).toEqual(
      engineOn(view.text),
    );
  });

  it('hides a byte order mark and counts first-line columns past it', () => {
    const bytes = bytesOf([0xef, 0xbb, 0xbf], 'Usr-agent: *\nDisallow: /\n');
    const { view, stored } = shown(bytes);
    expect(view.bom).toBe(true);
    expect(view.text.startsWith('Usr-agent')).toBe(true);
    // The engine reports the mark itself, and the typo after it at byte column 4: both start the shown text.
    expect(stored.filter((d) => d.line === 1 && d.code !== 'no-sitemap').map((d) => [d.code, d.column])).toEqual([
      ['bom-at-start', 1],
      ['unknown-field', 4],
    ]);
    const typo = view.diagnostics.find((d) => d.code === 'unknown-field')!;
    expect([typo.from, view.text.slice(typo.from, typo.to)]).toEqual([0, 'Usr-agent']);
    expect(view.diagnostics.find((d) => d.code === 'bom-at-start')).toMatchObject({ from: 0, to: 0 });
  });

  it('counts an invalid byte as the one replacement character the text shows', () => {
    const bytes = bytesOf('User-agent: *\nDisallow: /caf', [0xe9], '/x\nDisalow: /y\nAllow: /', [0xff, 0xfe], ' z\n');
    const { view, stored } = shown(bytes);
    expect(view.text).toBe('User-agent: *\nDisallow: /caf\uFFFD/x\nDisalow: /y\nAllow: /\uFFFD\uFFFD z\n');
    for (const d of view.diagnostics) {
      expect(d.from).toBeGreaterThanOrEqual(0);
      expect(d.to).toBeGreaterThanOrEqual(d.from);
      expect(d.to).toBeLessThanOrEqual(view.text.length);
    }
    expect(view.diagnostics).toHaveLength(stored.length);
    const typo = view.diagnostics.find((d) => d.line === 3 && d.code !== 'non-ascii-pattern');
    expect(view.text.slice(typo!.from, typo!.to)).toMatch(/^Disalow/);
  });

  it('clamps positions outside the text instead of failing', () => {
    const view = showStoredLint(
      bytesOf('User-agent: *\n'),
      [
        {
          code: 'x',
          severity: 'error',
          message: 'm',
          line: 9,
          column: 1,
          endLine: 9,
          endColumn: 4,
          fix: null,
        },
        {
          code: 'y',
          severity: 'warning',
          message: 'm',
          line: 1,
          column: 400,
          endLine: 0,
          endColumn: 0,
          fix: null,
        },
      ],
      '',
    );
    expect(view.text).toBe('User-agent: *\n');
    expect(view.diagnostics.map((d) => [d.code, d.from, d.to])).toEqual([
      ['y', 13, 13],
      ['x', 14, 14],
    ]);
  });

  it('agrees with the engine for any valid UTF-8 file, whatever its line breaks', () => {
    const token = fc.constantFrom(
      'User-agent',
      'user-agent',
      'Disallow',
      'Allow',
      'Disalow',
      'Sitemap',
      'Crawl-delay',
      'Host',
      'Noindex',
      'foo',
      '*',
      '/',
      '/a*b$',
      'Googlebot',
      'https://example.com/sitemap.xml',
      'é',
      'ü/',
      '🤖',
      '中文',
      ':',
      ' ',
      '\t',
      '#',
      '%2F',
      '$',
    );
    const line = fc.array(token, { maxLength: 6 }).map((parts) => parts.join(''));
    const lineBreak = fc.constantFrom('\n', '\r\n', '\r');
    const file = fc
      .tuple(fc.boolean(), fc.array(fc.tuple(line, lineBreak), { maxLength: 12 }), line)
      .map(([bom, lines, last]) => ({ bom, body: lines.map(([l, b]) => l + b).join('') + last }));
    fc.assert(
      fc.property(file, ({ bom, body }) => {
        const bytes = bytesOf(bom ? [0xef, 0xbb, 0xbf] : [], body);
        const { view } = shown(bytes);
        // The mark has its own diagnostic, which the text without it cannot have; it sits at the start.
        const mark = view.diagnostics.filter((d) => d.code === 'bom-at-start');
        expect(mark.map((d) => [d.from, d.to])).toEqual(bom ? [[0, 0]] : []);
        const mine = view.diagnostics
          .filter((d) => d.code !== 'bom-at-start')
          .map((d) => ({ from: d.from, to: d.to, code: d.code, line: d.line }));
        expect(mine).toEqual(engineOn(view.text));
      }),
      { numRuns: 400 },
    );
  });
});

describe('the order the file page lists issues in', () => {
  // An error on line 1, warnings on lines 7 to 10, a plain info finding (no sitemap) and five dialect notes.
  const body = [
    'Disallow: /before',
    'User-agent: *',
    'Disallow: /search*',
    'Allow: /search/help$',
    '',
    'Disallow: /private',
    'Disalow: /tmp/',
    'Crawl-delay: soon',
    'Noindex: /old',
    'Allow /nocolon',
    'User-agent: Googlebot',
    'Disallow: /nogoogle/',
    '',
  ].join('\n');

  it('puts errors first, then warnings, then info, the dialect notes last, each in file order', () => {
    const { view } = shown(bytesOf(body));
    const listed = inListOrder(view.diagnostics);
    expect(listed.map((d) => [d.severity, d.line, d.code])).toEqual([
      ['error', 1, 'rule-outside-group'],
      ['warning', 7, 'field-name-typo'],
      ['warning', 8, 'ignored-directive'],
      ['warning', 8, 'invalid-crawl-delay'],
      ['warning', 9, 'noindex-in-robots-txt'],
      ['warning', 10, 'missing-colon'],
      ['info', 1, 'no-sitemap'],
      ['info', 3, 'dialect-difference'],
      ['info', 4, 'dialect-difference'],
      ['info', 5, 'dialect-difference'],
      ['info', 7, 'dialect-difference'],
      ['info', 11, 'dialect-difference'],
    ]);
    // The file order it was given is left alone.
    expect(view.diagnostics.map((d) => d.line)).toEqual([1, 1, 3, 4, 5, 7, 7, 8, 8, 9, 10, 11]);
  });

  it('keeps every diagnostic, ranked, in file order within a rank, for any file', () => {
    const line = fc.constantFrom(
      'User-agent: *',
      'User-agent: Googlebot',
      'Disallow: /a*',
      'Allow: /a$',
      'Disalow: /x',
      'Crawl-delay: soon',
      'Noindex: /n',
      'Allow /b',
      'Foo',
      '',
      'Sitemap: https://example.com/s.xml',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
        const { view } = shown(bytesOf(lines.join('\n')));
        const listed = inListOrder(view.diagnostics);
        expect([...listed].sort((a, b) => a.from - b.from || a.to - b.to)).toEqual(view.diagnostics);
        const rank = (d: (typeof listed)[number]) =>
          d.code === 'dialect-difference' ? 3 : { error: 0, warning: 1, info: 2 }[d.severity];
        for (let i = 1; i < listed.length; i++) {
          const [a, b] = [listed[i - 1]!, listed[i]!];
          expect(rank(a) < rank(b) || (rank(a) === rank(b) && a.from <= b.from)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
