/**
 * The linter on the real world and on random input: it never throws, every range is in bounds with line and column
 * derived from it, and text and bytes of the same UTF-8 file give the same diagnostics on the same text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Diagnostic, lint } from '../src/lint/index.js';
import { corpusDir } from './helpers.js';
import { checkPositions, sliceOf } from './lint/harness.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Codes only bytes can show. */
const BYTES_ONLY = new Set(['invalid-utf8', 'utf16-file']);

/** Lints one input as bytes and, when it is UTF-8, as text too; checks both and that they agree. */
function lintBoth(bytes: Uint8Array, name: string): Diagnostic[] {
  const fromBytes = lint(bytes);
  checkPositions(bytes, fromBytes, name);
  let text: string;
  try {
    text = fatal.decode(bytes);
  } catch {
    return fromBytes;
  }
  const fromText = lint(text);
  checkPositions(text, fromText, name);
  const shown = (input: string | Uint8Array, ds: Diagnostic[]) =>
    ds.filter((d) => !BYTES_ONLY.has(d.code)).map((d) => `${d.line} ${d.code} ${JSON.stringify(sliceOf(input, d))}`);
  const a = shown(bytes, fromBytes);
  const b = shown(text, fromText);
  if (a.join('\n') !== b.join('\n')) expect(a, name).toEqual(b);
  return fromBytes;
}

const corpus = corpusDir();

describe.runIf(corpus !== null)('lint: shared corpus', () => {
  it('lints every file, as bytes and as text, with consistent positions and the same findings', () => {
    const dir = join(corpus ?? '', 'robots');
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThanOrEqual(3709);
    const codes = new Set<string>();
    let total = 0;
    for (const name of files) {
      const diagnostics = lintBoth(new Uint8Array(readFileSync(join(dir, name))), name);
      for (const d of diagnostics) codes.add(d.code);
      total += diagnostics.length;
    }
    // The real world exercises most rules; the counts per code are in `npm run bench` (section lint).
    expect(codes.size).toBeGreaterThan(30);
    expect(total).toBeGreaterThan(10_000);
  });
});

describe('lint: properties', () => {
  const lines = fc.constantFrom(
    'User-agent: *',
    'User-agent: Googlebot/2.1',
    'useragent FooBot',
    'Disallow: /a',
    'Disallow: /a$b',
    'Disallow /x',
    'Disallowed: /y',
    'Allow: /a*',
    'Allow: ',
    'Disalow: /p',
    'Crawl-delay: 5x',
    'noindex: /q',
    'Sitemap: /s.xml',
    'Sitemap: https://e.com/s.xml',
    'https://e.com/sitemap.xml',
    'a b c',
    '# comment',
    '',
    '\uFEFFUser-agent: x',
    'Disallow: /é ツ 😀',
    'Disallow: /\u0000x',
    'Disallow: /p#frag',
    '<html>',
  );
  const file = fc
    .tuple(fc.array(lines, { maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r'))
    .map(([l, eol]) => l.join(eol));

  it('never throws, on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        checkPositions(data, lint(data), 'random bytes');
      }),
      { numRuns: 1500 },
    );
  });

  it('never throws, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        checkPositions(text, lint(text), 'random text');
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the same findings on the same text for text and bytes, whatever the line breaks', () => {
    fc.assert(
      fc.property(file, fc.boolean(), (text, bom) => {
        lintBoth(new TextEncoder().encode(bom ? `\uFEFF${text}` : text), JSON.stringify(text));
      }),
      { numRuns: 1500 },
    );
  });
});
