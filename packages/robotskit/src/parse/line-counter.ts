/**
 * Line and column from offsets. Offsets are the truth; a line counter derives 1-based positions from them, counting
 * CR, LF and CRLF as one line break each, like the parser.
 */

import { utf8Decoder as utf8 } from './input.js';

/** A 1-based position. */
export interface Position {
  readonly line: number;
  /** 1-based, in the input's units. */
  readonly column: number;
}

/** Text to count line breaks in: a string, or anything that reads like one (bytes). */
export interface CharCodes {
  readonly length: number;
  charCodeAt(index: number): number;
}

/** Converts input offsets into 1-based lines and columns. */
export class LineCounter {
  /** Offset where each line starts; index 0 is line 1. */
  protected readonly starts: number[];

  /**
   * @param starts Offsets where lines start, ascending, the first being 0.
   * @param tail Text after `from` whose line breaks start more lines (the part of a truncated input that was not
   *   parsed), with indices that are input offsets; null when there is none or it is not available.
   */
  constructor(starts: number[], tail: { text: CharCodes; from: number } | null) {
    this.starts = starts;
    if (tail !== null) this.addTail(tail.text, tail.from);
  }

  private addTail(text: CharCodes, from: number): void {
    const starts = this.starts;
    let i = from;
    // The parse may have stopped between the CR and the LF of one CRLF: the line after it starts past the LF.
    if (text.charCodeAt(i - 1) === 0x0d && text.charCodeAt(i) === 0x0a) {
      if (starts[starts.length - 1] === i) starts[starts.length - 1] = i + 1;
      i++;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || c === 0x0d) {
        if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      }
    }
  }

  /** The 0-based index of the line holding an offset. */
  protected lineIndex(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The 1-based line and column of an offset. */
  position(offset: number): Position {
    const index = this.lineIndex(offset);
    return { line: index + 1, column: offset - this.starts[index]! + 1 };
  }
}

/**
 * The lines of a whole input, as the parser splits them (CR, LF and CRLF each end one line), for tools that show
 * positions and lines: `position` counts columns in the input's units (bytes for bytes, UTF-16 code units for a
 * string, like a diagnostic's `range`), `utf16Position` in UTF-16 code units of the decoded line (what editors and
 * SARIF count), `lineText` and `lines` give the decoded text without line breaks. A byte-order mark stays in the first
 * line's text and columns, as it is in the input.
 */
export class TextLines extends LineCounter {
  private readonly input: string | Uint8Array;

  constructor(input: string | Uint8Array) {
    const starts = [0];
    if (typeof input === 'string') {
      for (let i = 0; i < input.length; i++) {
        const c = input.charCodeAt(i);
        if (c === 0x0d && input.charCodeAt(i + 1) === 0x0a) i++;
        if (c === 0x0a || c === 0x0d) starts.push(i + 1);
      }
    } else {
      for (let i = 0; i < input.length; i++) {
        const b = input[i];
        if (b === 0x0d && input[i + 1] === 0x0a) i++;
        if (b === 0x0a || b === 0x0d) starts.push(i + 1);
      }
    }
    super(starts, null);
    this.input = input;
  }

  /** How many lines there are (an input ending in a line break has an empty last line). */
  get count(): number {
    return this.starts.length;
  }

  private slice(start: number, end: number): string {
    const input = this.input;
    return typeof input === 'string' ? input.slice(start, end) : utf8.decode(input.subarray(start, end));
  }

  /** The 1-based line and UTF-16 column of an input offset (for a string, the same as `position`). */
  utf16Position(offset: number): Position {
    const index = this.lineIndex(offset);
    const start = this.starts[index]!;
    return { line: index + 1, column: this.slice(start, offset).length + 1 };
  }

  /** The input offsets of a 1-based line's content, without its line break; empty at the end past the last line. */
  lineRange(line: number): { readonly start: number; readonly end: number } {
    const input = this.input;
    const start = this.starts[line - 1] ?? input.length;
    let end = this.starts[line] ?? input.length;
    const at = (i: number) => (typeof input === 'string' ? input.charCodeAt(i) : input[i]);
    while (end > start && (at(end - 1) === 0x0a || at(end - 1) === 0x0d)) end--;
    return { start, end };
  }

  /** The text of a 1-based line, without its line break; empty past the end. */
  lineText(line: number): string {
    const { start, end } = this.lineRange(line);
    return this.slice(start, end);
  }

  /** Every line's text, without line breaks. */
  lines(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.lineText(i + 1));
  }
}
