/**
 * The linter: the fixture table (tagged by code), the invariants every diagnostic keeps (ranges slice back to the
 * offending text, in UTF-16 units for text and bytes for bytes; line and column agree with the offsets), fixes, the
 * documentation pages, options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { applyFixes, type Diagnostic, LINT_DOCS_BASE, LINT_RULES, type LintCode, lint } from '../src/lint/index.js';
import { bigFile, CASES, type LintCase } from './lint/cases.js';
import { checkPositions, sliceOf } from './lint/harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const DOCS = join(here, '../../../docs/lint');
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encode = (s: string): Uint8Array => new TextEncoder().encode(s);

const MARKER = /\s+#!((?:\s+[a-z0-9-]+(?:«[^»]*»)?)+)\s*$/;

interface Expected {
  line: number;
  code: string;
  slice?: string;
}

/** The fixture's input and what it must produce. */
function prepare(c: LintCase): { input: string | Uint8Array; expected: Expected[] } {
  if (c.input !== undefined) {
    return {
      input: c.input(),
      expected: (c.expect ?? []).map(([line, code, slice]) => ({
        line,
        code,
        ...(slice === undefined ? {} : { slice }),
      })),
    };
  }
  const expected: Expected[] = [];
  const lines = (c.lines ?? []).map((line, i) => {
    const m = MARKER.exec(line);
    if (m === null) return line;
    for (const [, code, slice] of m[1]!.matchAll(/([a-z0-9-]+)(?:«([^»]*)»)?/g)) {
      expected.push({ line: i + 1, code: code!, ...(slice === undefined ? {} : { slice }) });
    }
    return line.slice(0, m.index);
  });
  return { input: (c.bom ? '\uFEFF' : '') + lines.join(c.eol ?? '\n'), expected };
}

function compare(c: LintCase, input: string | Uint8Array, expected: Expected[]): Diagnostic[] {
  // `no-sitemap` and `dialect-difference` concern most files; they are compared only in the cases about them.
  const crossCutting = ['no-sitemap', 'dialect-difference'].filter((code) => code !== c.code);
  const ignore = new Set<string>([...(c.ignore ?? []), ...crossCutting]);
  const diagnostics = lint(input);
  checkPositions(input, diagnostics, c.name);
  const compared = diagnostics.filter((d) => !ignore.has(d.code));
  const key = (line: number, code: string) => `${line} ${code}`;
  expect(compared.map((d) => key(d.line, d.code)).sort()).toEqual(expected.map((e) => key(e.line, e.code)).sort());
  for (const e of expected) {
    if (e.slice === undefined) continue;
    const d = compared.find((x) => x.line === e.line && x.code === e.code)!;
    expect(sliceOf(input, d), `${e.code} on line ${e.line}`).toBe(e.slice);
  }
  return diagnostics;
}

const CODES = LINT_RULES.map((r) => r.code);

describe('lint fixtures, by code', () => {
  for (const code of CODES) {
    const cases = CASES.filter((c) => c.code === code);
    describe(code, () => {
      it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));
      for (const c of cases) {
        it(c.name, () => {
          const { input, expected } = prepare(c);
          if (typeof input !== 'string') {
            compare(c, input, expected);
            return;
          }
          if (c.only !== 'bytes') compare(c, input, expected);
          if (c.only !== 'text') compare(c, encode(input), expected);
          if (c.fixed !== undefined) {
            const fixed = applyFixes(input, lint(input));
            expect(fixed.split(c.eol ?? '\n')).toEqual(c.fixed);
            expect(utf8.decode(applyFixes(encode(input), lint(encode(input))))).toBe(fixed);
          }
        });
      }
    });
  }
  it('every fixture is tagged with a code that exists', () => {
    for (const c of CASES) expect(CODES).toContain(c.code);
  });
});

describe('fixes', () => {
  it('each fix, applied alone, removes its diagnostic and introduces no error', () => {
    let checked = 0;
    for (const c of CASES) {
      const { input } = prepare(c);
      if (typeof input !== 'string' || input.length > 100_000) continue;
      const before = lint(input);
      for (const d of before) {
        if (d.fix === undefined) continue;
        const after = lint(applyFixes(input, [d]));
        const sameLine = after.filter((x) => x.code === d.code && x.line === d.line && x.column === d.column);
        expect(sameLine, `${c.name}: ${d.code}`).toEqual([]);
        const errorsBefore = before.filter((x) => x.severity === 'error' && x !== d).length;
        expect(after.filter((x) => x.severity === 'error').length, `${c.name}: ${d.code}`).toBeLessThanOrEqual(
          errorsBefore,
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('applies fixes in order and skips one that overlaps a fix already applied', () => {
    const input = 'User-agent: *\n\uFEFFUseragent: x\nDisallow: /a';
    const diagnostics = lint(input);
    const bom = diagnostics.find((d) => d.code === 'bom-in-middle')!;
    const unknown = diagnostics.find((d) => d.code === 'unknown-field')!;
    // The key "\uFEFFUseragent" is unknown (the BOM is part of it); its fix replaces the whole key.
    expect(applyFixes(input, [unknown, bom])).toBe('User-agent: *\nUser-agent: x\nDisallow: /a');
    expect(applyFixes(input, [bom, unknown])).toBe('User-agent: *\nUseragent: x\nDisallow: /a');
  });
});

describe('ranges and positions', () => {
  const text =
    '\uFEFFUser-agent: Bøt/1.0 # nørdic\r\nDissallow: /ø/ツ$x\rUser-agent: 𝒳bot\nAlow: /😀\r\nSitemap: /s.xml';

  it('slice back to the offending text in UTF-16 units for text and bytes for bytes, across BOM, CRLF, CR and astral chars', () => {
    // Every diagnostic, the dialect comparison's included, keeps its positions in both units.
    checkPositions(text, lint(text), 'text');
    checkPositions(encode(text), lint(encode(text)), 'bytes');
    // The exact list below is about Google's reading; the dialect comparison is checked with its own fixtures.
    const googleOnly = { rules: { 'dialect-difference': 'off' } } as const;
    const fromText = lint(text, googleOnly);
    const bytes = encode(text);
    const fromBytes = lint(bytes, googleOnly);
    expect(fromText.map((d) => [d.code, d.line, text.slice(d.range.start, d.range.end)])).toEqual([
      ['bom-at-start', 1, '\uFEFF'],
      // Google reads the name as "B": "ø" is not a name character.
      ['user-agent-not-product-token', 1, 'øt/1.0'],
      ['field-name-typo', 2, 'Dissallow'],
      ['dollar-not-at-end', 2, '$'],
      ['invalid-user-agent', 3, '𝒳bot'],
      ['unknown-field', 4, 'Alow'],
      ['invalid-sitemap-url', 5, '/s.xml'],
    ]);
    expect(fromBytes.map((d) => [d.code, d.line, utf8.decode(bytes.subarray(d.range.start, d.range.end))])).toEqual(
      fromText.map((d) => [d.code, d.line, text.slice(d.range.start, d.range.end)]),
    );
    checkPositions(text, fromText, 'text');
    checkPositions(bytes, fromBytes, 'bytes');
    // Columns count the input's units from the start of the line, the BOM included (1 UTF-16 unit, 3 bytes).
    expect(fromText[1]).toMatchObject({ line: 1, column: 15, endLine: 1, endColumn: 21 });
    expect(fromBytes[1]).toMatchObject({ line: 1, column: 17, endLine: 1, endColumn: 24 });
    // "Dissallow: /ø/ツ$x": "ø" is 2 bytes and "ツ" 3, so the "$" is 3 columns further in bytes.
    expect(fromText[3]).toMatchObject({ line: 2, column: 16, endLine: 2, endColumn: 17 });
    expect(fromBytes[3]).toMatchObject({ line: 2, column: 19, endLine: 2, endColumn: 20 });
    // "𝒳" is a surrogate pair: 2 UTF-16 units, 4 bytes.
    expect(fromText[4]).toMatchObject({ line: 3, column: 13, endColumn: 18 });
    expect(fromBytes[4]).toMatchObject({ line: 3, column: 13, endColumn: 20 });
  });

  it('gives the same diagnostics for a parsed RobotsTxt as for its input', () => {
    expect(lint(parseRobotsTxt(text))).toEqual(lint(text));
    const bytes = encode(text);
    expect(lint(parseRobotsTxt(bytes))).toEqual(lint(bytes));
    expect(lint(bytes.buffer.slice(0) as ArrayBuffer)).toEqual(lint(bytes));
  });

  it('counts lines past a truncation, for text and bytes', () => {
    const big = bigFile('Disallow: /last\r\nmore\rlines\n');
    for (const input of [big, encode(big)]) {
      const d = lint(input).find((x) => x.code === 'content-too-large')!;
      expect(d).toMatchObject({ line: 515, column: 8, endLine: 518, endColumn: 1 });
      checkPositions(input, [d], 'truncated');
    }
  });

  it('puts problems of the whole file at offset 0', () => {
    expect(lint('User-agent: *\nDisallow: /x').find((d) => d.code === 'no-sitemap')).toMatchObject({
      range: { start: 0, end: 0 },
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
    });
  });

  it('sorts diagnostics by position', () => {
    const diagnostics = lint('Disallow: /a\nUser-agent: *\nAlow: /x\nDisallow: /\n');
    const starts = diagnostics.map((d) => d.range.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });
});

describe('what the linter reads agrees with the parser', () => {
  it('reports exactly the lines the parser flags, on the lines it flags them', () => {
    const text = [
      'Useragent: a',
      'Disallowed: /x',
      'Disallow /y',
      'Disallow: /z /w',
      'nonsense',
      'User-agent: b',
      'Allow: /q',
    ].join('\n');
    const records = parseRobotsTxt(text).records;
    const byCode = (code: LintCode) =>
      lint(text)
        .filter((d) => d.code === code)
        .map((d) => d.line);
    expect(byCode('field-name-typo')).toEqual(records.filter((r) => r.flags.typo).map((r) => r.line));
    expect(byCode('field-name-prefix')).toEqual(
      records.filter((r) => r.flags.prefixKey && !r.flags.typo).map((r) => r.line),
    );
    expect(byCode('missing-colon')).toEqual(records.filter((r) => r.flags.missingColon).map((r) => r.line));
    expect(byCode('unparseable-line')).toEqual(records.filter((r) => r.kind === 'invalid').map((r) => r.line));
    // "Disallow: /z /w" has a colon: Google reads it, with a space in the pattern.
    expect(byCode('unencoded-path-character')).toEqual([4]);
  });

  it('does not build records or run rules when only parsing', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /x');
    expect(Object.getOwnPropertyDescriptor(robots, 'cachedRecords')?.value).toBeNull();
  });
});

describe('options', () => {
  const text = 'User-agent: *\nCrawl-delay: 5\nDisallow: /x\nSitemap: /s.xml';

  it('turns rules off and changes severities', () => {
    const codes = (d: Diagnostic[]) => d.map((x) => `${x.code}:${x.severity}`);
    expect(codes(lint(text))).toEqual(['ignored-directive:warning', 'invalid-sitemap-url:error']);
    expect(codes(lint(text, { rules: { 'ignored-directive': 'off', 'invalid-sitemap-url': 'warning' } }))).toEqual([
      'invalid-sitemap-url:warning',
    ]);
  });

  it('resolves relative sitemap URLs against the robots.txt URL for the fix', () => {
    const [d] = lint(text, { url: 'https://example.com/robots.txt', rules: { 'ignored-directive': 'off' } });
    expect(d?.fix?.edits).toEqual([{ range: { start: 51, end: 57 }, text: 'https://example.com/s.xml' }]);
    expect(lint(text, { url: new URL('https://example.com/robots.txt') })).toEqual(
      lint(text, { url: 'https://example.com/robots.txt' }),
    );
  });

  it('throws only for programmer errors', () => {
    expect(() => lint(text, { rules: { 'no-such-code': 'off' } as never })).toThrow(RangeError);
    expect(() => lint(text, { rules: { 'no-sitemap': 'fatal' } as never })).toThrow(RangeError);
    expect(() => lint(text, { url: 'not a url' })).toThrow(TypeError);
    expect(() => lint(42 as never)).toThrow(TypeError);
  });
});

describe('rules and their documentation', () => {
  const pages = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => f.slice(0, -3))
    .sort();

  it('has one page per code and one code per page', () => {
    expect(pages).toEqual([...CODES].sort());
  });

  it('codes are unique, kebab-case, and each rule is complete', () => {
    expect(new Set(CODES).size).toBe(CODES.length);
    for (const rule of LINT_RULES) {
      expect(rule.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(['error', 'warning', 'info']).toContain(rule.severity);
      expect(rule.name.length).toBeGreaterThan(3);
      expect(rule.description).toMatch(/\.$/);
      expect(rule.docs).toBe(`${LINT_DOCS_BASE}${rule.code}.md`);
    }
  });

  it('LintCode is the registry’s codes and nothing else (held by the typecheck)', () => {
    const known: LintCode = 'field-name-typo';
    // @ts-expect-error a code no rule of the registry has
    const unknown: LintCode = 'no-such-code';
    expect(CODES).toContain(known);
    expect(CODES).not.toContain(unknown);
  });

  it('each page says what, why it matters, an example and the fix, with the rule\u2019s severity', () => {
    for (const rule of LINT_RULES) {
      const page = readFileSync(join(DOCS, `${rule.code}.md`), 'utf8');
      expect(page.startsWith(`# ${rule.code}\n`), rule.code).toBe(true);
      for (const section of ['## What', '## Why it matters', '## Example', '## Fix'])
        expect(page, rule.code).toContain(section);
      expect(page, rule.code).toContain(`severity: ${rule.severity}`);
    }
  });

  it('the index lists every code with its severity', () => {
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
    const listed = [...index.matchAll(/^\| \[`([a-z0-9-]+)`\]\(\1\.md\) \| (\w+) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(listed.sort()).toEqual(LINT_RULES.map((r) => `${r.code} ${r.severity}`).sort());
  });
});
