/**
 * `TextLines`, the engine's line counter for tools: lines split as the parser splits them (CR, LF, CRLF), columns in
 * the input's units and in UTF-16 code units of the decoded line.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextLines } from '../src/index.js';
import { lint } from '../src/lint/index.js';

const encoder = new TextEncoder();

describe('TextLines', () => {
  it('splits lines at CR, LF and CRLF, as a string or as bytes', () => {
    const text = 'a\r\nb\rc\nd\n';
    expect(new TextLines(text).lines()).toEqual(['a', 'b', 'c', 'd', '']);
    expect(new TextLines(encoder.encode(text)).lines()).toEqual(['a', 'b', 'c', 'd', '']);
    expect(new TextLines('').lines()).toEqual(['']);
    expect(new TextLines('x').count).toBe(1);
  });

  it('counts byte columns and UTF-16 columns of the decoded line', () => {
    const bytes = encoder.encode('User-agent: *\nDisallow: /é€😀/x\n');
    const lines = new TextLines(bytes);
    const offset = bytes.indexOf(0x78); // the "x"
    expect(lines.position(offset)).toEqual({ line: 2, column: 1 + encoder.encode('Disallow: /é€😀/').length });
    expect(lines.utf16Position(offset)).toEqual({ line: 2, column: 1 + 'Disallow: /é€😀/'.length });
    expect(lines.lineText(2)).toBe('Disallow: /é€😀/x');
    expect(lines.lineText(9)).toBe('');
  });

  it('agrees with a split of the decoded text for any text', () => {
    const piece = fc.constantFrom('a', 'é', '😀', '\r', '\n', '\r\n', ' ', ':');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(new TextLines(text).lines()).toEqual(text.split(/\r\n|\r|\n/));
        expect(new TextLines(encoder.encode(text)).lines()).toEqual(text.split(/\r\n|\r|\n/));
      }),
    );
  });

  it('gives the lines and columns lint() gives for the decoded text', () => {
    const text = '\uFEFFUser-agent: *\r\nDisalow: /é\rAllow /x\n';
    const bytes = encoder.encode(text);
    const lines = new TextLines(bytes);
    const fromText = lint(text);
    const fromBytes = lint(bytes);
    expect(fromBytes.length).toBeGreaterThan(0);
    expect(fromBytes.map((d) => lines.utf16Position(d.range.start))).toEqual(
      fromText.map((d) => ({ line: d.line, column: d.column })),
    );
  });
});
